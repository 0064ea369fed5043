;;; highlight-ls-test-support.el --- shared parts of the batch tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Checks that count, bounded waits, the overlays drawn, loading the package through its
;; autoloads, the server binary from $HIGHLIGHT_LS, and connecting a buffer with either
;; client.  Used by the Eglot, large-file, find and line-marks tests.

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

(declare-function lsp "lsp-mode")
(declare-function lsp-workspace-folders-add "lsp-mode")
(declare-function highlight-ls-mode "highlight-ls")

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

(provide 'highlight-ls-test-support)
;;; highlight-ls-test-support.el ends here
