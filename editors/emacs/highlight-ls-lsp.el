;;; highlight-ls-lsp.el --- highlight-ls through lsp-mode  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The highlight-ls maintainers

;; Author: The highlight-ls maintainers
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; The lsp-mode part of highlight-ls, loaded by `highlight-ls' once lsp-mode is.
;;
;; Registers highlight-ls as an lsp-mode add-on client for every buffer that visits a
;; file, next to whatever other servers lsp-mode runs for it.  It asks for decorations in
;; UTF-32 columns and for UTF-32 positions everywhere, because lsp-mode counts columns in
;; characters (Unicode scalar values) without saying so; after an edit, decorations come
;; for the changed lines only (`highlight-ls-decoration-deltas'), checked against
;; `lsp--cur-version', lsp-mode's count of the buffer's versions.  When semantic tokens are
;; on (`lsp-semantic-tokens-enable'), the token types of the built-in rules get the faces
;; `highlight-ls-<rule>-face'.

;;; Code:

(require 'highlight-ls)
(require 'lsp-mode)

(defvar lsp-semantic-token-faces)

(defvar highlight-ls-lsp--initial-settings (make-hash-table :test 'eq :weakness 'key)
  "The settings each highlight-ls workspace was started with, by workspace.")

(defvar highlight-ls-lsp--starting-settings nil
  "The settings sent in the initialization options of the latest start.")

(defun highlight-ls-lsp--ours-p (workspace)
  "Whether WORKSPACE is a highlight-ls server."
  (eq (lsp--client-server-id (lsp--workspace-client workspace)) 'highlight-ls))

(defun highlight-ls-lsp--workspace ()
  "The highlight-ls workspace of the current buffer, or nil."
  (cl-find-if #'highlight-ls-lsp--ours-p lsp--buffer-workspaces))

(defun highlight-ls-lsp--workspaces ()
  "Every running highlight-ls workspace."
  (when lsp--session
    (cl-remove-if-not #'highlight-ls-lsp--ours-p (lsp--session-workspaces lsp--session))))

(cl-defmethod highlight-ls--client-uri ((_client (eql lsp-mode)))
  "The URI of the current buffer under `lsp-mode'."
  (lsp--buffer-uri))

(cl-defmethod highlight-ls--client-version ((_client (eql lsp-mode)))
  "The version of the current buffer under `lsp-mode'."
  lsp--cur-version)

(cl-defmethod highlight-ls--client-request ((_client (eql lsp-mode)) method params callback
                                            &optional on-error)
  "Send METHOD with PARAMS to the buffer's highlight-ls workspace only.
CALLBACK gets the result; ON-ERROR, when given, is called instead on an error.
Return non-nil when the request was sent."
  (when-let ((workspace (highlight-ls-lsp--workspace)))
    (with-lsp-workspace workspace
      ;; The answer comes even when the buffer changed meanwhile (`tick' would cancel the
      ;; request and call nothing): what waits for it must learn that it came, and
      ;; decorations carry their version, by which a stale answer is recognised.
      (apply #'lsp-request-async method params callback :mode 'alive
             (when on-error
               (list :error-handler (lambda (&rest _) (funcall on-error))))))
    t))

(cl-defmethod highlight-ls--client-position-encoding ((_client (eql lsp-mode)))
  "The position encoding of the buffer's highlight-ls workspace under `lsp-mode'."
  (or (when-let ((workspace (highlight-ls-lsp--workspace)))
        (highlight-ls--get (lsp--workspace-server-capabilities workspace) :positionEncoding))
      "utf-16"))

(cl-defmethod highlight-ls--client-connect ((_client (eql lsp-mode)))
  "Start `lsp-mode' in the current buffer; highlight-ls attaches with the rest."
  (cond
   ((bound-and-true-p lsp-mode)
    (message "highlight-ls: %s"
             "lsp-mode runs here without highlight-ls; try M-x lsp-workspace-restart"))
   ;; The user's own hooks asked for lsp-mode already; highlight-ls comes with it.
   ((bound-and-true-p lsp--buffer-deferred) nil)
   (t (lsp-deferred))))

(defun highlight-ls-lsp--settings-update (workspace settings)
  "Return the settings layer to send to WORKSPACE's server for SETTINGS."
  (highlight-ls-settings-update (gethash workspace highlight-ls-lsp--initial-settings) settings))

(cl-defmethod highlight-ls--client-send-settings ((_client (eql lsp-mode)) settings)
  "Send SETTINGS to every highlight-ls workspace."
  (dolist (workspace (highlight-ls-lsp--workspaces))
    (with-lsp-workspace workspace
      (lsp-notify "workspace/didChangeConfiguration"
                  (list :settings
                        (list :highlight (highlight-ls-lsp--settings-update workspace settings)))))))

(defun highlight-ls-lsp--initialization-options ()
  "Return the initialization options: the decorations asked for, and the settings.
See `highlight-ls-decorations-option' for the decorations."
  (setq highlight-ls-lsp--starting-settings highlight-ls-settings)
  (append (when-let ((decorations (highlight-ls-decorations-option)))
            (list :decorations decorations))
          (when highlight-ls-settings
            (list :highlight highlight-ls-settings))))

(defun highlight-ls-lsp--initialized (workspace)
  "Remember the settings WORKSPACE was started with."
  (puthash workspace highlight-ls-lsp--starting-settings highlight-ls-lsp--initial-settings))

(defun highlight-ls-lsp--configuration (workspace params)
  "Answer `workspace/configuration' PARAMS from WORKSPACE's server.
The `highlight' section is `highlight-ls-settings'; lsp-mode's registry of
settings does not know it."
  (apply #'vector
         (mapcar (lambda (item)
                   (when (equal (highlight-ls--get item :section) "highlight")
                     (highlight-ls-lsp--settings-update workspace highlight-ls-settings)))
                 (highlight-ls--get params :items))))

(defun highlight-ls-lsp--on-publish-decorations (_workspace params)
  "Handle `highlight/publishDecorations' with PARAMS."
  (highlight-ls--on-publish-decorations params))

(defun highlight-ls-lsp--after-open ()
  "Note the current buffer as connected when highlight-ls serves it."
  (when (highlight-ls-lsp--workspace)
    (highlight-ls--client-attached 'lsp-mode)))

(defun highlight-ls-lsp--after-close ()
  "Note the current buffer as disconnected once `lsp-mode' has left it."
  (unless (and (bound-and-true-p lsp-mode) (highlight-ls-lsp--workspace))
    (highlight-ls--client-detached 'lsp-mode)))

(defun highlight-ls-lsp--after-uninitialized (workspace)
  "Disconnect the buffers of WORKSPACE if it was a highlight-ls server."
  (when (highlight-ls-lsp--ours-p workspace)
    (dolist (buffer (lsp--workspace-buffers workspace))
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (highlight-ls--client-detached 'lsp-mode))))))

(defun highlight-ls-lsp--activate-p (file-name _mode)
  "Activate for every buffer visiting a file (FILE-NAME non-nil).
Not where `highlight-ls-mode' was turned off."
  (and file-name (not highlight-ls--turned-off)))

(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection (lambda () highlight-ls-command))
  :activation-fn #'highlight-ls-lsp--activate-p
  :add-on? t
  :server-id 'highlight-ls
  :priority -1
  :multi-root t
  :initialization-options #'highlight-ls-lsp--initialization-options
  :initialized-fn #'highlight-ls-lsp--initialized
  ;; lsp-mode counts columns in characters (Unicode scalar values) but does not say so;
  ;; offering UTF-32 makes the server use those units for everything, so edits after an
  ;; emoji on the same line are applied where they were made.
  :custom-capabilities '((general . ((positionEncodings . ["utf-32" "utf-16"]))))
  :notification-handlers
  (let ((handlers (make-hash-table :test 'equal)))
    (puthash highlight-ls-decorations-method #'highlight-ls-lsp--on-publish-decorations handlers)
    handlers)
  :request-handlers
  (let ((handlers (make-hash-table :test 'equal)))
    (puthash "workspace/configuration" #'highlight-ls-lsp--configuration handlers)
    handlers)
  :semantic-tokens-faces-overrides
  (list :types highlight-ls-token-faces)))

(add-hook 'lsp-after-open-hook #'highlight-ls-lsp--after-open)
(add-hook 'lsp-after-uninitialized-functions #'highlight-ls-lsp--after-uninitialized)
(add-hook 'lsp-mode-hook #'highlight-ls-lsp--after-close)
(cl-pushnew 'lsp-mode highlight-ls--clients)

;; lsp-mode 8.0 only maps token types listed in `lsp-semantic-token-faces' (the client's
;; overrides replace faces of listed types but add none), and it announces those types to
;; servers, so ours are added there too.
(when (require 'lsp-semantic-tokens nil t)
  (dolist (entry highlight-ls-token-faces)
    (unless (assoc (car entry) lsp-semantic-token-faces)
      (setq lsp-semantic-token-faces (append lsp-semantic-token-faces (list entry))))))

(provide 'highlight-ls-lsp)
;;; highlight-ls-lsp.el ends here
