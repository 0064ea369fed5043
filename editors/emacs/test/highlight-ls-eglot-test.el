;;; highlight-ls-eglot-test.el --- batch test of highlight-ls under Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls emacs --batch -l editors/emacs/test/highlight-ls-eglot-test.el
;;
;; (Without -Q, so that Debian's site-start puts elpa-eglot on the load path.)
;;
;; Loads the package through its autoloads, opens a text file in a workspace whose
;; .highlights.json has a `ticket' rule with a `severity', and turns `highlight-ls-mode'
;; on with Eglot as the client.  Checks: the server attaches as `highlight-ls-eglot-server';
;; the decorations are drawn with their exact styles, and again after an edit; the ticket
;; is a Flymake warning; a change of `highlight-ls-settings' reaches the server (a rule
;; added, and a rule of the start settings switched off); turning the mode off clears and
;; on again redraws (the request goes to highlight-ls); Python and Markdown buffers, whose
;; servers in `eglot-server-programs' are not installed, are served and drawn; a mode whose
;; server is installed is left to it with a message; `eglot-shutdown' returns without
;; error and the server exits by itself with status 0.

;;; Code:

(unless (require 'eglot nil t)
  (require 'package)
  (package-initialize)
  (require 'eglot))
(require 'flymake)
(defvar eglot-semantic-token-types)
(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)

(defun highlight-ls-eglot-test--send-changes ()
  "Send the buffer's changes now.
Eglot sends them from an idle timer, and batch Emacs is never idle."
  (eglot--signal-textDocument/didChange))

(let* ((binary (highlight-ls-test-binary))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-eglot" t)))
       (sample (expand-file-name "notes.txt" workspace)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit "emacs-eglot"))
  (highlight-ls-test-load-package workspace)
  (setq highlight-ls-command (list binary)
        highlight-ls-client 'eglot
        ;; A rule in the start settings, to be switched off by a later change.
        highlight-ls-settings '(:rules [(:name "alpha" :words ["alpha"] :style (:color "#00ff00"))])
        eglot-send-changes-idle-time 0
        eglot-sync-connect 10
        eglot-autoshutdown nil)
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)
  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{ \"rules\": [ { \"name\": \"ticket\", \"regex\": \"\\\\b[A-Z]{2,}-[0-9]+\\\\b\",\n"
            "  \"severity\": \"warning\", \"message\": \"ticket $0\",\n"
            "  \"style\": { \"color\": \"#3b82f6\", \"underline\": true } } ] }\n"))
  (let ((coding-system-for-write 'utf-8-unix))
    (with-temp-file sample (insert "TODO ABC-123 alpha\n")))
  ;; Eglot takes the directory of a file outside any VC project as a transient project.
  (let ((todo '(:foreground "#1a1a1a" :background "#f9a825" :weight bold))
        (ticket '(:foreground "#3b82f6" :underline t))
        (alpha '(:foreground "#00ff00"))
        (zebra '(:foreground "#ff0000"))
        (server nil))
    (with-current-buffer (let ((coding-system-for-read 'utf-8-unix)) (find-file-noselect sample))
      (text-mode)
      (highlight-ls-mode 1)
      (setq server (highlight-ls-test-wait (lambda () (and (eglot-managed-p) (eglot-current-server)))))
      (highlight-ls-test-check (and server (object-of-class-p server 'highlight-ls-eglot-server))
                               "Eglot runs highlight-ls as highlight-ls-eglot-server: %S" server)
      (highlight-ls-test-check (eq highlight-ls--client 'eglot) "the buffer is connected through Eglot")
      ;;  T O D O ␠ A B C - 1 2 3 ␠ a l p h a
      ;;  1         6             13          19
      (highlight-ls-test-wait-for `((1 5 ,todo) (6 13 ,ticket) (14 19 ,alpha)) "after opening")

      ;; The ticket is a warning for Flymake, with the rule's message.
      (flymake-start)
      (let ((diagnostic (highlight-ls-test-wait
                         (lambda () (car (flymake-diagnostics (point-min) (point-max)))))))
        (highlight-ls-test-check
         (and diagnostic
              (= (flymake-diagnostic-beg diagnostic) 6)
              (= (flymake-diagnostic-end diagnostic) 13)
              (eq (flymake-diagnostic-type diagnostic) 'eglot-warning)
              (string-match-p "ticket ABC-123" (flymake-diagnostic-text diagnostic)))
         "the ticket is a Flymake warning: %S"
         (and diagnostic (list (flymake-diagnostic-beg diagnostic) (flymake-diagnostic-end diagnostic)
                               (flymake-diagnostic-type diagnostic) (flymake-diagnostic-text diagnostic)))))

      ;; An edit in front moves everything and adds a match.
      (goto-char (point-min))
      (insert "FIXME ü ")
      (highlight-ls-eglot-test--send-changes)
      (highlight-ls-test-wait-for
       `((1 6 (:foreground "#ffffff" :background "#d32f2f" :weight bold))
         (9 13 ,todo) (14 21 ,ticket) (22 27 ,alpha))
       "after an edit")

      ;; A change of the settings reaches the server: a rule added, and the start
      ;; settings' `alpha' switched off though the server keeps them as a layer.
      (goto-char (point-max))
      (insert "zebra\n")
      (highlight-ls-eglot-test--send-changes)
      (setq highlight-ls-settings '(:rules [(:name "zebra" :words ["zebra"] :style (:color "#ff0000"))]))
      (highlight-ls-test-wait-for
       `((1 6 (:foreground "#ffffff" :background "#d32f2f" :weight bold))
         (9 13 ,todo) (14 21 ,ticket) (28 33 ,zebra))
       "after a change of highlight-ls-settings")

      ;; Off clears; on again asks highlight-ls for the decorations and draws them.
      (highlight-ls-mode -1)
      (highlight-ls-test-check (null (highlight-ls-test-overlays)) "turning the mode off clears")
      (highlight-ls-mode 1)
      (highlight-ls-test-wait-for
       `((1 6 (:foreground "#ffffff" :background "#d32f2f" :weight bold))
         (9 13 ,todo) (14 21 ,ticket) (28 33 ,zebra))
       "after turning the mode on again")

      ;; Eglots that paint semantic tokens find faces for the built-in rules' types.
      (let ((eglot-semantic-token-types (list "keyword")))
        (highlight-ls-eglot--semantic-token-faces)
        (highlight-ls-test-check (and (member "todo" eglot-semantic-token-types)
                                      (eq (get 'eglot-semantic-todo 'face-alias) 'highlight-ls-todo-face))
                                 "semantic token type todo has a face: %S" eglot-semantic-token-types))

      ;; Modes to which `eglot-server-programs' gives servers that are not installed (Python:
      ;; pylsp and others; Markdown: marksman) get highlight-ls (issue 41).
      (let ((exec-path (list (file-name-directory (executable-find binary)))))
        (dolist (case '(("other.py" python-mode "x = 1  # TODO: fix ABC-123\n" 10 14)
                        ("other.md" markdown-mode "# Notes\n\n<!-- TODO: fix ABC-123 -->\n" 15 19)))
          (pcase-let ((`(,name ,mode ,text ,start ,end) case))
            (when (fboundp mode)
              (with-temp-file (expand-file-name name workspace) (insert text))
              (with-current-buffer (find-file-noselect (expand-file-name name workspace))
                (funcall mode)
                (highlight-ls-mode 1)
                (let ((served (highlight-ls-test-wait
                               (lambda () (let ((server (and (eglot-managed-p) (eglot-current-server))))
                                            (and server (object-of-class-p server 'highlight-ls-eglot-server)))))))
                  (highlight-ls-test-check served "%s: Eglot's server for it is not installed, so highlight-ls serves it" mode)
                  (when served
                    (highlight-ls-test-wait-for `((,start ,end ,todo) (,(+ end 6) ,(+ end 13) ,ticket))
                                                (format "%s: drawn" mode)))))))))

      ;; A mode whose server can start (a stand-in `pylsp' on exec-path) is left to it, with a
      ;; message that says how to have both or highlight-ls alone.
      (let* ((elsewhere (file-name-as-directory (make-temp-file "highlight-ls-eglot-other" t)))
             (bin (expand-file-name "bin" elsewhere))
             (exec-path (list bin (file-name-directory (executable-find binary))))
             (messages nil)
             (record (lambda (format-string &rest arguments)
                       (when format-string (push (apply #'format format-string arguments) messages)))))
        (make-directory bin)
        (with-temp-file (expand-file-name "pylsp" bin) (insert "#!/bin/sh\nexit 1\n"))
        (set-file-modes (expand-file-name "pylsp" bin) #o755)
        (with-temp-file (expand-file-name "third.py" elsewhere) (insert "# TODO\n"))
        (with-current-buffer (find-file-noselect (expand-file-name "third.py" elsewhere))
          (python-mode)
          (advice-add 'message :before record)
          (unwind-protect (highlight-ls-mode 1)
            (advice-remove 'message record))
          (highlight-ls-test-check (and (not (eglot-managed-p)) (null highlight-ls--client))
                                   "a Python buffer whose server is installed is left to it")
          (highlight-ls-test-check
           (cl-some (lambda (text) (and (string-match-p "gives python-mode pylsp, which is installed" text)
                                        (string-match-p "lsp-mode" text)
                                        (string-match-p "(python-mode \\. highlight-ls-eglot-contact)" text)))
                    messages)
           "the message names the server and the two ways: %S" messages)
          ;; Listing highlight-ls for the mode is the way to have it alone.
          (let ((eglot-server-programs (cons '(python-mode . highlight-ls-eglot-contact) eglot-server-programs)))
            (highlight-ls-test-check (null (highlight-ls-eglot--other-server))
                                     "listed for the mode, highlight-ls is no longer left out"))
          (kill-buffer)))

      ;; A program that cannot be found: one message with the fix, no error, nothing connected.
      (let* ((highlight-ls-command '("/nonexistent/highlight-ls"))
             (messages nil)
             (record (lambda (format-string &rest arguments)
                       (when format-string (push (apply #'format format-string arguments) messages)))))
        (with-temp-file (expand-file-name "missing.txt" workspace) (insert "TODO\n"))
        (with-current-buffer (find-file-noselect (expand-file-name "missing.txt" workspace))
          (fundamental-mode)
          (advice-add 'message :before record)
          (let ((failure (condition-case failure
                             (progn (highlight-ls-mode 1) (highlight-ls-mode -1) (highlight-ls-mode 1) nil)
                           (error failure))))
            (advice-remove 'message record)
            (highlight-ls-test-check (and (null failure) (null highlight-ls--client) (not (eglot-managed-p)))
                                     "a missing program connects nothing and signals nothing: %S" failure))
          (highlight-ls-test-check
           (= 1 (cl-count-if (lambda (text) (string-match-p "cannot find the program /nonexistent/highlight-ls.*scripts/install.sh" text))
                             messages))
           "a missing program is reported once, with the fix: %S" messages)
          (kill-buffer)))

      ;; Shutdown: no error, and the server exits by itself, with status 0.  jsonrpc deletes
      ;; the process right after sending `exit', so the exit is awaited just before that.
      (let* ((process (jsonrpc--process server))
             (status nil)
             (await (lambda (&rest _)
                      (let ((deadline (+ (float-time) highlight-ls-test-timeout)))
                        (while (and (process-live-p process) (< (float-time) deadline))
                          (accept-process-output nil 0.01)))
                      (setq status (list (process-status process) (process-exit-status process))))))
        (advice-add 'jsonrpc-shutdown :before await)
        (let ((error (condition-case failure (progn (eglot-shutdown server) nil) (error failure))))
          (advice-remove 'jsonrpc-shutdown await)
          (highlight-ls-test-check (null error) "eglot-shutdown signals no error: %S" error)
          (highlight-ls-test-check (equal status '(exit 0)) "the server exits with status 0: %S" status))
        (highlight-ls-test-check (null highlight-ls--client) "the buffer is disconnected after shutdown")
        (highlight-ls-test-check (null (highlight-ls-test-overlays)) "the decorations go with the server")))))
(highlight-ls-test-exit "emacs-eglot")

;;; highlight-ls-eglot-test.el ends here
