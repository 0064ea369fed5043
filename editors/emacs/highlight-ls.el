;;; highlight-ls.el --- lsp-mode client for highlight-ls  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (lsp-mode "8.0.0"))
;; Keywords: languages, faces
;; URL: https://example.invalid/highlight-ls

;;; Commentary:

;; Attaches the highlight-ls language server to every file, next to whatever other
;; servers lsp-mode runs for it (an add-on client), and draws the exact style of every
;; highlight with overlays.
;;
;; The server sends `highlight/publishDecorations' with a table of styles and a flat
;; vector of single-line ranges: line, start, end, style index.  We ask for UTF-32 columns
;; (`positionEncoding' "utf-32"), because Emacs counts characters (Unicode scalar values),
;; so a column is a number of characters from the start of its line.  A new notification
;; for a buffer replaces all of that buffer's overlays; an empty `ranges' clears them.
;;
;; Usage:
;;
;;   (require 'highlight-ls)
;;   (add-hook 'prog-mode-hook #'lsp-deferred)   ; or `lsp' in any buffer
;;   (add-hook 'text-mode-hook #'lsp-deferred)
;;
;; When semantic tokens are on (`lsp-semantic-tokens-enable'), the token types of the
;; built-in rules get the faces `highlight-ls-<rule>-face'.

;;; Code:

(require 'lsp-mode)
(require 'cl-lib)
(require 'subr-x)

(defgroup highlight-ls nil
  "Highlight words and patterns with the highlight-ls language server."
  :group 'lsp-mode
  :prefix "highlight-ls-")

(defcustom highlight-ls-command '("highlight-ls")
  "The command that starts the server: the program and its arguments."
  :type '(repeat string))

(defcustom highlight-ls-decorations t
  "Whether to draw the server's decorations (exact styles) with overlays."
  :type 'boolean)

(defcustom highlight-ls-settings nil
  "Configuration sent as the `highlight' key of the initialization options.
The same format as `.highlights.json', as a plist, for example
  (:rules [(:name \"ticket\" :regex \"\\\\b[A-Z]+-[0-9]+\\\\b\")])
Arrays must be vectors.  `.highlights.json' in the workspace takes precedence."
  :type 'sexp)

(defcustom highlight-ls-overlay-priority 100
  "Priority of the decoration overlays."
  :type 'integer)

(defconst highlight-ls-decorations-method "highlight/publishDecorations"
  "The notification that carries decorations.")

(defconst highlight-ls-decorations-request "highlight/decorations"
  "The request that returns a document's decorations.")

;;;; Faces for semantic tokens

(defface highlight-ls-fixme-face
  '((t :foreground "#ffffff" :background "#d32f2f" :weight bold))
  "Face of the built-in `fixme' rule when drawn from semantic tokens.")
(defface highlight-ls-todo-face
  '((t :foreground "#1a1a1a" :background "#f9a825" :weight bold))
  "Face of the built-in `todo' rule when drawn from semantic tokens.")
(defface highlight-ls-hack-face
  '((t :foreground "#ffffff" :background "#ef6c00" :weight bold))
  "Face of the built-in `hack' rule when drawn from semantic tokens.")
(defface highlight-ls-note-face
  '((t :foreground "#ffffff" :background "#1976d2" :weight bold))
  "Face of the built-in `note' rule when drawn from semantic tokens.")
(defface highlight-ls-review-face
  '((t :foreground "#ffffff" :background "#2e7d32" :weight bold))
  "Face of the built-in `review' rule when drawn from semantic tokens.")
(defface highlight-ls-deprecated-face
  '((t :foreground "#9e9e9e" :strike-through t))
  "Face of the built-in `deprecated' rule when drawn from semantic tokens.")
(defface highlight-ls-highlight-face
  '((((background dark)) :background "#3a3a3a")
    (t :background "#d9d9d9"))
  "Face of the fallback token type `highlight' (rules unknown to the legend).")

(defconst highlight-ls-token-faces
  '(("fixme" . highlight-ls-fixme-face)
    ("todo" . highlight-ls-todo-face)
    ("hack" . highlight-ls-hack-face)
    ("note" . highlight-ls-note-face)
    ("review" . highlight-ls-review-face)
    ("deprecated" . highlight-ls-deprecated-face)
    ("highlight" . highlight-ls-highlight-face))
  "Semantic token types of the built-in rules and their faces.")

;; lsp-mode 8.0 only maps token types listed in `lsp-semantic-token-faces' (the client's
;; overrides replace faces of listed types but add none), and it announces those types to
;; servers, so ours are added there too.
(with-eval-after-load 'lsp-semantic-tokens
  (when (boundp 'lsp-semantic-token-faces)
    (dolist (entry highlight-ls-token-faces)
      (unless (assoc (car entry) lsp-semantic-token-faces)
        (setq lsp-semantic-token-faces (append lsp-semantic-token-faces (list entry)))))))

;;;; Colours and faces for decorations

(defun highlight-ls--parse-color (text)
  "Return (RED GREEN BLUE ALPHA), each 0-255, of TEXT `#rrggbb[aa]', or nil."
  (when (and (stringp text)
             (string-match "\\`#\\([[:xdigit:]]\\{6\\}\\)\\([[:xdigit:]]\\{2\\}\\)?\\'" text))
    (let ((rgb (match-string 1 text))
          (alpha (match-string 2 text)))
      (list (string-to-number (substring rgb 0 2) 16)
            (string-to-number (substring rgb 2 4) 16)
            (string-to-number (substring rgb 4 6) 16)
            (if alpha (string-to-number alpha 16) 255)))))

(defun highlight-ls--backdrop ()
  "Return (RED GREEN BLUE), 0-255, of what translucent colours blend over.
That is the default face's background when known, else black or white after
the frame's background mode."
  (or (let ((values (ignore-errors (color-values (face-background 'default nil t)))))
        (when (and values (= (length values) 3))
          (mapcar (lambda (value) (/ value 257)) values)))
      (if (eq (frame-parameter nil 'background-mode) 'dark)
          '(0 0 0)
        '(255 255 255))))

(defun highlight-ls--color (text)
  "Return TEXT `#rrggbbaa' as an opaque `#rrggbb', blending translucent colours.
Return nil when TEXT is absent, invalid or fully transparent."
  (when-let ((color (highlight-ls--parse-color text)))
    (let ((alpha (nth 3 color)))
      (unless (= alpha 0)
        (let ((rgb (if (= alpha 255)
                       (cl-subseq color 0 3)
                     (cl-mapcar (lambda (front back)
                                  (round (+ (* front alpha) (* back (- 255 alpha))) 255.0))
                                (cl-subseq color 0 3)
                                (highlight-ls--backdrop)))))
          (apply #'format "#%02x%02x%02x" rgb))))))

(defun highlight-ls--true-p (value)
  "Whether VALUE is JSON true (`t'), whatever lsp-mode's JSON settings."
  (eq value t))

(defun highlight-ls--style-face (style)
  "Return an anonymous face (a plist) drawing decoration STYLE.
Emacs draws a box but no rounded corners, so `rounded' is ignored."
  (let ((foreground (highlight-ls--color (lsp-get style :color)))
        (background (highlight-ls--color (lsp-get style :backgroundColor)))
        (border (highlight-ls--color (lsp-get style :borderColor)))
        (face nil))
    (when foreground (setq face (plist-put face :foreground foreground)))
    (when background (setq face (plist-put face :background background)))
    (when border (setq face (plist-put face :box (list :line-width -1 :color border))))
    (when (highlight-ls--true-p (lsp-get style :bold)) (setq face (plist-put face :weight 'bold)))
    (when (highlight-ls--true-p (lsp-get style :italic)) (setq face (plist-put face :slant 'italic)))
    (when (highlight-ls--true-p (lsp-get style :underline)) (setq face (plist-put face :underline t)))
    (when (highlight-ls--true-p (lsp-get style :strikethrough)) (setq face (plist-put face :strike-through t)))
    face))

;;;; Decorations

(defvar-local highlight-ls--overlays nil
  "The decoration overlays of the current buffer.")

(defun highlight-ls-clear ()
  "Remove every decoration of highlight-ls from the current buffer."
  (interactive)
  (mapc #'delete-overlay highlight-ls--overlays)
  (setq highlight-ls--overlays nil))

(defun highlight-ls--buffer-for-uri (uri)
  "Return the live buffer lsp-mode knows by URI, or nil."
  (cl-find-if (lambda (buffer)
                (with-current-buffer buffer
                  (and (bound-and-true-p lsp-mode)
                       (buffer-file-name)
                       (equal (lsp--buffer-uri) uri))))
              (buffer-list)))

(defun highlight-ls--line-position (line column encoding)
  "Return the buffer position of zero-based LINE and COLUMN in ENCODING units.
Positions past a line's end mean the line's end; lines past the end, the
buffer's end."
  (save-excursion
    (save-restriction
      (widen)
      (goto-char (point-min))
      (if (> (forward-line line) 0)
          (point-max)
        (let ((line-end (line-end-position)))
          (if (equal encoding "utf-32")
              (min (+ (point) column) line-end)
            ;; UTF-8 bytes or UTF-16 code units: walk the line's characters.
            (let ((units 0))
              (while (and (< (point) line-end) (< units column))
                (let ((char (char-after)))
                  (setq units (+ units
                                 (if (equal encoding "utf-8")
                                     (cond ((< char #x80) 1) ((< char #x800) 2) ((< char #x10000) 3) (t 4))
                                   (if (< char #x10000) 1 2)))))
                (forward-char 1))
              (point))))))))

(defun highlight-ls--natural-p (value)
  "Whether VALUE is a non-negative integer."
  (and (integerp value) (>= value 0)))

(defun highlight-ls-apply-decorations (params)
  "Draw decoration PARAMS, replacing the decorations of their buffer.
Return the buffer drawn, or nil when PARAMS were ignored: an unknown document,
or a version older than the buffer's (the buffer has changed since, and the
server will send the newer state)."
  (let* ((document (lsp-get params :textDocument))
         (uri (and document (lsp-get document :uri)))
         (version (and document (lsp-get document :version)))
         (buffer (and uri (highlight-ls--buffer-for-uri uri))))
    (when buffer
      (with-current-buffer buffer
        (unless (and (integerp version) (< version lsp--cur-version))
          (let* ((encoding (or (lsp-get params :positionEncoding) "utf-16"))
                 (styles (append (lsp-get params :styles) nil))
                 (faces (vconcat (mapcar #'highlight-ls--style-face styles)))
                 (ranges (vconcat (lsp-get params :ranges)))
                 (index 0))
            (highlight-ls-clear)
            (while (<= (+ index 4) (length ranges))
              (let ((line (aref ranges index))
                    (start (aref ranges (+ index 1)))
                    (end (aref ranges (+ index 2)))
                    (style (aref ranges (+ index 3))))
                (when (and (highlight-ls--natural-p line) (highlight-ls--natural-p start)
                           (highlight-ls--natural-p end) (highlight-ls--natural-p style)
                           (< style (length faces)))
                  (let ((from (highlight-ls--line-position line start encoding))
                        (to (highlight-ls--line-position line end encoding)))
                    (when (< from to)
                      (let ((overlay (make-overlay from to buffer t nil)))
                        (overlay-put overlay 'face (aref faces style))
                        (overlay-put overlay 'priority highlight-ls-overlay-priority)
                        (overlay-put overlay 'highlight-ls t)
                        (overlay-put overlay 'evaporate t)
                        (push overlay highlight-ls--overlays))))))
              (setq index (+ index 4)))
            buffer))))))

(defun highlight-ls--on-publish-decorations (_workspace params)
  "Handle `highlight/publishDecorations' with PARAMS."
  (when highlight-ls-decorations
    (highlight-ls-apply-decorations params)))

(defun highlight-ls-refresh ()
  "Ask the server for the current buffer's decorations and draw them."
  (interactive)
  (lsp-request-async highlight-ls-decorations-request
                     (list :textDocument (list :uri (lsp--buffer-uri)))
                     (lambda (result) (when result (highlight-ls-apply-decorations result)))
                     :mode 'tick))

;;;; The client

(defun highlight-ls--initialization-options ()
  "The initialization options: decorations in UTF-32 columns, and the settings."
  (append (when highlight-ls-decorations
            (list :decorations (list :positionEncoding "utf-32")))
          (when highlight-ls-settings
            (list :highlight highlight-ls-settings))))

(defun highlight-ls--activate-p (file-name _mode)
  "Activate for every buffer visiting a file (FILE-NAME non-nil)."
  (and file-name t))

(lsp-register-client
 (make-lsp-client
  :new-connection (lsp-stdio-connection (lambda () highlight-ls-command))
  :activation-fn #'highlight-ls--activate-p
  :add-on? t
  :server-id 'highlight-ls
  :priority -1
  :multi-root t
  :initialization-options #'highlight-ls--initialization-options
  ;; lsp-mode counts columns in characters (Unicode scalar values) but does not say so;
  ;; offering UTF-32 makes the server use those units for everything, so edits after an
  ;; emoji on the same line are applied where they were made.
  :custom-capabilities '((general . ((positionEncodings . ["utf-32" "utf-16"]))))
  :notification-handlers
  (let ((handlers (make-hash-table :test 'equal)))
    (puthash highlight-ls-decorations-method #'highlight-ls--on-publish-decorations handlers)
    handlers)
  :semantic-tokens-faces-overrides
  (list :types highlight-ls-token-faces)))

(provide 'highlight-ls)
;;; highlight-ls.el ends here
