;;; highlight-ls-lint.el --- byte-compile, checkdoc and package-lint of highlight-ls  -*- lexical-binding: t; -*-

;;; Commentary:

;; emacs --batch -l editors/emacs/test/highlight-ls-lint.el
;;
;; Byte-compiles every file of the package with warnings as errors (into a temporary
;; directory), runs checkdoc on each, and package-lint (Debian: elpa-package-lint) with
;; highlight-ls.el as the main file.  Then loads highlight-ls.el alone and checks that it
;; loaded neither lsp-mode nor Eglot.  Exits 0 when all is clean, 1 otherwise.

;;; Code:

(require 'cl-lib)
(require 'checkdoc)
(unless (require 'lsp-mode nil t)
  (require 'package)
  (package-initialize))

(defconst highlight-ls-lint--directory
  (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name))))
(defconst highlight-ls-lint--files
  '("highlight-ls.el" "highlight-ls-lsp.el" "highlight-ls-eglot.el"))

(defvar highlight-ls-lint--checks 0)
(defvar highlight-ls-lint--failures 0)

(defun highlight-ls-lint--check (condition format-string &rest arguments)
  "Count a check; report FORMAT-STRING with ARGUMENTS unless CONDITION holds."
  (cl-incf highlight-ls-lint--checks)
  (unless condition
    (cl-incf highlight-ls-lint--failures)
    (princ (format "FAIL: %s\n" (apply #'format format-string arguments)))))

;; A fresh Emacs that loads only highlight-ls.el loads no LSP client.
(let ((output (with-temp-buffer
                (call-process (expand-file-name invocation-name invocation-directory) nil t nil
                              "--batch" "-Q" "-L" highlight-ls-lint--directory
                              "--eval" "(progn (require 'highlight-ls) (princ (list (featurep 'lsp-mode) (featurep 'eglot) (fboundp 'global-highlight-ls-mode))))")
                (buffer-string))))
  (highlight-ls-lint--check (string-suffix-p "(nil nil t)" output)
                            "loading highlight-ls loads no client: %s" output))

;; Byte-compilation, warnings as errors.
(let ((byte-compile-error-on-warn t)
      (load-path (cons highlight-ls-lint--directory load-path))
      (output (make-temp-file "highlight-ls-elc" t)))
  (require 'eglot)
  (dolist (file highlight-ls-lint--files)
    (let* ((source (expand-file-name file highlight-ls-lint--directory))
           (byte-compile-dest-file-function
            (lambda (_) (expand-file-name (concat (file-name-base file) ".elc") output))))
      (highlight-ls-lint--check (ignore-errors (byte-compile-file source))
                                "%s byte-compiles without warnings" file))))

;; checkdoc.
(dolist (file highlight-ls-lint--files)
  (with-current-buffer (find-file-noselect (expand-file-name file highlight-ls-lint--directory))
    (let ((checkdoc-diagnostic-buffer (format "*checkdoc %s*" file)))
      (checkdoc-current-buffer t)
      (let ((report (with-current-buffer (get-buffer-create checkdoc-diagnostic-buffer)
                      (string-trim (replace-regexp-in-string "^\\*\\*\\*.*$\\|\f" "" (buffer-string))))))
        (highlight-ls-lint--check (string-empty-p report) "checkdoc %s:\n%s" file report)))))

;; package-lint.
(if (not (require 'package-lint nil t))
    (highlight-ls-lint--check nil "package-lint is not installed (Debian: elpa-package-lint)")
  (let ((package-lint-main-file "highlight-ls.el"))
    (dolist (file highlight-ls-lint--files)
      (with-current-buffer (find-file-noselect (expand-file-name file highlight-ls-lint--directory))
        (emacs-lisp-mode)
        (let ((issues (package-lint-buffer)))
          (highlight-ls-lint--check (null issues) "package-lint %s:\n%s" file
                                    (mapconcat (lambda (issue) (apply #'format "  %d:%d: %s: %s" issue))
                                               issues "\n")))))))

(if (> highlight-ls-lint--failures 0)
    (progn (princ (format "emacs lint: FAILED (%d of %d checks failed)\n"
                          highlight-ls-lint--failures highlight-ls-lint--checks))
           (kill-emacs 1))
  (princ (format "emacs lint: ok (%d checks)\n" highlight-ls-lint--checks))
  (kill-emacs 0))

;;; highlight-ls-lint.el ends here
