;;; highlight-ls.el --- Highlights from the highlight-ls language server  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 The highlight-ls maintainers

;; Author: The highlight-ls maintainers
;; Maintainer: The highlight-ls maintainers
;; URL: https://example.invalid/highlight-ls
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: faces, tools
;; SPDX-License-Identifier: MIT

;; This file is not part of GNU Emacs.

;;; Commentary:

;; Draws the highlights of the highlight-ls language server (TODO, FIXME, ticket ids and
;; your own words and patterns) with their exact styles, under lsp-mode or Eglot.
;;
;; Usage, with the package installed (its autoloads loaded):
;;
;;   (global-highlight-ls-mode)        ; every buffer visiting a file
;;   ;; or, per buffer:  M-x highlight-ls-mode
;;
;; `highlight-ls-mode' connects the buffer through `highlight-ls-client' (lsp-mode when it
;; is installed, else Eglot) unless it is connected already, and draws what the server
;; publishes.  Turning it off removes the highlights of that buffer.
;;
;; The server sends `highlight/publishDecorations': a table of styles and a flat vector of
;; single-line ranges (line, start, end, style index) in UTF-32 columns, which count
;; characters as Emacs does.  Each notification is drawn in one pass over the buffer, in
;; line order, and only the overlays that differ from those already drawn are created or
;; deleted, so an edit costs a walk of the lines and the overlays it changed.
;;
;; This file knows no LSP client.  `highlight-ls-lsp' (lsp-mode) and `highlight-ls-eglot'
;; (Eglot) are loaded when their client is, and implement the generic functions below.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup highlight-ls nil
  "Highlight words and patterns with the highlight-ls language server."
  :group 'tools
  :prefix "highlight-ls-")

(defcustom highlight-ls-command '("highlight-ls")
  "The command that starts the server: the program and its arguments."
  :type '(repeat string))

(defcustom highlight-ls-client 'auto
  "The LSP client that `highlight-ls-mode' uses to connect a buffer.
`auto' means `lsp-mode' when it is installed, else Eglot.  nil means
never connect: draw only in buffers that something else connected."
  :type '(choice (const :tag "lsp-mode if installed, else Eglot" auto)
                 (const :tag "lsp-mode" lsp-mode)
                 (const :tag "Eglot" eglot)
                 (const :tag "None" nil)))

(defcustom highlight-ls-decorations t
  "Whether to draw the server's decorations (exact styles) with overlays.
Servers started while this is nil do not publish decorations; turning it
on later draws each buffer once, on request."
  :type 'boolean)

(defcustom highlight-ls-settings nil
  "Configuration for the server, in the format of `.highlights.json'.
A plist, for example
  (:rules [(:name \"ticket\" :regex \"\\\\b[A-Z]+-[0-9]+\\\\b\")])
Arrays must be vectors, false is `:json-false'.  It is sent at start as
the initialization options and again, as `workspace/didChangeConfiguration',
whenever it changes (by `setq', `setopt' or Customize).  `.highlights.json'
in the workspace takes precedence."
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

;;;; The clients

(defvar-local highlight-ls--client nil
  "The client through which the current buffer is connected to highlight-ls.
`lsp-mode', `eglot', or nil when it is not connected.")

(defvar highlight-ls-mode)

(defvar-local highlight-ls--turned-off nil
  "Non-nil when `highlight-ls-mode' was turned off in this buffer.
A client that connects the buffer then leaves the mode off.")

(defvar highlight-ls--attaching nil
  "Non-nil while a client turns `highlight-ls-mode' on as it connects.")

(defvar highlight-ls--clients nil
  "The clients whose support is loaded, most recent first.")

(cl-defgeneric highlight-ls--client-uri (client)
  "The URI by which CLIENT names the current buffer to the server.")

(cl-defgeneric highlight-ls--client-version (client)
  "The version of the current buffer that CLIENT counts, or nil.")

(cl-defgeneric highlight-ls--client-request (client method params callback)
  "Send request METHOD with PARAMS to highlight-ls only, through CLIENT.
The current buffer's highlight-ls server answers; CALLBACK gets the result.")

(cl-defgeneric highlight-ls--client-connect (client)
  "Connect the current buffer to highlight-ls through CLIENT.")

(cl-defgeneric highlight-ls--client-send-settings (client settings)
  "Tell every highlight-ls server of CLIENT that the settings are SETTINGS.")

(defun highlight-ls--client-attached (client)
  "Note that CLIENT connected the current buffer to highlight-ls.
Turns `highlight-ls-mode' on unless it was turned off in this buffer."
  (setq highlight-ls--client client)
  (unless (or highlight-ls-mode highlight-ls--turned-off)
    (let ((highlight-ls--attaching t))
      (highlight-ls-mode 1))))

(defun highlight-ls--client-detached (client)
  "Note that CLIENT disconnected the current buffer from highlight-ls."
  (when (eq highlight-ls--client client)
    (setq highlight-ls--client nil)
    (highlight-ls-clear)))

;;;; Reading the payload

(defun highlight-ls--get (object key)
  "The value of KEY, a keyword, in the JSON OBJECT (a plist or a hash table)."
  (cond ((hash-table-p object) (gethash (substring (symbol-name key) 1) object))
        ((listp object) (plist-get object key))))

(defun highlight-ls--true-p (value)
  "Whether VALUE is JSON true (t), whichever JSON settings parsed it."
  (eq value t))

(defun highlight-ls--natural-p (value)
  "Whether VALUE is a non-negative integer."
  (and (integerp value) (>= value 0)))

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

(defun highlight-ls--color (text backdrop)
  "Return TEXT `#rrggbbaa' as an opaque `#rrggbb', blended over BACKDROP.
Return nil when TEXT is absent, invalid or fully transparent."
  (when-let ((color (highlight-ls--parse-color text)))
    (let ((alpha (nth 3 color)))
      (unless (= alpha 0)
        (let ((rgb (if (= alpha 255)
                       (cl-subseq color 0 3)
                     (cl-mapcar (lambda (front back)
                                  (round (+ (* front alpha) (* back (- 255 alpha))) 255.0))
                                (cl-subseq color 0 3)
                                backdrop))))
          (apply #'format "#%02x%02x%02x" rgb))))))

(defvar highlight-ls--face-cache (make-hash-table :test 'equal)
  "Faces made for styles, by style and backdrop.
The same style gives the same (`eq') face in every notification, so that an
overlay already drawn with it is recognised and kept.")

(defun highlight-ls--style-face (style backdrop)
  "Return an anonymous face (a plist) drawing decoration STYLE over BACKDROP.
Emacs draws a box but no rounded corners, so `rounded' is ignored."
  (let* ((key (list (highlight-ls--get style :color)
                    (highlight-ls--get style :backgroundColor)
                    (highlight-ls--get style :borderColor)
                    (highlight-ls--true-p (highlight-ls--get style :bold))
                    (highlight-ls--true-p (highlight-ls--get style :italic))
                    (highlight-ls--true-p (highlight-ls--get style :underline))
                    (highlight-ls--true-p (highlight-ls--get style :strikethrough))
                    backdrop)))
    (or (gethash key highlight-ls--face-cache)
        (puthash key (highlight-ls--make-face key backdrop) highlight-ls--face-cache))))

(defun highlight-ls--make-face (key backdrop)
  "Return the face of style KEY, a list from `highlight-ls--style-face'.
Translucent colours blend over BACKDROP."
  (cl-destructuring-bind (color background border bold italic underline strikethrough _) key
    (let ((foreground (highlight-ls--color color backdrop))
          (background (highlight-ls--color background backdrop))
          (border (highlight-ls--color border backdrop))
          (face nil))
      (when foreground (setq face (plist-put face :foreground foreground)))
      (when background (setq face (plist-put face :background background)))
      (when border (setq face (plist-put face :box (list :line-width -1 :color border))))
      (when bold (setq face (plist-put face :weight 'bold)))
      (when italic (setq face (plist-put face :slant 'italic)))
      (when underline (setq face (plist-put face :underline t)))
      (when strikethrough (setq face (plist-put face :strike-through t)))
      face)))

;;;; Positions

(defun highlight-ls--range-order (ranges faces)
  "The indices into RANGES of its valid ranges, sorted by line and start.
RANGES is the flat vector of the payload (line, start, end, style); a range
is valid when its numbers are natural and its style is an index into FACES.
The server sends them sorted, which one pass confirms; otherwise they are
sorted here."
  (let ((count (/ (length ranges) 4))
        (style-count (length faces))
        (indices nil)
        (sorted t)
        (last-line -1)
        (last-start -1))
    (dotimes (n count)
      (let* ((index (* n 4))
             (line (aref ranges index))
             (start (aref ranges (+ index 1)))
             (end (aref ranges (+ index 2)))
             (style (aref ranges (+ index 3))))
        (when (and (highlight-ls--natural-p line) (highlight-ls--natural-p start)
                   (highlight-ls--natural-p end) (highlight-ls--natural-p style)
                   (< start end) (< style style-count))
          (when (or (< line last-line) (and (= line last-line) (< start last-start)))
            (setq sorted nil))
          (setq last-line line
                last-start start)
          (push index indices))))
    (setq indices (nreverse indices))
    (if sorted
        indices
      (sort indices (lambda (a b)
                      (let ((line-a (aref ranges a))
                            (line-b (aref ranges b)))
                        (or (< line-a line-b)
                            (and (= line-a line-b)
                                 (< (aref ranges (1+ a)) (aref ranges (1+ b)))))))))))

(defun highlight-ls--unit-width (char encoding)
  "The number of ENCODING units (\"utf-8\" or \"utf-16\") of CHAR."
  (if (equal encoding "utf-8")
      (cond ((< char #x80) 1) ((< char #x800) 2) ((< char #x10000) 3) (t 4))
    (if (< char #x10000) 1 2)))

(defun highlight-ls--spans (ranges order faces encoding)
  "The buffer spans of the ranges ORDER picks from RANGES.
Return a vector FROM TO FACE FROM TO FACE ..., in buffer order, with the
faces taken from the vector FACES.  Columns count ENCODING units; a column
past its line's end means the line's end, a line past the buffer's end its
end.  The lines are walked once, from the first range to the last, with
`forward-line' moving from each range's line to the next one's."
  (let ((spans (make-vector (* 3 (length order)) nil))
        (count 0)
        (characters (equal encoding "utf-32")))
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (let ((line 0)
              (line-start (point-min))
              (line-end (line-end-position))
              (past-end nil)
              ;; Where the walk along the current line stopped, and its column.
              (walk-position (point-min))
              (walk-column 0))
          (cl-flet ((position-of
                     (column)
                     (cond
                      (past-end (point-max))
                      (characters (min (+ line-start column) line-end))
                      (t
                       (when (< column walk-column)
                         (setq walk-position line-start
                               walk-column 0))
                       (while (and (< walk-position line-end) (< walk-column column))
                         (setq walk-column (+ walk-column
                                              (highlight-ls--unit-width
                                               (char-after walk-position) encoding))
                               walk-position (1+ walk-position)))
                       walk-position))))
            (dolist (index order)
              (let ((range-line (aref ranges index)))
                (when (and (> range-line line) (not past-end))
                  (let ((shortfall (forward-line (- range-line line))))
                    (setq past-end (or (> shortfall 0) (and (eobp) (not (bolp))))
                          line range-line
                          line-start (point)
                          line-end (line-end-position)
                          walk-position (point)
                          walk-column 0)))
                (let ((from (position-of (aref ranges (+ index 1))))
                      (to (position-of (aref ranges (+ index 2)))))
                  (when (< from to)
                    (aset spans count from)
                    (aset spans (+ count 1) to)
                    (aset spans (+ count 2) (aref faces (aref ranges (+ index 3))))
                    (setq count (+ count 3))))))))))
    (if (= count (length spans)) spans (substring spans 0 count))))

;;;; Overlays

(defvar-local highlight-ls--overlays []
  "The decoration overlays of the current buffer, in buffer order.")

(defun highlight-ls-clear ()
  "Remove every decoration of highlight-ls from the current buffer."
  (interactive)
  (mapc #'delete-overlay highlight-ls--overlays)
  (setq highlight-ls--overlays []))

(defun highlight-ls--make-overlay (from to face)
  "Make a decoration overlay from FROM to TO drawn with FACE."
  (let ((overlay (make-overlay from to nil t nil)))
    (overlay-put overlay 'face face)
    (overlay-put overlay 'priority highlight-ls-overlay-priority)
    (overlay-put overlay 'highlight-ls t)
    (overlay-put overlay 'evaporate t)
    overlay))

(defun highlight-ls--reconcile (spans)
  "Make the current buffer's decoration overlays draw SPANS.
SPANS is a vector FROM TO FACE ... in buffer order.  The overlays drawn are
in buffer order too (they move with the text, keeping their order), so one
merge of the two sequences finds the overlays to keep, to delete and to
make.  Return the number of overlays made and deleted."
  (let* ((old highlight-ls--overlays)
         (old-count (length old))
         (span-count (length spans))
         (i 0)
         (j 0)
         (churn 0)
         (drawn nil))
    (while (or (< i old-count) (< j span-count))
      (let ((overlay (and (< i old-count) (aref old i))))
        (cond
         ;; Deleted, or evaporated because its text was deleted.
         ((and overlay (null (overlay-start overlay)))
          (setq i (1+ i)))
         ((>= j span-count)
          (delete-overlay overlay)
          (setq i (1+ i)
                churn (1+ churn)))
         (t
          (let ((from (aref spans j))
                (to (aref spans (+ j 1)))
                (face (aref spans (+ j 2))))
            (if (null overlay)
                (progn
                  (push (highlight-ls--make-overlay from to face) drawn)
                  (setq j (+ j 3)
                        churn (1+ churn)))
              (let ((start (overlay-start overlay))
                    (end (overlay-end overlay)))
                (cond
                 ((and (= start from) (= end to))
                  (unless (eq (overlay-get overlay 'face) face)
                    (overlay-put overlay 'face face))
                  (push overlay drawn)
                  (setq i (1+ i)
                        j (+ j 3)))
                 ((or (< start from) (and (= start from) (< end to)))
                  (delete-overlay overlay)
                  (setq i (1+ i)
                        churn (1+ churn)))
                 (t
                  (push (highlight-ls--make-overlay from to face) drawn)
                  (setq j (+ j 3)
                        churn (1+ churn)))))))))))
    (setq highlight-ls--overlays (vconcat (nreverse drawn)))
    churn))

(defun highlight-ls--draw (params)
  "Draw decoration PARAMS in the current buffer.
Return the number of overlays made and deleted."
  (let* ((encoding (or (highlight-ls--get params :positionEncoding) "utf-16"))
         (backdrop (highlight-ls--backdrop))
         (faces (vconcat (mapcar (lambda (style) (highlight-ls--style-face style backdrop))
                                 (highlight-ls--get params :styles))))
         (ranges (vconcat (highlight-ls--get params :ranges)))
         (order (highlight-ls--range-order ranges faces)))
    (highlight-ls--reconcile (highlight-ls--spans ranges order faces encoding))))

(defun highlight-ls--buffer-for-uri (uri)
  "Return the live buffer connected to highlight-ls whose URI is URI, or nil."
  (cl-find-if (lambda (buffer)
                (let ((client (buffer-local-value 'highlight-ls--client buffer)))
                  (and client
                       (with-current-buffer buffer
                         (equal (highlight-ls--client-uri client) uri)))))
              (buffer-list)))

(defun highlight-ls-apply-decorations (params)
  "Draw decoration PARAMS, replacing the decorations of their buffer.
Return the buffer drawn, or nil when PARAMS were ignored: an unknown document,
a buffer where `highlight-ls-mode' is off, or a version older than the
buffer's (the buffer has changed since, and the server will send the newer
state)."
  (let* ((document (highlight-ls--get params :textDocument))
         (uri (and document (highlight-ls--get document :uri)))
         (version (and document (highlight-ls--get document :version)))
         (buffer (and uri (highlight-ls--buffer-for-uri uri))))
    (when buffer
      (with-current-buffer buffer
        (let ((current (highlight-ls--client-version highlight-ls--client)))
          (unless (or (not highlight-ls-mode)
                      (and (integerp version) (integerp current) (< version current)))
            (highlight-ls--draw params)
            buffer))))))

(defun highlight-ls--on-publish-decorations (params)
  "Handle `highlight/publishDecorations' with PARAMS."
  (when highlight-ls-decorations
    (highlight-ls-apply-decorations params)))

(defun highlight-ls-refresh ()
  "Ask highlight-ls for the current buffer's decorations and draw them."
  (interactive)
  (if (not highlight-ls--client)
      (when (called-interactively-p 'interactive)
        (message "highlight-ls: this buffer is not connected"))
    (highlight-ls--client-request
     highlight-ls--client highlight-ls-decorations-request
     (list :textDocument (list :uri (highlight-ls--client-uri highlight-ls--client)))
     (lambda (result) (when result (highlight-ls-apply-decorations result))))))

;;;; Settings

(defun highlight-ls--rule-names (settings)
  "The names of the rules of SETTINGS."
  (delq nil (mapcar (lambda (rule) (highlight-ls--get rule :name))
                    (highlight-ls--get settings :rules))))

(defun highlight-ls-settings-update (initial current)
  "Return the settings layer to send for CURRENT to apply over INITIAL.
The server keeps INITIAL, the settings sent at start, as a layer of its own
below the settings sent since, so what INITIAL set and CURRENT does not is
undone: its rules are switched off, `defaults' and `colors' reset."
  (let ((update (copy-sequence current)))
    (when (and (plist-member initial :defaults) (not (plist-member current :defaults)))
      (setq update (plist-put update :defaults t)))
    (when (and (plist-member initial :colors) (not (plist-member current :colors)))
      (setq update (plist-put update :colors :json-false)))
    (let* ((names (highlight-ls--rule-names current))
           (gone (cl-remove-if (lambda (name) (member name names))
                               (highlight-ls--rule-names initial))))
      (when gone
        (setq update (plist-put update :rules
                                (vconcat (plist-get current :rules)
                                         (mapcar (lambda (name) (list :name name :enabled :json-false))
                                                 gone))))))
    (or update (make-hash-table :test 'equal))))

(defun highlight-ls--settings-changed (_symbol value operation where)
  "Send VALUE, the new `highlight-ls-settings', to the running servers.
OPERATION and WHERE are those of a variable watcher: only a global `set'
counts."
  (when (and (eq operation 'set) (null where))
    (dolist (client highlight-ls--clients)
      (highlight-ls--client-send-settings client value))))

(defun highlight-ls--decorations-changed (_symbol value operation where)
  "Draw or clear every buffer after VALUE, the new `highlight-ls-decorations'.
OPERATION and WHERE are those of a variable watcher."
  (when (and (eq operation 'set) (null where))
    (dolist (buffer (buffer-list))
      (when (buffer-local-value 'highlight-ls--client buffer)
        (with-current-buffer buffer
          (if value
              (let ((highlight-ls-decorations t))
                (when highlight-ls-mode (highlight-ls-refresh)))
            (highlight-ls-clear)))))))

(add-variable-watcher 'highlight-ls-settings #'highlight-ls--settings-changed)
(add-variable-watcher 'highlight-ls-decorations #'highlight-ls--decorations-changed)

;;;; Modes

(defun highlight-ls--chosen-client ()
  "The client `highlight-ls-client' asks for, or nil."
  (pcase highlight-ls-client
    ('auto (if (or (featurep 'lsp-mode) (locate-library "lsp-mode")) 'lsp-mode 'eglot))
    (client client)))

(defun highlight-ls--connect ()
  "Connect the current buffer through the chosen client, if any."
  (let ((client (highlight-ls--chosen-client)))
    (pcase client
      ('lsp-mode (require 'highlight-ls-lsp))
      ('eglot (require 'highlight-ls-eglot)))
    (when client
      (highlight-ls--client-connect client))))

;;;###autoload
(define-minor-mode highlight-ls-mode
  "Show the highlights of highlight-ls in this buffer.
Turning it on connects the buffer through `highlight-ls-client' unless it
is connected already; turning it off removes the highlights."
  :lighter nil
  :group 'highlight-ls
  (cond
   (highlight-ls-mode
    (setq highlight-ls--turned-off nil)
    (cond (highlight-ls--attaching nil)
          (highlight-ls--client (when highlight-ls-decorations (highlight-ls-refresh)))
          (buffer-file-name (highlight-ls--connect))))
   (t
    (setq highlight-ls--turned-off t)
    (highlight-ls-clear))))

(defun highlight-ls--turn-on ()
  "Turn `highlight-ls-mode' on in a buffer that visits a file."
  (when (and buffer-file-name (not (minibufferp)) (not highlight-ls--turned-off))
    (highlight-ls-mode 1)))

;;;###autoload
(define-globalized-minor-mode global-highlight-ls-mode highlight-ls-mode
  highlight-ls--turn-on
  :group 'highlight-ls)

(provide 'highlight-ls)

;;;; Loading the client parts with their clients

;; lsp-mode requires the packages in `lsp-client-packages' when `lsp' first runs; the
;; package's autoloads add the lsp-mode part there.  The Eglot part loads with
;; `highlight-ls-mode' or with `highlight-ls-eglot-contact' (autoloaded), before Eglot makes
;; its server.  Nothing here loads either client.
;;;###autoload (with-eval-after-load 'lsp-mode (add-to-list 'lsp-client-packages 'highlight-ls-lsp))

;;; highlight-ls.el ends here
