;;; highlight-ls-eglot.el --- highlight-ls through Eglot  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The highlight-ls maintainers

;; Author: The highlight-ls maintainers
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; The Eglot part of highlight-ls, loaded by `highlight-ls' once Eglot is.
;;
;; Eglot runs one server per buffer, so highlight-ls serves the modes that have no other
;; server under Eglot (plain text, Org, ...), including those whose server in
;; `eglot-server-programs' is not installed (Python and Markdown, often).  The server runs
;; as an instance of `highlight-ls-eglot-server', whose methods ask for decorations in the
;; initialization options (after an edit only for the changed lines, checked against
;; Eglot's count of the buffer's versions, `eglot--versioned-identifier'), draw
;; `highlight/publishDecorations', answer the `highlight' section of
;; `workspace/configuration' from `highlight-ls-settings', and send that variable again
;; when it changes.  Rules with a `severity' show as Flymake diagnostics as with any server.
;;
;; Start it with `highlight-ls-mode' (or `global-highlight-ls-mode'), or list it in
;; `eglot-server-programs' for `eglot-ensure':
;;
;;   (add-to-list 'eglot-server-programs
;;                '((text-mode markdown-mode org-mode) . highlight-ls-eglot-contact))
;;
;; Eglot versions that paint semantic tokens (`eglot-semantic-tokens-mode') paint the type
;; TYPE with the face `eglot-semantic-TYPE' when TYPE is in `eglot-semantic-token-types';
;; the built-in rules are added there, their faces aliased to `highlight-ls-<rule>-face'.

;;; Code:

(require 'highlight-ls)
(require 'eglot)
(require 'jsonrpc)

(defvar eglot-semantic-token-types)

(defclass highlight-ls-eglot-server (eglot-lsp-server)
  ((initial-settings
    :initform nil
    :accessor highlight-ls-eglot--initial-settings
    :documentation "The settings sent in the initialization options."))
  :documentation "The highlight-ls language server under Eglot.")

;;;###autoload
(defun highlight-ls-eglot-contact (&rest _)
  "The `eglot-server-programs' contact of highlight-ls: its class and command."
  (cons 'highlight-ls-eglot-server highlight-ls-command))

(defun highlight-ls-eglot--server ()
  "The current buffer's Eglot server when it is highlight-ls, else nil."
  (let ((server (and (eglot-managed-p) (eglot-current-server))))
    (and (cl-typep server 'highlight-ls-eglot-server) server)))

(defun highlight-ls-eglot--servers ()
  "Every running highlight-ls server under Eglot."
  (let ((servers nil))
    (maphash (lambda (_project list)
               (dolist (server list)
                 (when (cl-typep server 'highlight-ls-eglot-server)
                   (push server servers))))
             eglot--servers-by-project)
    servers))

(cl-defmethod eglot-initialization-options ((server highlight-ls-eglot-server))
  "Decorations and `highlight-ls-settings', for SERVER.
See `highlight-ls-decorations-option' for the decorations."
  (setf (highlight-ls-eglot--initial-settings server) highlight-ls-settings)
  (or (append (when-let ((decorations (highlight-ls-decorations-option)))
                (list :decorations decorations))
              (when highlight-ls-settings
                (list :highlight highlight-ls-settings)))
      (make-hash-table)))

(cl-defmethod eglot-handle-notification
  ((_server highlight-ls-eglot-server) (_method (eql highlight/publishDecorations)) &rest params)
  "Draw the decorations PARAMS."
  (highlight-ls--on-publish-decorations params))

(cl-defmethod eglot-handle-request
  ((server highlight-ls-eglot-server) (_method (eql workspace/configuration)) &key items)
  "Answer SERVER's `highlight' section of ITEMS from `highlight-ls-settings'.
When neither the settings SERVER started with nor the current ones set
anything, Eglot answers from `eglot-workspace-configuration'."
  (let ((answer (cl-call-next-method))
        (initial (highlight-ls-eglot--initial-settings server)))
    (when (or initial highlight-ls-settings)
      (cl-loop for item across items
               for index from 0
               when (equal (plist-get item :section) "highlight")
               do (aset answer index (highlight-ls-settings-update initial highlight-ls-settings))))
    answer))

(cl-defmethod highlight-ls--client-uri ((_client (eql eglot)))
  "The URI of the current buffer under Eglot."
  (plist-get (eglot--TextDocumentIdentifier) :uri))

(cl-defmethod highlight-ls--client-version ((_client (eql eglot)))
  "The version of the current buffer under Eglot."
  eglot--versioned-identifier)

(cl-defmethod highlight-ls--client-request ((_client (eql eglot)) method params callback
                                            &optional on-error)
  "Send METHOD with PARAMS to the buffer's highlight-ls server; call CALLBACK.
ON-ERROR, when given, is called instead on an error or a timeout.  Changes
Eglot has not sent yet go first, so the answer is about the text as it is.
Return non-nil when the request was sent."
  (when-let ((server (highlight-ls-eglot--server)))
    (eglot--signal-textDocument/didChange)
    (apply #'jsonrpc-async-request server (intern method) params :success-fn callback
           (when on-error
             (let ((failed (lambda (&rest _) (funcall on-error))))
               (list :error-fn failed :timeout-fn failed))))
    t))

(cl-defmethod highlight-ls--client-position-encoding ((_client (eql eglot)))
  "The position encoding of the buffer's highlight-ls server under Eglot."
  (or (when-let ((server (highlight-ls-eglot--server)))
        (plist-get (eglot--capabilities server) :positionEncoding))
      "utf-16"))

(defun highlight-ls-eglot--ours-p (contact)
  "Whether the `eglot-server-programs' CONTACT is that of highlight-ls."
  (or (eq contact 'highlight-ls-eglot-contact)
      (and (consp contact) (eq (car contact) 'highlight-ls-eglot-server))))

;; What Eglot would start for a mode: the first entry of `eglot-server-programs' whose modes
;; include it or a mode it derives from, as `eglot--lookup-mode' finds it.
(defun highlight-ls-eglot--contact ()
  "The contact `eglot-server-programs' gives the major mode, or nil."
  (cl-loop for (modes . contact) in eglot-server-programs
           for mode-list = (if (and (listp modes) (not (keywordp (cadr modes)))) modes (list modes))
           when (cl-some (lambda (mode)
                           (provided-mode-derived-p major-mode (if (consp mode) (car mode) mode)))
                         mode-list)
           return contact))

(defun highlight-ls-eglot--program (contact)
  "What CONTACT would start, named for a message, when it can start here; else nil.
A program counts when `executable-find' finds it (or, with an absolute name,
when it is executable).  A function, such as `eglot-alternatives' makes, is
asked as `eglot-ensure' asks it, and counts when it names a program that
counts.  A class with a plist of its own, and a TCP host and port, count:
nothing tells whether they would start."
  (cond
   ((highlight-ls-eglot--ours-p contact) nil)
   ((functionp contact)
    (highlight-ls-eglot--program
     (condition-case nil
         (if (eql (cdr (func-arity contact)) 0) (funcall contact) (funcall contact nil))
       (error nil))))
   ((and (consp contact) (symbolp (car contact)) (car contact) (not (keywordp (car contact))))
    (if (keywordp (car-safe (cdr contact)))
        (symbol-name (car contact))
      (highlight-ls-eglot--program (cdr contact))))
   ((and (consp contact) (stringp (car contact)))
    (let ((program (car contact)))
      (cond ((integerp (cadr contact)) (format "%s:%d" program (cadr contact)))
            ((file-name-absolute-p program)
             (and (file-executable-p program) (file-name-nondirectory program)))
            ((executable-find program) program))))))

(defun highlight-ls-eglot--other-server ()
  "The other server Eglot would start for the major mode, if it can start here.
Nil when `eglot-server-programs' gives the mode none, gives it highlight-ls,
or names programs that are not installed: Eglot could not start those, so
highlight-ls serves the buffer."
  (highlight-ls-eglot--program (highlight-ls-eglot--contact)))

(defun highlight-ls-eglot--choices ()
  "How to have highlight-ls where Eglot gives the major mode another server."
  (format-message (concat "for both, use lsp-mode, which runs highlight-ls beside other servers "
                          "(`highlight-ls-client'); for highlight-ls alone, %s")
                  ;; An argument, so that its quotes stay as Lisp wants them.
                  (format "(add-to-list 'eglot-server-programs '(%s . highlight-ls-eglot-contact))"
                          major-mode)))

(cl-defmethod highlight-ls--client-connect ((_client (eql eglot)))
  "Start highlight-ls for the current buffer's major mode under Eglot.
Eglot runs one server per buffer: a buffer another server manages, or whose
mode `eglot-server-programs' gives another server that can start here, is
left to it, with a message saying how to have both or highlight-ls alone.  A
server listed there whose program is not installed does not count."
  (let* ((current (eglot-current-server))
         (live (and current (jsonrpc-running-p current))))
    (cond
     ((and live (cl-typep current 'highlight-ls-eglot-server))
      ;; highlight-ls serves this mode in this project already; Eglot manages the buffer
      ;; from its own hooks, unless they ran before the mode was turned on.
      (unless (eglot-managed-p) (eglot--maybe-activate-editing-mode)))
     ((or live (eglot-managed-p))
      (message "highlight-ls: Eglot runs %s in this buffer, and only one server per buffer; %s"
               (or (and current (plist-get (eglot--server-info current) :name)) "another server")
               (highlight-ls-eglot--choices)))
     ((when-let ((other (highlight-ls-eglot--other-server)))
        (message (concat "highlight-ls: Eglot runs one server per buffer, and `eglot-server-programs' "
                         "gives %s %s, which is installed, so highlight-ls is not started here; %s")
                 major-mode other (highlight-ls-eglot--choices))))
     (t
      (eglot (list major-mode)
             (or (project-current) (cons 'transient default-directory))
             'highlight-ls-eglot-server
             highlight-ls-command
             (string-remove-suffix "-mode" (symbol-name major-mode)))))))

(cl-defmethod highlight-ls--client-send-settings ((_client (eql eglot)) settings)
  "Send SETTINGS to every highlight-ls server under Eglot."
  (dolist (server (highlight-ls-eglot--servers))
    (jsonrpc-notify server :workspace/didChangeConfiguration
                    (list :settings
                          (list :highlight
                                (highlight-ls-settings-update
                                 (highlight-ls-eglot--initial-settings server) settings))))))

(defun highlight-ls-eglot--managed ()
  "Note the current buffer as connected or not, after Eglot's managed mode."
  (if (highlight-ls-eglot--server)
      (highlight-ls--client-attached 'eglot)
    (highlight-ls--client-detached 'eglot)))

(defun highlight-ls-eglot--semantic-token-faces ()
  "Give the built-in rules' token types faces in Eglots that paint tokens."
  (when (boundp 'eglot-semantic-token-types)
    (dolist (entry highlight-ls-token-faces)
      (let ((face (intern (concat "eglot-semantic-" (car entry)))))
        (unless (member (car entry) eglot-semantic-token-types)
          (setq eglot-semantic-token-types (append eglot-semantic-token-types (list (car entry)))))
        (unless (facep face)
          (put face 'face-alias (cdr entry)))))))

(add-hook 'eglot-managed-mode-hook #'highlight-ls-eglot--managed)
(highlight-ls-eglot--semantic-token-faces)
(cl-pushnew 'eglot highlight-ls--clients)

(provide 'highlight-ls-eglot)
;;; highlight-ls-eglot.el ends here
