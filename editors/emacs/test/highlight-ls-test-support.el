;;; highlight-ls-test-support.el --- shared parts of the batch tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Checks that count, bounded waits, the overlays drawn, loading the package through its
;; autoloads, the server binary from $HIGHLIGHT_LS, the client from
;; $HIGHLIGHT_LS_EMACS_CLIENT, and connecting a buffer with either client and stopping its
;; server.  Used by the Eglot, large-file, find, line-indicators, delta and counts tests and
;; the benchmark.  It needs neither client loaded: a test loads it first, then calls
;; `highlight-ls-test-require-client'.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defconst highlight-ls-test-support--directory
  (file-name-directory (or load-file-name buffer-file-name)))

(defvar highlight-ls-test-checks 0)
(defvar highlight-ls-test-failures 0)
(defvar highlight-ls-test-timeout
  (/ (string-to-number (or (getenv "HIGHLIGHT_LS_TEST_TIMEOUT_MS") "15000")) 1000.0)
  "Seconds any one wait may take before its check fails.")

(defvar lsp-session-file)
(defvar lsp-auto-guess-root)
(defvar lsp-restart)
(defvar lsp-keep-workspace-alive)
(defvar lsp-enable-file-watchers)
(defvar lsp-headerline-breadcrumb-enable)
(defvar lsp-modeline-code-actions-enable)
(defvar lsp-modeline-diagnostics-enable)
(defvar lsp-lens-enable)
(defvar lsp-modeline-workspace-status-enable)
(defvar lsp-enable-snippet)
(defvar lsp-warn-no-matched-clients)
(defvar lsp-enabled-clients)
(defvar lsp-diagnostics-provider)
(defvar lsp-completion-enable)
(defvar eglot-sync-connect)
(defvar eglot-autoshutdown)
(defvar eglot-send-changes-idle-time)
(defvar lsp--cur-workspace)

(declare-function lsp "lsp-mode")
(declare-function lsp-workspace-folders-add "lsp-mode")
(declare-function highlight-ls-mode "highlight-ls")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function lsp-session "lsp-mode")
(declare-function lsp--session-workspaces "lsp-mode")
(declare-function lsp--shutdown-workspace "lsp-mode")
(declare-function eglot-current-server "eglot")
(declare-function eglot-shutdown "eglot")

(defconst highlight-ls-test-client
  (intern (or (getenv "HIGHLIGHT_LS_EMACS_CLIENT") "lsp-mode"))
  "The client the test runs under, `lsp-mode' or `eglot'.
From $HIGHLIGHT_LS_EMACS_CLIENT; `lsp-mode' when unset.")

(defun highlight-ls-test-require-client ()
  "Load `highlight-ls-test-client', activating the installed packages if need be.
Without -Q, Debian's site-start puts elpa-lsp-mode and elpa-eglot on the load
path; elsewhere `package-initialize' does."
  (unless (require highlight-ls-test-client nil t)
    (require 'package)
    (package-initialize)
    (require highlight-ls-test-client)))

(defun highlight-ls-test-connect (client workspace)
  "Connect the current buffer to highlight-ls in WORKSPACE with CLIENT (`lsp-mode' or `eglot')."
  (pcase client
    ('lsp-mode
     (setq lsp-session-file (expand-file-name ".lsp-session" workspace)
           lsp-auto-guess-root nil
           lsp-restart 'ignore
           lsp-keep-workspace-alive nil
           lsp-enable-file-watchers nil
           lsp-headerline-breadcrumb-enable nil
           lsp-modeline-code-actions-enable nil
           lsp-modeline-diagnostics-enable nil
           lsp-lens-enable nil
           lsp-modeline-workspace-status-enable nil
           lsp-enable-snippet nil
           lsp-completion-enable nil
           lsp-diagnostics-provider :none
           lsp-warn-no-matched-clients nil
           lsp-enabled-clients '(highlight-ls))
     (lsp-workspace-folders-add workspace)
     (setq highlight-ls-client 'lsp-mode)
     (lsp))
    ('eglot
     (setq highlight-ls-client 'eglot
           eglot-sync-connect 30
           eglot-autoshutdown nil
           eglot-send-changes-idle-time 0)
     (highlight-ls-mode 1))))

;; `with-lsp-workspace' is written out as the `let' it stands for: this file is loaded
;; before lsp-mode, when the macro is not yet defined.
(defun highlight-ls-test-shutdown (client &optional buffer)
  "Stop the server CLIENT (`lsp-mode' or `eglot') started.
lsp-mode stops every workspace of its session; Eglot the server of BUFFER,
the current buffer unless given."
  (pcase client
    ('lsp-mode
     (dolist (workspace (lsp--session-workspaces (lsp-session)))
       (let ((lsp--cur-workspace workspace))
         (lsp--shutdown-workspace))))
    ('eglot
     (with-current-buffer (or buffer (current-buffer))
       (ignore-errors (eglot-shutdown (eglot-current-server)))))))

(defun highlight-ls-test-say (format-string &rest arguments)
  "Print FORMAT-STRING with ARGUMENTS on standard output."
  (princ (concat (apply #'format format-string arguments) "\n")))

(defun highlight-ls-test-check (condition format-string &rest arguments)
  "Count a check; report FORMAT-STRING with ARGUMENTS unless CONDITION holds."
  (cl-incf highlight-ls-test-checks)
  (unless condition
    (cl-incf highlight-ls-test-failures)
    (highlight-ls-test-say "FAIL: %s" (apply #'format format-string arguments)))
  condition)

(defun highlight-ls-test-exit (name)
  "Exit with the status of the checks made, reporting them under NAME."
  (if (> highlight-ls-test-failures 0)
      (progn
        (highlight-ls-test-say "%s: FAILED (%d of %d checks failed)"
                               name highlight-ls-test-failures highlight-ls-test-checks)
        (kill-emacs 1))
    (highlight-ls-test-say "%s: ok (%d checks)" name highlight-ls-test-checks)
    (kill-emacs 0)))

(defun highlight-ls-test-wait (predicate)
  "Wait (bounded) until PREDICATE returns non-nil; return its last value."
  (let ((deadline (+ (float-time) highlight-ls-test-timeout))
        (value nil))
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.01))
    value))

(defun highlight-ls-test-binary ()
  "The server binary from $HIGHLIGHT_LS, or highlight-ls on PATH."
  (let ((value (getenv "HIGHLIGHT_LS")))
    (if (or (null value) (string-empty-p value)) "highlight-ls" value)))

(defun highlight-ls-test-load-package (directory)
  "Install the package into DIRECTORY as a package manager does, and load it.
Its files are byte-compiled there and its autoloads written and loaded."
  (let ((package (expand-file-name ".." highlight-ls-test-support--directory))
        (autoloads (expand-file-name "highlight-ls-autoloads.el" directory)))
    (dolist (file (directory-files package t "\\`highlight-ls.*\\.el\\'"))
      (copy-file file (expand-file-name (file-name-nondirectory file) directory) t))
    (add-to-list 'load-path directory)
    ;; The main file first: compiling the others requires it, and what is loaded then
    ;; stays loaded, so it must be the compiled file.
    (dolist (file (sort (directory-files directory t "\\`highlight-ls.*\\.el\\'")
                        (lambda (a _) (string-suffix-p "/highlight-ls.el" a))))
      (unless (string-suffix-p "-autoloads.el" file)
        (let ((inhibit-message t))
          (byte-compile-file file))))
    (highlight-ls-test-check (byte-code-function-p (symbol-function 'highlight-ls--walk-spans))
                             "the package runs byte-compiled")
    (make-directory-autoloads directory autoloads)
    (load autoloads nil t)))

(defun highlight-ls-test-overlays ()
  "The decoration overlays of the current buffer as (START END FACE), in order."
  (sort (mapcar (lambda (overlay)
                  (list (overlay-start overlay) (overlay-end overlay) (overlay-get overlay 'face)))
                (cl-remove-if-not (lambda (overlay) (overlay-get overlay 'highlight-ls))
                                  (overlays-in (point-min) (point-max))))
        (lambda (a b) (< (car a) (car b)))))

(defun highlight-ls-test-same-face-p (expected actual)
  "Whether face plists EXPECTED and ACTUAL have the same attributes."
  (and (= (length expected) (length actual))
       (cl-loop for (key value) on expected by #'cddr
                always (equal (plist-get actual key) value))))

(defun highlight-ls-test-matches-p (expected)
  "Whether the current overlays are EXPECTED, a list of (START END FACE)."
  (let ((actual (highlight-ls-test-overlays)))
    (and (= (length expected) (length actual))
         (cl-every (lambda (want got)
                     (and (= (nth 0 want) (nth 0 got))
                          (= (nth 1 want) (nth 1 got))
                          (highlight-ls-test-same-face-p (nth 2 want) (nth 2 got))))
                   expected actual))))

(defun highlight-ls-test-wait-for (expected what)
  "Wait (bounded) until the current overlays are EXPECTED; check it, naming WHAT."
  (highlight-ls-test-wait (lambda () (highlight-ls-test-matches-p expected)))
  (highlight-ls-test-check (highlight-ls-test-matches-p expected)
                           "%s: overlays\n  expected %S\n  got      %S"
                           what expected (highlight-ls-test-overlays)))

;;;; Deltas

(defvar highlight-ls-test-configuration-answers 0
  "How many `workspace/configuration' requests of the server the client answered.")

(defun highlight-ls-test--count-configuration-answer (&rest arguments)
  "Count an answer to `workspace/configuration', whichever client gave it.
ARGUMENTS are those of lsp-mode's handler or of `eglot-handle-request'."
  (when (or (not (cl-typep (car arguments) 'eieio-object))
            (eq (nth 1 arguments) 'workspace/configuration))
    (cl-incf highlight-ls-test-configuration-answers)))

(with-eval-after-load 'highlight-ls-lsp
  (advice-add 'highlight-ls-lsp--configuration :after #'highlight-ls-test--count-configuration-answer))
(with-eval-after-load 'eglot
  (advice-add 'eglot-handle-request :after #'highlight-ls-test--count-configuration-answer))

(defvar highlight-ls-test-drawn nil
  "Every payload drawn, latest first: (VERSION KIND), KIND `delta' or `whole'.")

(defvar-local highlight-ls-test-drawn-version nil
  "The document version of the payload drawn last in the buffer.")

(defvar highlight-ls-test-requests 0
  "How many times the whole set of decorations was asked for.")

(defvar highlight-ls-test-drop 0
  "How many of the next notifications to drop before the package sees them.")

(defvar highlight-ls-test-dropped 0
  "How many notifications were dropped.")

(defun highlight-ls-test--note-drawn (apply params version)
  "Call APPLY with PARAMS and VERSION; note the payload when it was drawn."
  (let ((drawn (funcall apply params version)))
    (when drawn
      (setq highlight-ls-test-drawn-version version)
      (push (list version (if (highlight-ls--get params :edit) 'delta 'whole)) highlight-ls-test-drawn))
    drawn))

(defun highlight-ls-test--count-request (&rest _)
  "Count a request for the whole set of decorations."
  (cl-incf highlight-ls-test-requests))

(defun highlight-ls-test--maybe-drop (handle params)
  "Call HANDLE with PARAMS, unless the notification is to be dropped."
  (if (> highlight-ls-test-drop 0)
      (progn (cl-decf highlight-ls-test-drop)
             (cl-incf highlight-ls-test-dropped)
             nil)
    (funcall handle params)))

(with-eval-after-load 'highlight-ls
  (advice-add 'highlight-ls--apply :around #'highlight-ls-test--note-drawn)
  (advice-add 'highlight-ls-refresh :before #'highlight-ls-test--count-request)
  (advice-add 'highlight-ls--on-publish-decorations :around #'highlight-ls-test--maybe-drop))

(defun highlight-ls-test-caught-up-p ()
  "Whether the current buffer shows the decorations of its current version."
  (and (equal highlight-ls-test-drawn-version (highlight-ls--client-version highlight-ls--client))
       (not highlight-ls--needs-whole)
       (null highlight-ls--request)))

(defun highlight-ls-test-edit (client what edit &optional recovering)
  "Make EDIT, a function, and send it through CLIENT; check how it was drawn.
WHAT names the edit.  The buffer must catch up with its version, and
unless RECOVERING, from deltas only, without asking for the whole set;
when RECOVERING, by asking for the whole set once."
  (let ((requests highlight-ls-test-requests)
        (drawn highlight-ls-test-drawn))
    (funcall edit)
    (highlight-ls-test-send-changes client)
    (highlight-ls-test-wait #'highlight-ls-test-caught-up-p)
    (highlight-ls-test-check (highlight-ls-test-caught-up-p)
                             "%s: the buffer shows its version %S (drawn %S, needs whole %S, request %S)"
                             what (highlight-ls--client-version highlight-ls--client)
                             highlight-ls-test-drawn-version highlight-ls--needs-whole highlight-ls--request)
    (let ((kinds (mapcar #'cadr (cl-ldiff highlight-ls-test-drawn drawn))))
      (if recovering
          (highlight-ls-test-check (and (= highlight-ls-test-requests (1+ requests)) (memq 'whole kinds))
                                   "%s: recovered by asking for the whole set once: %d requests, drawn %S"
                                   what (- highlight-ls-test-requests requests) kinds)
        (highlight-ls-test-check (and (= highlight-ls-test-requests requests) kinds
                                      (cl-every (lambda (kind) (eq kind 'delta)) kinds))
                                 "%s: drawn from deltas only: %d requests, drawn %S"
                                 what (- highlight-ls-test-requests requests) kinds)))))

(defun highlight-ls-test-goto-line (line)
  "Move to the start of LINE, zero-based."
  (goto-char (point-min))
  (forward-line line))

(defun highlight-ls-test-chain (client)
  "Check in the current buffer, through CLIENT, how deltas that do not apply are handled.
A delta that names a payload the buffer does not show is dropped and asks for
the whole set, once however many such deltas come while it is asked for; a
delta for an older version is dropped without asking; a dropped notification
breaks the chain, and the next edit mends it."
  (let* ((uri (highlight-ls--client-uri highlight-ls--client))
         (version (highlight-ls--client-version highlight-ls--client))
         (requests highlight-ls-test-requests)
         (delta (lambda (version previous)
                  (list :textDocument (list :uri uri :version version)
                        :positionEncoding "utf-32" :resultId "x" :previousResultId previous
                        :styles [] :edit (list :startLine 0 :endLine 1 :oldEndLine 1 :ranges [])))))
    (highlight-ls-test-check (null (highlight-ls-apply-decorations (funcall delta version "nonesuch")))
                             "a delta on a payload the buffer does not show is dropped")
    (highlight-ls-test-check (and highlight-ls--needs-whole highlight-ls--request
                                  (= highlight-ls-test-requests (1+ requests)))
                             "and the whole set is asked for: %d requests" (- highlight-ls-test-requests requests))
    (highlight-ls-apply-decorations (funcall delta version "nonesuch"))
    (highlight-ls-apply-decorations (funcall delta version highlight-ls--result-id))
    (highlight-ls-test-check (= highlight-ls-test-requests (1+ requests))
                             "no second request while one is pending: %d requests"
                             (- highlight-ls-test-requests requests))
    (highlight-ls-test-wait #'highlight-ls-test-caught-up-p)
    (highlight-ls-test-check (highlight-ls-test-caught-up-p) "the answer is drawn")
    (highlight-ls-test-check-as-whole "after the answer")
    ;; A delta for an older version: its lines are not this text's.
    (setq requests highlight-ls-test-requests)
    (highlight-ls-test-check (null (highlight-ls-apply-decorations
                                    (funcall delta (1- version) highlight-ls--result-id)))
                             "a delta for an older version is dropped")
    (highlight-ls-test-check (and highlight-ls--needs-whole (null highlight-ls--request)
                                  (= highlight-ls-test-requests requests))
                             "and the whole set is asked for only once a payload for this version comes")
    (highlight-ls-test-edit client "the edit after a stale delta"
                            (lambda () (highlight-ls-test-goto-line 1) (insert "x")) t)
    (highlight-ls-test-check-as-whole "after the edit after a stale delta")
    ;; A notification lost: the buffer cannot know until the next one, a delta that names
    ;; the payload it never drew.
    (setq highlight-ls-test-drop 1)
    (highlight-ls-test-goto-line 1)
    (insert "TODO ")
    (highlight-ls-test-send-changes client)
    (highlight-ls-test-wait (lambda () (= highlight-ls-test-drop 0)))
    (highlight-ls-test-check (= highlight-ls-test-drop 0) "the notification after an edit was dropped")
    (highlight-ls-test-edit client "the edit after the lost notification"
                            (lambda () (highlight-ls-test-goto-line 3) (insert "\n")) t)
    (highlight-ls-test-check-as-whole "after the lost notification")
    (highlight-ls-test-edit client "the edit after the chain was mended"
                            (lambda () (highlight-ls-test-goto-line 2) (insert "FIXME ")))
    (highlight-ls-test-check-as-whole "after the edit after the chain was mended")))

(defun highlight-ls-test-settle (client)
  "Wait until the server of the current buffer has settled after its start.
The server asks CLIENT for settings once it is initialized (Eglot makes it
ask a second time), and publishes every document whole again when they
arrive, though nothing changed.  A `highlight/decorations' request after
the answers makes that publication redundant (the server then sends none),
and its answer is the payload the next delta builds on.  Return non-nil when
it settled."
  (let ((answers (if (eq client 'eglot) 2 1)))
    (highlight-ls-test-wait (lambda () (>= highlight-ls-test-configuration-answers answers)))
    (highlight-ls-refresh)
    (highlight-ls-test-wait (lambda () (null highlight-ls--request)))
    (and (>= highlight-ls-test-configuration-answers answers) (null highlight-ls--request)
         highlight-ls--result-id)))

(defun highlight-ls-test-send-changes (client)
  "Send the buffer's changes now, as CLIENT does after an edit.
lsp-mode sends them from `after-change-functions'; Eglot from an idle timer,
and batch Emacs is never idle."
  (when (eq client 'eglot)
    (eglot--signal-textDocument/didChange)))

(defun highlight-ls-test-drawn ()
  "What the current buffer shows: (RANGES LINES).
RANGES are the decoration overlays as (START END FACE), LINES the line
overlays as (START END FACE SIGN-FACE SIGN-TEXT), each in buffer order and
read with `overlays-in', not from the package's own lists."
  (save-restriction
    (widen)
    (let ((ranges nil)
          (lines nil))
      (dolist (overlay (overlays-in (point-min) (point-max)))
        (cond ((overlay-get overlay 'highlight-ls)
               (push (list (overlay-start overlay) (overlay-end overlay) (overlay-get overlay 'face))
                     ranges))
              ((overlay-get overlay 'highlight-ls-line)
               (push (list (overlay-start overlay) (overlay-end overlay) (overlay-get overlay 'face)
                           (overlay-get overlay 'highlight-ls-sign-face)
                           (overlay-get overlay 'highlight-ls-sign-text))
                     lines))))
      (let ((order (lambda (a b) (or (< (car a) (car b))
                                     (and (= (car a) (car b)) (< (cadr a) (cadr b)))))))
        (list (sort ranges order) (sort lines order))))))

(defun highlight-ls-test-whole ()
  "Ask the server for the current buffer's whole decorations; return the payload."
  (highlight-ls--request-sync
   highlight-ls-decorations-request
   (list :textDocument (list :uri (highlight-ls--client-uri highlight-ls--client)))))

(defun highlight-ls-test-drawn-fresh (payload)
  "What PAYLOAD, a whole payload, draws in a fresh buffer with the current text."
  (let ((text (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max)))))
    (with-temp-buffer
      (insert text)
      (highlight-ls--draw payload)
      (highlight-ls-test-drawn))))

(defun highlight-ls-test-first-difference (expected actual)
  "The first place where the lists EXPECTED and ACTUAL differ, as (INDEX WANT GOT)."
  (let ((index 0))
    (while (and (or expected actual) (equal (car expected) (car actual)))
      (setq expected (cdr expected)
            actual (cdr actual)
            index (1+ index)))
    (when (or expected actual)
      (list index (car expected) (car actual)))))

(defun highlight-ls-test-check-as-whole (what)
  "Check that the current buffer shows what a fresh whole payload draws, naming WHAT.
The server is asked for the whole set; what it draws in a fresh buffer with
the same text must equal what the buffer shows (ranges and line indicators).
The answer then becomes the buffer's payload (the server builds the next
delta on it), and drawing it must make and delete nothing.  Return the
whole payload."
  (let* ((drawn (highlight-ls-test-drawn))
         (payload (highlight-ls-test-whole))
         (fresh (highlight-ls-test-drawn-fresh payload)))
    (highlight-ls-test-check
     (equal drawn fresh)
     "%s: drawn as a fresh whole payload draws (%d ranges, %d lines; fresh %d, %d); first difference of ranges %S, of lines %S"
     what (length (car drawn)) (length (cadr drawn)) (length (car fresh)) (length (cadr fresh))
     (highlight-ls-test-first-difference (car fresh) (car drawn))
     (highlight-ls-test-first-difference (cadr fresh) (cadr drawn)))
    (let ((churn (highlight-ls-test-churn-of
                  (lambda () (highlight-ls-apply-decorations payload)))))
      (highlight-ls-test-check (equal churn '(0 0))
                               "%s: the whole payload, drawn over the buffer, makes and deletes nothing: %S"
                               what churn))
    (highlight-ls-test-check
     (and (= (length highlight-ls--overlays) (length (car drawn)))
          (= (length highlight-ls--line-overlays) (length (cadr drawn))))
     "%s: the package's lists hold the overlays drawn, no more: %d and %d, %d and %d"
     what (length highlight-ls--overlays) (length (car drawn))
     (length highlight-ls--line-overlays) (length (cadr drawn)))
    payload))

(defun highlight-ls-test-churn-of (thunk)
  "Call THUNK; return (RANGES LINES), the overlays its drawings made and deleted."
  (let* ((ranges 0)
         (lines 0)
         (count (lambda (churn)
                  (setq ranges (+ ranges (car churn))
                        lines (+ lines (cdr churn)))
                  churn)))
    (advice-add 'highlight-ls--draw-spans :filter-return count)
    (unwind-protect (funcall thunk)
      (advice-remove 'highlight-ls--draw-spans count))
    (list ranges lines)))

(provide 'highlight-ls-test-support)
;;; highlight-ls-test-support.el ends here
