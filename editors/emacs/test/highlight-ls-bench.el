;;; highlight-ls-bench.el --- open and edit a 40,000-line file, with deltas and without  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-bench.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot; HIGHLIGHT_LS_BENCH_ROUNDS, default 3, rounds
;; of each mode; HIGHLIGHT_LS_LARGE_LINES, default 40000, the size; HIGHLIGHT_LS_BENCH_GC and
;; HIGHLIGHT_LS_BENCH_READ_MAX set `gc-cons-threshold' and `read-process-output-max', which
;; lsp-mode's performance guide advises raising, in bytes.)
;;
;; Measures, end to end and in one Emacs, the two modes in turn: decorations as deltas
;; (`highlight-ls-decoration-deltas' on) and whole after every edit (off; the server
;; sends the whole document to a client that does not opt in).  Each round starts a
;; server for a fresh copy of the file of the large-file test (a TODO on every line) and
;; times:
;;
;;   open   from `(lsp)' (lsp-mode) or `(eglot-ensure)' (Eglot) to the decorations of
;;          every line drawn, split into: the client's start (the server's process and
;;          `initialize'), sending `didOpen' (the text), the server's answer reaching the
;;          handler (parsed), and drawing;
;;   edit   from inserting a line at the top to the decorations drawn again (Eglot's
;;          changes are sent at once, as `eglot-send-changes-idle-time' 0 does);
;;   key    from typing a character in the middle to the decorations drawn again.
;;
;; Between opening and editing it waits until the server has settled: it publishes every
;; document whole again when the client's settings arrive after the start.  Each timed
;; edit starts after a garbage collection.  Prints one line per round and the medians;
;; asserts nothing but that every drawing is complete.

;;; Code:

(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)

(defconst highlight-ls-bench--lines
  (string-to-number (or (getenv "HIGHLIGHT_LS_LARGE_LINES") "40000")))

(defconst highlight-ls-bench--rounds
  (string-to-number (or (getenv "HIGHLIGHT_LS_BENCH_ROUNDS") "3")))

(defconst highlight-ls-bench--todo-column 29
  "The column of the TODO on each line of the file.")

(defvar highlight-ls-bench--marks nil
  "When things happened in the current round: (NAME . TIME), latest first.")

(defun highlight-ls-bench--mark (name)
  "Note that NAME happened now, unless it was noted already this round."
  (unless (assq name highlight-ls-bench--marks)
    (push (cons name (float-time)) highlight-ls-bench--marks)))

(defun highlight-ls-bench--at (name)
  "When NAME happened this round, or nil."
  (cdr (assq name highlight-ls-bench--marks)))

(defvar highlight-ls-bench--last-handled 0
  "When the decorations handler last returned.")

(defun highlight-ls-bench--time-handler (handle params)
  "Call HANDLE with PARAMS, noting when the first call began and the last ended."
  (highlight-ls-bench--mark 'handler)
  (prog1 (funcall handle params)
    (setq highlight-ls-bench--last-handled (float-time))))

(defun highlight-ls-bench--settle ()
  "Wait until the server has settled after its start, and then half a second more.
Without deltas the server publishes the whole document again after the
client's settings arrive, whatever was asked before: this waits until no
notification came for half a second."
  (highlight-ls-test-settle highlight-ls-test-client)
  (let ((deadline (+ (float-time) highlight-ls-test-timeout)))
    (while (and (< (- (float-time) highlight-ls-bench--last-handled) 0.5)
                (< (float-time) deadline))
      (accept-process-output nil 0.05))))

(advice-add 'highlight-ls--on-publish-decorations :around #'highlight-ls-bench--time-handler)
(with-eval-after-load 'lsp-mode
  (advice-add 'lsp--text-document-did-open :after
              (lambda (&rest _) (highlight-ls-bench--mark 'did-open))))
(with-eval-after-load 'eglot
  (advice-add 'eglot--signal-textDocument/didOpen :before
              (lambda (&rest _) (highlight-ls-bench--mark 'initialized)))
  (advice-add 'eglot--signal-textDocument/didOpen :after
              (lambda (&rest _) (highlight-ls-bench--mark 'did-open))))
(with-eval-after-load 'lsp-mode
  (advice-add 'lsp--text-document-did-open :before
              (lambda (&rest _) (highlight-ls-bench--mark 'initialized))))

(defun highlight-ls-bench--drawn-p (count first-start)
  "Whether COUNT decoration overlays are drawn, the first at FIRST-START."
  (let ((overlays highlight-ls--overlays))
    (and (= (length overlays) count)
         (> count 0)
         (overlay-start (aref overlays 0))
         (= (overlay-start (aref overlays 0)) first-start))))

(defun highlight-ls-bench--open (file workspace)
  "Open FILE in WORKSPACE with the client; return the buffer."
  (let ((buffer (find-file-noselect file)))
    (with-current-buffer buffer
      (text-mode)
      (pcase highlight-ls-test-client
        ('lsp-mode
         ;; `highlight-ls-test-connect' sets lsp-mode's options and calls `lsp'; the clock
         ;; starts just before.
         (lsp-workspace-folders-add workspace)
         (setq highlight-ls-bench--marks nil)
         (highlight-ls-bench--mark 'start)
         (lsp))
        ('eglot
         (setq highlight-ls-bench--marks nil)
         (highlight-ls-bench--mark 'start)
         (eglot-ensure)
         ;; `eglot-ensure' connects after the command, and batch Emacs runs none.
         (run-hooks 'post-command-hook))))
    buffer))

(defun highlight-ls-bench--shutdown ()
  "Stop the server of the current buffer, and wait until it is gone."
  (highlight-ls-test-shutdown highlight-ls-test-client)
  ;; lsp-mode's server takes every folder (`:multi-root'): the next round's folder would
  ;; join this one if it were still running.
  (when (eq highlight-ls-test-client 'lsp-mode)
    (highlight-ls-test-wait (lambda () (null (lsp--session-workspaces (lsp-session)))))))

(defun highlight-ls-bench--round (deltas)
  "Open, edit and close the file once, with DELTAS or without; return the figures.
A plist: :open, :started, :sent, :answered, :drawn, :edit, :key (seconds)."
  (let* ((lines highlight-ls-bench--lines)
         (workspace (file-name-as-directory (make-temp-file "highlight-ls-bench" t)))
         (file (expand-file-name "large.txt" workspace))
         (figures nil))
    (with-temp-file file
      (dotimes (line lines)
        (insert (format "%06d some words before the TODO and some after it\n" (1+ line)))))
    (setq highlight-ls-decoration-deltas deltas)
    (garbage-collect)
    (with-current-buffer (highlight-ls-bench--open file workspace)
      (highlight-ls-test-wait (lambda () (highlight-ls-bench--drawn-p
                                          lines (+ 1 highlight-ls-bench--todo-column))))
      (let ((drawn (float-time))
            (start (highlight-ls-bench--at 'start)))
        (highlight-ls-test-check (highlight-ls-bench--drawn-p lines (+ 1 highlight-ls-bench--todo-column))
                                 "every line drawn after opening")
        (setq figures (list :open (- drawn start)
                            :started (- (highlight-ls-bench--at 'initialized) start)
                            :sent (- (highlight-ls-bench--at 'did-open) (highlight-ls-bench--at 'initialized))
                            :answered (- (highlight-ls-bench--at 'handler) (highlight-ls-bench--at 'did-open))
                            :drawn (- drawn (highlight-ls-bench--at 'handler)))))
      (highlight-ls-bench--settle)
      ;; Each timed edit starts after a collection, so that the garbage of what came before
      ;; (the drawing of the whole document, above all) is not collected during it.
      (garbage-collect)
      ;; A line inserted at the top.
      (let ((edited (float-time)))
        (goto-char (point-min))
        (insert "FIXME a new first line\n")
        (highlight-ls-test-send-changes highlight-ls-test-client)
        (highlight-ls-test-wait (lambda () (and (highlight-ls-test-caught-up-p)
                                                (highlight-ls-bench--drawn-p (1+ lines) 1))))
        (highlight-ls-test-check (highlight-ls-bench--drawn-p (1+ lines) 1) "every line drawn after the edit")
        (setq figures (append figures (list :edit (- (float-time) edited)))))
      ;; A key typed in the middle.
      (garbage-collect)
      (goto-char (point-min))
      (forward-line (/ lines 2))
      (let ((typed (float-time))
            (version (highlight-ls--client-version highlight-ls--client)))
        (insert "x")
        (highlight-ls-test-send-changes highlight-ls-test-client)
        (highlight-ls-test-wait (lambda () (and (highlight-ls-test-caught-up-p)
                                                (not (equal highlight-ls-test-drawn-version version)))))
        (highlight-ls-test-check (highlight-ls-test-caught-up-p) "drawn after the key")
        (setq figures (append figures (list :key (- (float-time) typed)))))
      (highlight-ls-bench--shutdown)
      (set-buffer-modified-p nil)
      (kill-buffer))
    (delete-directory workspace t)
    figures))

(defun highlight-ls-bench--median (values)
  "The median of VALUES."
  (let ((sorted (sort (copy-sequence values) #'<)))
    (nth (/ (length sorted) 2) sorted)))

(let ((binary (highlight-ls-test-binary))
      (name (format "emacs-bench-%s" highlight-ls-test-client))
      (package (make-temp-file "highlight-ls-package" t))
      (results (list (cons t nil) (cons nil nil))))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  (highlight-ls-test-load-package package)
  (require (if (eq highlight-ls-test-client 'eglot) 'highlight-ls-eglot 'highlight-ls-lsp))
  (setq highlight-ls-command (list binary))
  (when (getenv "HIGHLIGHT_LS_BENCH_GC")
    (setq gc-cons-threshold (string-to-number (getenv "HIGHLIGHT_LS_BENCH_GC"))))
  (when (getenv "HIGHLIGHT_LS_BENCH_READ_MAX")
    (setq read-process-output-max (string-to-number (getenv "HIGHLIGHT_LS_BENCH_READ_MAX"))))
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)
  ;; The options of `highlight-ls-test-connect', without connecting.
  (pcase highlight-ls-test-client
    ('lsp-mode
     (setq lsp-session-file (expand-file-name ".lsp-session" package)
           lsp-auto-guess-root nil lsp-restart 'ignore lsp-keep-workspace-alive nil
           lsp-enable-file-watchers nil lsp-headerline-breadcrumb-enable nil
           lsp-modeline-code-actions-enable nil lsp-modeline-diagnostics-enable nil
           lsp-lens-enable nil lsp-modeline-workspace-status-enable nil lsp-enable-snippet nil
           lsp-completion-enable nil lsp-diagnostics-provider :none
           lsp-warn-no-matched-clients nil lsp-enabled-clients '(highlight-ls)
           highlight-ls-client 'lsp-mode))
    ('eglot
     (setq highlight-ls-client 'eglot
           eglot-sync-connect 30
           eglot-autoshutdown nil
           eglot-send-changes-idle-time 0)
     (add-to-list 'eglot-server-programs '(text-mode . highlight-ls-eglot-contact))))
  (highlight-ls-test-say "%s: %d lines, server %s, Emacs %s, %s, read-process-output-max %d, gc-cons-threshold %d"
                         name highlight-ls-bench--lines binary emacs-version
                         (file-name-directory (locate-library (symbol-name highlight-ls-test-client)))
                         read-process-output-max gc-cons-threshold)
  (dotimes (round highlight-ls-bench--rounds)
    ;; The modes take turns, so that neither always runs first.
    (dolist (deltas (if (cl-evenp round) '(t nil) '(nil t)))
      (let ((figures (highlight-ls-bench--round deltas)))
        (push figures (cdr (assq deltas results)))
        (highlight-ls-test-say
         "%s %-6s open %.3f s (start %.3f, didOpen sent %.3f, answered %.3f, drawn %.3f); edit at the top %.3f s; key %.3f s"
         name (if deltas "delta" "whole")
         (plist-get figures :open) (plist-get figures :started) (plist-get figures :sent)
         (plist-get figures :answered) (plist-get figures :drawn)
         (plist-get figures :edit) (plist-get figures :key)))))
  (dolist (deltas '(t nil))
    (let ((rounds (cdr (assq deltas results))))
      (highlight-ls-test-say
       "%s median of %d, %-6s open %.3f s (didOpen sent %.3f, drawn %.3f); edit at the top %.3f s; key %.3f s"
       name (length rounds) (if deltas "delta" "whole")
       (highlight-ls-bench--median (mapcar (lambda (figures) (plist-get figures :open)) rounds))
       (highlight-ls-bench--median (mapcar (lambda (figures) (plist-get figures :sent)) rounds))
       (highlight-ls-bench--median (mapcar (lambda (figures) (plist-get figures :drawn)) rounds))
       (highlight-ls-bench--median (mapcar (lambda (figures) (plist-get figures :edit)) rounds))
       (highlight-ls-bench--median (mapcar (lambda (figures) (plist-get figures :key)) rounds)))))
  (highlight-ls-test-exit name))

;;; highlight-ls-bench.el ends here
