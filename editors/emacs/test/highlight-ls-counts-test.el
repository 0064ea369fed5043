;;; highlight-ls-counts-test.el --- mode line counts under lsp-mode or Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-counts-test.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot.)
;;
;; With `highlight-ls-mode-line-counts' on, checks that `highlight-ls-mode-line' shows the
;; workspace's counts once the server answers (an open file and one never visited), that it
;; is in `global-mode-string' once (the default mode line shows that), that an edit adding a
;; marker raises the counts without saving, and that an edit and a save lower them again.

;;; Code:

(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)

(defun highlight-ls-counts--wait-for (expected what)
  "Wait until `highlight-ls-mode-line' is EXPECTED; check it under WHAT."
  (highlight-ls-test-wait (lambda () (equal highlight-ls-mode-line expected)))
  (highlight-ls-test-check (equal highlight-ls-mode-line expected)
                           "%s: expected %S, got %S" what expected highlight-ls-mode-line))

(let* ((binary (highlight-ls-test-binary))
       (name (format "emacs-counts-%s" highlight-ls-test-client))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-counts" t)))
       (sample (expand-file-name "notes.txt" workspace)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  ;; The package goes elsewhere: the workspace would count the TODOs of its files.
  (highlight-ls-test-load-package (make-temp-file "highlight-ls-package" t))
  (setq highlight-ls-command (list binary)
        highlight-ls-mode-line-counts t
        highlight-ls-counts-delay 0.1)
  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{ \"rules\": [] }\n"))
  (with-temp-file sample (insert "TODO one\nplain\nTODO two\n"))
  ;; Never visited: counted from the disk.
  (with-temp-file (expand-file-name "other.txt" workspace) (insert "FIXME three\nTODO four\n"))
  (highlight-ls-test-check (equal highlight-ls-mode-line "") "empty before the server answers")
  (let ((buffer (find-file-noselect sample)))
    (with-current-buffer buffer
      (text-mode)
      (highlight-ls-test-connect highlight-ls-test-client workspace)
      (highlight-ls-counts--wait-for " 3 TODO 1 FIXME" "counted when the buffer connects")
      (highlight-ls-test-check (equal highlight-ls-counts '(("todo" . 3) ("fixme" . 1)))
                               "highlight-ls-counts: %S" highlight-ls-counts)
      ;; Batch Emacs formats no mode line (`format-mode-line' gives ""), so the construct is
      ;; checked where the default mode line reads it.
      (highlight-ls-test-check (equal (cl-count 'highlight-ls-mode-line global-mode-string) 1)
                               "in global-mode-string once: %S" global-mode-string)
      ;; An edit that adds markers, not saved.
      (goto-char (point-max))
      (insert "FIXME five\nHACK six\n")
      (highlight-ls-counts--wait-for " 3 TODO 2 FIXME 1 HACK" "an unsaved edit adds to the counts")
      ;; An edit that removes them all, then a save.
      (erase-buffer)
      (insert "plain only\n")
      (let ((inhibit-message t)) (save-buffer))
      (highlight-ls-counts--wait-for " 1 FIXME 1 TODO" "an edit and a save take from the counts (ties by name)"))
    (highlight-ls-test-shutdown highlight-ls-test-client buffer)
    (highlight-ls-test-exit name)))

;;; highlight-ls-counts-test.el ends here
