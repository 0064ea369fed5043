;;; highlight-ls-large-file-test.el --- a 40,000-line file under lsp-mode or Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-large-file-test.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot; HIGHLIGHT_LS_LARGE_LINES changes the size;
;; HIGHLIGHT_LS_LARGE_LINE_INDICATORS=1 gives the `todo' style a gutter sign and a whole line, so
;; every line also gets a line overlay, and checks that the edit makes or deletes none.)
;;
;; Opens a file of 40,000 lines with a TODO on every line (the file Neovim's draw_bench.lua
;; uses), waits for the decorations and
;; checks every overlay drawn (position and face); then inserts a line with a FIXME at the
;; top and checks every overlay again, that the notification carried only the lines the
;; edit changed (a delta: `edit', with ranges on those lines only), and that the redraw
;; made and deleted only the overlays that changed (one).  Then it edits the middle and the
;; end (typing, inserting, deleting and joining lines) and checks that what is drawn equals
;; what a fresh whole payload draws, and that a broken chain of deltas recovers.  It prints
;; how long the drawing took, from the moment the notification reached the client's
;; handler (parsed) to the overlays drawn, and from the edit to the overlays redrawn; those
;; figures are not asserted (highlight-ls-bench.el measures them end to end).

;;; Code:

(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)


(defconst highlight-ls-large--lines
  (string-to-number (or (getenv "HIGHLIGHT_LS_LARGE_LINES") "40000")))

(defconst highlight-ls-large--line-indicators (equal (getenv "HIGHLIGHT_LS_LARGE_LINE_INDICATORS") "1")
  "Whether the `todo' style has a gutter sign and a whole line.")

(defvar-local highlight-ls-large--churn nil
  "The decoration overlays the latest drawing made and deleted.")

(defvar-local highlight-ls-large--line-churn nil
  "The line overlays the latest drawing made and deleted.")

(defun highlight-ls-large--count-churn (churn)
  "Keep CHURN, (RANGES . LINES) from the latest drawing; return it."
  (setq highlight-ls-large--churn (car churn)
        highlight-ls-large--line-churn (cdr churn))
  churn)

;; The file of editors/neovim/test/draw_bench.lua, so that the figures compare.
(defconst highlight-ls-large--line-format "%06d some words before the TODO and some after it\n"
  "Line N of the file, numbered from 1.")
(defconst highlight-ls-large--todo-column 29
  "The column of the TODO on each line.")
(defconst highlight-ls-large--first-line "FIXME a new first line\n"
  "The line the edit inserts at the top.")

(defvar highlight-ls-large--draws nil
  "Every call of the decorations handler, latest first: (START END CHURN CPU).
START and END are wall-clock times, CPU the processor time the call used.")

(defun highlight-ls-large--record (draw params)
  "Call DRAW with PARAMS and record when it started and ended, and its churn.
PARAMS are recorded too."
  (let* ((start (float-time))
         (cpu (float-time (get-internal-run-time)))
         (buffer (funcall draw params))
         (churn (and buffer (buffer-local-value 'highlight-ls-large--churn buffer))))
    (push (list start (float-time) churn (- (float-time (get-internal-run-time)) cpu) params)
          highlight-ls-large--draws)
    buffer))

(defun highlight-ls-large--drawn-p (count first-start)
  "Whether COUNT overlays are drawn, the first at FIRST-START."
  (let ((overlays highlight-ls--overlays))
    (and (= (length overlays) count)
         (> count 0)
         (overlay-start (aref overlays 0))
         (= (overlay-start (aref overlays 0)) first-start))))

(defun highlight-ls-large--check-every-line (from-line todo)
  "Check that each line from FROM-LINE on has exactly one overlay, on its TODO.
TODO is the face expected.  Reads the overlays with `overlays-in', not the
package's own list.  Return the number of lines that are wrong."
  (let ((overlays (highlight-ls-test-overlays))
        (wrong 0)
        (first-wrong nil))
    (save-excursion
      (goto-char (point-min))
      (forward-line from-line)
      (while (and overlays (< (car (car overlays)) (point)))
        (pop overlays))
      (let ((line from-line))
        (while (not (eobp))
          (let* ((overlay (pop overlays))
                 (start (+ (point) highlight-ls-large--todo-column)))
            (unless (and overlay
                         (= (nth 0 overlay) start)
                         (= (nth 1 overlay) (+ start 4))
                         (highlight-ls-test-same-face-p todo (nth 2 overlay)))
              (cl-incf wrong)
              (unless first-wrong (setq first-wrong (list line overlay)))))
          (cl-incf line)
          (forward-line 1))))
    (when overlays (cl-incf wrong (length overlays)))
    (when first-wrong (highlight-ls-test-say "first wrong line: %S" first-wrong))
    wrong))

(defun highlight-ls-large--only-edited-lines-p (params)
  "Whether PARAMS are a delta whose ranges and lines are all on the lines it replaces."
  (let* ((edit (highlight-ls--get params :edit))
         (start (highlight-ls--get edit :startLine))
         (end (highlight-ls--get edit :endLine))
         (on-lines (lambda (values step)
                     (cl-loop for index from 0 below (length values) by step
                              always (and (<= start (aref values index)) (< (aref values index) end))))))
    (and edit (integerp start) (integerp end)
         (funcall on-lines (highlight-ls--vector (highlight-ls--get edit :ranges)) 4)
         (funcall on-lines (highlight-ls--vector (highlight-ls--get edit :lines)) 3))))

(let* ((binary (highlight-ls-test-binary))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-large" t)))
       (sample (expand-file-name "large.txt" workspace))
       (lines highlight-ls-large--lines)
       (todo '(:foreground "#1a1a1a" :background "#f9a825" :weight bold))
       (fixme '(:foreground "#ffffff" :background "#d32f2f" :weight bold))
       (name (format "emacs-large-%s" highlight-ls-test-client)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  (highlight-ls-test-load-package workspace)
  (require (if (eq highlight-ls-test-client 'eglot) 'highlight-ls-eglot 'highlight-ls-lsp))
  (setq highlight-ls-command (list binary))
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)
  (advice-add 'highlight-ls--on-publish-decorations :around #'highlight-ls-large--record)
  (advice-add 'highlight-ls--draw-spans :filter-return #'highlight-ls-large--count-churn)
  (when highlight-ls-large--line-indicators
    (with-temp-file (expand-file-name ".highlights.json" workspace)
      (insert "{ \"styles\": { \"todo\": { \"color\": \"#1a1a1a\", \"backgroundColor\": \"#f9a825\", \"bold\": true,\n"
              "  \"gutter\": \"T\", \"wholeLine\": true } } }\n")))
  (with-temp-file sample
    (dotimes (line lines)
      (insert (format highlight-ls-large--line-format (1+ line)))))
  (with-current-buffer (find-file-noselect sample)
    (text-mode)
    (let ((opened (float-time)))
      (highlight-ls-test-connect highlight-ls-test-client workspace)
      (highlight-ls-test-wait (lambda () (highlight-ls-large--drawn-p lines (+ 1 highlight-ls-large--todo-column))))
      (let ((drawn (float-time))
            (draw (car highlight-ls-large--draws)))
        (highlight-ls-test-check (highlight-ls-large--drawn-p lines (+ 1 highlight-ls-large--todo-column))
                                 "%d overlays drawn after opening: %d" lines (length highlight-ls--overlays))
        (highlight-ls-test-check (= 0 (highlight-ls-large--check-every-line 0 todo))
                                 "every line's TODO drawn after opening")
        (when highlight-ls-large--line-indicators
          (highlight-ls-test-check (= (length highlight-ls--line-overlays) lines)
                                   "%d line overlays after opening: %d" lines (length highlight-ls--line-overlays)))
        (highlight-ls-test-say
         "%s: %d lines opened: drawn %.3f s (CPU %.3f s) after the notification reached the handler; %.3f s from connecting to drawn"
         name lines (- (nth 1 draw) (nth 0 draw)) (nth 3 draw) (- drawn opened))))

    ;; The server publishes every document whole again once the client's settings arrive;
    ;; the edits below come after that.
    (highlight-ls-test-check (highlight-ls-test-settle highlight-ls-test-client)
                             "the server settled after its start")

    ;; An edit at the top: a new first line with a FIXME; every other line moves down.
    (let ((before (length highlight-ls-large--draws))
          (edited (float-time)))
      (goto-char (point-min))
      (insert highlight-ls-large--first-line)
      (highlight-ls-test-send-changes highlight-ls-test-client)
      (highlight-ls-test-wait (lambda () (highlight-ls-large--drawn-p (1+ lines) 1)))
      (let* ((drawn (float-time))
             (draw (car highlight-ls-large--draws))
             (params (nth 4 draw))
             (edit (highlight-ls--get params :edit)))
        (highlight-ls-test-check (= (length highlight-ls-large--draws) (1+ before))
                                 "one notification after the edit: %d" (- (length highlight-ls-large--draws) before))
        (highlight-ls-test-check (and edit (highlight-ls-large--only-edited-lines-p params)
                                      (equal (highlight-ls--get edit :startLine) 0)
                                      (<= (highlight-ls--get edit :endLine) 2)
                                      (<= (length (highlight-ls--get edit :ranges)) 8))
                                 "the notification carries only the edited lines: %S"
                                 (if edit
                                     (list :startLine (highlight-ls--get edit :startLine)
                                           :endLine (highlight-ls--get edit :endLine)
                                           :oldEndLine (highlight-ls--get edit :oldEndLine)
                                           :ranges (highlight-ls--get edit :ranges))
                                   (list :whole (length (highlight-ls--get params :ranges)))))
        (highlight-ls-test-check (highlight-ls-large--drawn-p (1+ lines) 1)
                                 "%d overlays drawn after the edit: %d" (1+ lines) (length highlight-ls--overlays))
        (let ((first (car (highlight-ls-test-overlays))))
          (highlight-ls-test-check (and first (= (nth 0 first) 1) (= (nth 1 first) 6)
                                        (highlight-ls-test-same-face-p fixme (nth 2 first)))
                                   "the new FIXME is drawn: %S" first))
        (highlight-ls-test-check (= 0 (highlight-ls-large--check-every-line 1 todo))
                                 "every other line's TODO still drawn after the edit")
        (highlight-ls-test-check (equal (nth 2 draw) 1)
                                 "the redraw made or deleted only the new overlay: %S" (nth 2 draw))
        (when highlight-ls-large--line-indicators
          (highlight-ls-test-check (and (= (length highlight-ls--line-overlays) lines)
                                        (equal highlight-ls-large--line-churn 0))
                                   "the %d line overlays moved with the text, none made or deleted: %S"
                                   (length highlight-ls--line-overlays) highlight-ls-large--line-churn))
        (highlight-ls-test-say
         "%s: edit at the top: redrawn %.3f s (CPU %.3f s) after the notification reached the handler; %.3f s from the edit to redrawn; %S overlays made or deleted"
         name (- (nth 1 draw) (nth 0 draw)) (nth 3 draw) (- drawn edited) (nth 2 draw))))

    ;; Edits in the middle and at the end, each drawn from deltas; then what is drawn must
    ;; be what a fresh whole payload draws.
    (let ((middle (/ lines 2)))
      (goto-char (point-min))
      (forward-line middle)
      (dolist (char (string-to-list "BUG "))
        (highlight-ls-test-edit highlight-ls-test-client (format "typing %c in the middle" char)
                                (lambda () (insert char))))
      (highlight-ls-test-edit highlight-ls-test-client "a line with a FIXME inserted"
                              (lambda () (highlight-ls-test-goto-line (+ middle 3)) (insert "FIXME new\n")))
      (highlight-ls-test-edit highlight-ls-test-client "two lines deleted"
                              (lambda () (highlight-ls-test-goto-line (+ middle 10))
                                (delete-region (point) (progn (forward-line 2) (point)))))
      (highlight-ls-test-edit highlight-ls-test-client "two lines joined"
                              (lambda () (highlight-ls-test-goto-line (+ middle 20))
                                (end-of-line) (delete-char 1)))
      (highlight-ls-test-edit highlight-ls-test-client "a line split before its TODO"
                              (lambda () (highlight-ls-test-goto-line (+ middle 30))
                                (search-forward "the TODO") (backward-char 4) (insert "\n")))
      (highlight-ls-test-edit highlight-ls-test-client "the last line deleted"
                              (lambda () (goto-char (point-max)) (forward-line -1)
                                (delete-region (point) (point-max))))
      (highlight-ls-test-check-as-whole "after edits in the middle and at the end")
      ;; Deltas that do not apply, and a notification lost.
      (highlight-ls-test-chain highlight-ls-test-client))
    (highlight-ls-test-shutdown highlight-ls-test-client))
  (highlight-ls-test-exit name))

;;; highlight-ls-large-file-test.el ends here
