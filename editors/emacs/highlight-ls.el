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
;; characters as Emacs does.  The first notification of a buffer holds the whole document;
;; after an edit, one holds only the lines that changed (`edit': lines startLine..<endLine
;; of this version), since the overlays of the other lines moved with the text.  A payload
;; is drawn in one pass over its lines, and only the overlays that differ from those
;; already drawn there are created or deleted, so an edit costs what it changed.
;;
;; Each payload has a `resultId', and a delta names the one it changes: it is drawn only on
;; top of that one, and only for the buffer's current version.  Otherwise (a payload was
;; missed, or the buffer changed since) it is dropped, and the whole set is asked for with
;; `highlight/decorations', once, when a payload for the current version arrives.  With
;; `highlight-ls-decoration-deltas' off, every notification holds the whole document.
;;
;; Gutter signs and whole-line backgrounds come once per line in `lines': the line, then the
;; style index of each, -1 for none.  Such a line gets one overlay over the whole line: a dot
;; in the left fringe in the sign's colour (a fringe shows bitmaps, not text), the sign's text
;; in the left margin for windows that have one (terminals have no fringe), and an `:extend'
;; background.  Emacs has no overview ruler, so a style's `overviewRuler' is not drawn.
;;
;; This file knows no LSP client.  `highlight-ls-lsp' (lsp-mode) and `highlight-ls-eglot'
;; (Eglot) are loaded when their client is, and implement the generic functions below.

;;; Code:

(require 'cl-lib)
(require 'compile)
(require 'subr-x)
(require 'url-util)

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

(defcustom highlight-ls-decoration-deltas t
  "Whether the server sends, after an edit, only the lines that changed.
Otherwise it sends the decorations of the whole document after every edit,
which in a long file costs far more to send, read and compare.  Servers
read this when they start."
  :type 'boolean)

(defcustom highlight-ls-request-timeout 5
  "Seconds to wait for the server.
The finding commands wait that long for an answer; a request for a buffer's
decorations that has had none by then no longer holds back another."
  :type 'number)

(defcustom highlight-ls-mode-line-counts nil
  "Whether the workspace's counts per rule show in the mode line.
When non-nil, the counts of the rules marked `list' (\" 3 TODO 1 FIXME\") are
asked for in the background when a buffer connects, after a save and after
edits (`highlight-ls-counts-delay'), and kept in `highlight-ls-mode-line'.
With t, that variable is also added to `global-mode-string', which the
default mode line shows; with `keep', it is kept current only, for a mode
line of your own.  Off by default: the mode line is yours, and each refresh
walks the workspace."
  :type '(choice (const :tag "Off" nil)
                 (const :tag "In `global-mode-string'" t)
                 (const :tag "Only kept in `highlight-ls-mode-line'" keep)))

(defcustom highlight-ls-counts-delay 0.5
  "Seconds after the last edit before the counts are asked for again."
  :type 'number)

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

(cl-defgeneric highlight-ls--client-request (client method params callback &optional on-error)
  "Send request METHOD with PARAMS to highlight-ls only, through CLIENT.
The current buffer's highlight-ls server answers; CALLBACK gets the result,
or ON-ERROR, called without arguments, learns that none will come (an error
or a timeout).  Return non-nil when the request was sent.")

(cl-defgeneric highlight-ls--client-connect (client)
  "Connect the current buffer to highlight-ls through CLIENT.")

(cl-defgeneric highlight-ls--client-send-settings (client settings)
  "Tell every highlight-ls server of CLIENT that the settings are SETTINGS.")

(defun highlight-ls-decorations-option ()
  "The value of `decorations' in the initialization options, or nil for none.
Columns come in UTF-32 units, which count characters as Emacs does; and
after edits only the changed lines come, when `highlight-ls-decoration-deltas'
is on."
  (when highlight-ls-decorations
    (append (list :positionEncoding "utf-32")
            (when highlight-ls-decoration-deltas (list :delta t)))))

(defun highlight-ls--client-attached (client)
  "Note that CLIENT connected the current buffer to highlight-ls.
Turns `highlight-ls-mode' on unless it was turned off in this buffer."
  (setq highlight-ls--client client)
  (highlight-ls--watch-counts)
  (unless (or highlight-ls-mode highlight-ls--turned-off)
    (let ((highlight-ls--attaching t))
      (highlight-ls-mode 1))))

(defun highlight-ls--client-detached (client)
  "Note that CLIENT disconnected the current buffer from highlight-ls."
  (when (eq highlight-ls--client client)
    (setq highlight-ls--client nil)
    (highlight-ls--unwatch-counts)
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
The same style gives the same (`eq') face in every notification, and so the
same overlay category: an overlay already drawn with it is recognised and kept.")

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

;; Lines and columns are zero-based.  The columns of a range count ENCODING units:
;; characters for "utf-32" (as Emacs counts), else UTF-8 bytes or UTF-16 code units, found
;; by walking the line.

(defun highlight-ls--valid-range-p (ranges index style-count)
  "Whether the range at INDEX of RANGES is usable with STYLE-COUNT styles.
Its numbers are natural, it is not empty, and its style is known."
  (let ((line (aref ranges index))
        (start (aref ranges (+ index 1)))
        (end (aref ranges (+ index 2)))
        (style (aref ranges (+ index 3))))
    (and (highlight-ls--natural-p line) (highlight-ls--natural-p start)
         (highlight-ls--natural-p end) (highlight-ls--natural-p style)
         (< start end) (< style style-count))))

(defun highlight-ls--sorted-indices (ranges style-count)
  "The indices of the valid ranges of RANGES, sorted by line and start.
STYLE-COUNT is the number of styles."
  (let ((indices nil)
        (index 0)
        (limit (- (length ranges) 3)))
    (while (< index limit)
      (when (highlight-ls--valid-range-p ranges index style-count)
        (push index indices))
      (setq index (+ index 4)))
    (sort (nreverse indices)
          (lambda (a b)
            (let ((line-a (aref ranges a))
                  (line-b (aref ranges b)))
              (or (< line-a line-b)
                  (and (= line-a line-b) (< (aref ranges (1+ a)) (aref ranges (1+ b))))))))))

(defun highlight-ls--unit-width (char encoding)
  "The number of ENCODING units (\"utf-8\" or \"utf-16\") of CHAR."
  (if (equal encoding "utf-8")
      (cond ((< char #x80) 1) ((< char #x800) 2) ((< char #x10000) 3) (t 4))
    (if (< char #x10000) 1 2)))

(defvar highlight-ls--span-buffer []
  "Where the spans are written, reused so that drawing allocates little.")

(defvar highlight-ls--line-span-buffer []
  "Where the line-indicator spans go, reused so that drawing allocates little.")

(defun highlight-ls--spans (ranges categories encoding)
  "Write the buffer spans of RANGES, the flat vector LINE START END STYLE ....
They go into `highlight-ls--span-buffer' as FROM TO CATEGORY ..., in
buffer order, with the overlay categories taken from the vector CATEGORIES
by style; invalid ranges are left out.  Return the number of elements
written.  Columns
count ENCODING units; a column past its line's end means the line's end, a
line past the buffer's end its end.  The server sends the ranges sorted, so
one walk down the lines does; otherwise they are sorted and walked again."
  (or (highlight-ls--walk-spans ranges nil categories encoding)
      (highlight-ls--walk-spans ranges (highlight-ls--sorted-indices ranges (length categories))
                                categories encoding)))

(defun highlight-ls--walk-spans (ranges indices categories encoding)
  "Write the spans of the RANGES at INDICES, a sorted list, or of all of them.
Return the number of elements written.  With INDICES nil, take the ranges
in their order, and return nil as soon as one comes before the one before
it.  CATEGORIES and ENCODING as in `highlight-ls--spans'.  `forward-line' moves
from each range's line to the next one's, so the walk visits each line once."
  (let* ((style-count (length categories))
         (limit (- (length ranges) 3))
         (spans (let ((size (* 3 (/ (length ranges) 4))))
                  (when (< (length highlight-ls--span-buffer) size)
                    (setq highlight-ls--span-buffer (make-vector size nil)))
                  highlight-ls--span-buffer))
         (count 0)
         (characters (equal encoding "utf-32"))
         (index (if indices (pop indices) 0))
         (in-order t))
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        ;; Point stays at the end of the line of the latest range: `forward-line' from
        ;; there reaches the next range's line all the same.  The line's end is found with
        ;; `skip-chars-forward', not `line-end-position', which looks for fields at point:
        ;; with the overlays of Emacs 28 that visits every overlay of the buffer.
        (let ((line 0)
              (last-start 0)
              (line-start (point-min))
              (line-end (progn (skip-chars-forward "^\n") (point)))
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
            (while (and in-order index (< index limit))
              (when (highlight-ls--valid-range-p ranges index style-count)
                (let ((range-line (aref ranges index))
                      (start (aref ranges (+ index 1))))
                  (if (or (< range-line line) (and (= range-line line) (< start last-start)))
                      (setq in-order nil)
                    (when (and (> range-line line) (not past-end))
                      (let ((shortfall (forward-line (- range-line line))))
                        (setq past-end (or (> shortfall 0) (and (eobp) (not (bolp))))
                              line-start (point)
                              line-end (progn (skip-chars-forward "^\n") (point))
                              walk-position line-start
                              walk-column 0)))
                    (setq line range-line
                          last-start start)
                    (let ((from (position-of start))
                          (to (position-of (aref ranges (+ index 2)))))
                      (when (< from to)
                        (aset spans count from)
                        (aset spans (+ count 1) to)
                        (aset spans (+ count 2) (aref categories (aref ranges (+ index 3))))
                        (setq count (+ count 3)))))))
              (setq index (if indices (pop indices) (+ index 4))))))))
    (and in-order count)))

;;;; Overlays

;; An overlay takes its properties from its `category', a symbol made once per style (and
;; once per combination of line indicators).  Making an overlay then sets one property instead
;; of four, which is most of what drawing a long file costs, and two overlays draw the
;; same exactly when their categories are `eq'.

(defvar highlight-ls--categories (make-hash-table :test 'equal)
  "The overlay categories made so far, by what they draw.")

(defun highlight-ls--category (key properties)
  "The category symbol for KEY, given PROPERTIES (a plist) when first made."
  (or (gethash key highlight-ls--categories)
      (let ((category (make-symbol "highlight-ls")))
        (setplist category properties)
        (puthash key category highlight-ls--categories))))

(defun highlight-ls--range-categories (styles backdrop)
  "The categories of the decoration overlays of STYLES, a vector, in a vector.
Translucent colours blend over BACKDROP."
  (vconcat
   (mapcar (lambda (style)
             (let ((face (highlight-ls--style-face style backdrop)))
               (highlight-ls--category
                (list 'range face highlight-ls-overlay-priority)
                (list 'face face 'priority highlight-ls-overlay-priority 'highlight-ls t
                      ;; An overlay whose text is deleted goes with it, so none is left
                      ;; empty between the edit and the drawing of its lines.
                      'evaporate t))))
           styles)))

(defvar-local highlight-ls--overlays []
  "The decoration overlays of the current buffer, in buffer order.
They move with the text and keep their order.  Some may be dead (deleted
with their text) until the drawing of their lines drops them.")

(defvar-local highlight-ls--line-overlays []
  "The line-indicator overlays of the current buffer, in buffer order.
As with `highlight-ls--overlays', some may be dead.")

;; With deltas, each payload names the one it changes.  These say what the buffer shows.

(defvar-local highlight-ls--result-id nil
  "The `resultId' of the decorations drawn in the current buffer, or nil.
A delta applies only on top of the payload it names.")

(defvar-local highlight-ls--needs-whole nil
  "Non-nil when a delta could not be applied and the buffer needs the whole set.")

(defvar-local highlight-ls--request nil
  "The pending `highlight/decorations' request of the current buffer, or nil.
A list (TIME), TIME when it was sent; only the answer to this very request
is drawn.")

(defvar-local highlight-ls--styles []
  "The style table of the latest payload drawn, for deltas that leave it out.")

(defvar-local highlight-ls--encoding "utf-16"
  "The position encoding of the latest payload drawn, for deltas that leave it out.")

(defun highlight-ls-clear ()
  "Remove every decoration of highlight-ls from the current buffer."
  (interactive)
  (mapc #'delete-overlay highlight-ls--overlays)
  (mapc #'delete-overlay highlight-ls--line-overlays)
  (setq highlight-ls--overlays []
        highlight-ls--line-overlays []
        ;; Nothing drawn is a state the server knows nothing of: a delta cannot apply to
        ;; it, and a request sent before is not answered into it.
        highlight-ls--result-id nil
        highlight-ls--needs-whole nil
        highlight-ls--request nil))

(defun highlight-ls--first-index (overlays position)
  "Find the first live overlay of OVERLAYS from POSITION on; return its index.
That is the first one that starts at or after POSITION.  OVERLAYS is a
vector in buffer order, in which dead overlays may stand anywhere; they are
skipped.  Return the length of OVERLAYS when there is none."
  (let ((low 0)
        (high (length overlays)))
    ;; Every live overlay before LOW starts before POSITION, every live one from HIGH on
    ;; at or after it.
    (while (< low high)
      (let* ((middle (/ (+ low high) 2))
             (live middle))
        (while (and (< live high) (null (overlay-start (aref overlays live))))
          (setq live (1+ live)))
        (if (and (< live high) (< (overlay-start (aref overlays live)) position))
            (setq low (1+ live))
          (setq high middle))))
    (while (and (< low (length overlays)) (null (overlay-start (aref overlays low))))
      (setq low (1+ low)))
    low))

(defun highlight-ls--region-indices (overlays start end)
  "Return (FROM . TO), the indices of OVERLAYS that cover the text START..END.
They are the live overlays that start from START to before END (or to the
end, when END is the buffer's end), and the dead ones among them and just
before them: the text of a dead overlay was deleted where its neighbours
now are."
  (let ((from (highlight-ls--first-index overlays start))
        (to (if (>= end (point-max))
                (length overlays)
              (highlight-ls--first-index overlays end))))
    (while (and (> from 0) (null (overlay-start (aref overlays (1- from)))))
      (setq from (1- from)))
    (cons from to)))

(defun highlight-ls--spans-within (spans count start end)
  "Keep the spans of SPANS (START END CATEGORY ...) that lie within START..END.
Only the first COUNT elements count; the kept ones are moved to the front.
Return the number of elements kept."
  (let ((index 0)
        (kept 0))
    (while (< index count)
      (when (and (<= start (aref spans index)) (<= (aref spans (1+ index)) end))
        (unless (= kept index)
          (aset spans kept (aref spans index))
          (aset spans (+ kept 1) (aref spans (+ index 1)))
          (aset spans (+ kept 2) (aref spans (+ index 2))))
        (setq kept (+ kept 3)))
      (setq index (+ index 3)))
    kept))

(defun highlight-ls--merge (old from to spans count)
  "Return (DRAWN . CHURN): what draws SPANS, overlays kept from OLD or to make.
SPANS is a vector START END CATEGORY ... in buffer order, of which the first
COUNT elements count.  The overlays of the vector OLD from index FROM to TO
are in buffer order too (they move with the text, keeping their order), so
one merge of the two sequences finds the overlays to keep (where a span is;
their category is updated), to delete and to make.  DRAWN is a vector in
buffer order of the overlays kept and, for those to make, the index of their
span in SPANS (see `highlight-ls--make-overlays').  CHURN is the number of
overlays to make and deleted."
  (let ((i from)
        (j 0)
        (k 0)
        (churn 0)
        ;; Every span ends up drawn, by an overlay kept or made.
        (drawn (make-vector (/ count 3) nil)))
    (while (or (< i to) (< j count))
      (let ((overlay (and (< i to) (aref old i))))
        (cond
         ;; Deleted, or evaporated because its text was deleted.
         ((and overlay (null (overlay-start overlay)))
          (setq i (1+ i)))
         ((>= j count)
          (delete-overlay overlay)
          (setq i (1+ i)
                churn (1+ churn)))
         (t
          (let ((start (aref spans j))
                (end (aref spans (+ j 1)))
                (category (aref spans (+ j 2))))
            (if (or (null overlay)
                    (< start (overlay-start overlay))
                    (and (= start (overlay-start overlay)) (< end (overlay-end overlay))))
                (progn
                  (aset drawn k j)
                  (setq j (+ j 3)
                        k (1+ k)
                        churn (1+ churn)))
              (if (and (= start (overlay-start overlay)) (= end (overlay-end overlay)))
                  (progn
                    (unless (eq (overlay-get overlay 'category) category)
                      (overlay-put overlay 'category category))
                    (aset drawn k overlay)
                    (setq i (1+ i)
                          j (+ j 3)
                          k (1+ k)))
                (delete-overlay overlay)
                (setq i (1+ i)
                      churn (1+ churn)))))))))
    (cons drawn churn)))

(defun highlight-ls--splice (old from to drawn)
  "Return the vector OLD with its elements from FROM to TO replaced by DRAWN."
  (if (and (= from 0) (= to (length old)))
      drawn
    ;; Copying the vector is a memory copy, far below what Emacs does for the edit itself
    ;; (it moves every overlay's markers).
    (vconcat (substring old 0 from) drawn (substring old to))))

(defun highlight-ls--make-overlays (ranges range-spans lines line-spans)
  "Make the overlays that RANGES and LINES, from `highlight-ls--merge', wait for.
An element that is an index into RANGE-SPANS (for RANGES) or LINE-SPANS
\(for LINES) is replaced by an overlay made for that span."
  (let ((i 0)
        (j 0)
        (range-count (length ranges))
        (line-count (length lines)))
    ;; Both kinds are made together, in the order of their ends: with the overlay centre
    ;; at the end (see `highlight-ls--draw-spans'), each overlay made then goes first in
    ;; Emacs 28's list sorted by end.  Were all ranges made before all lines, each line
    ;; overlay would walk past every range that ends after it: 40,000 lines with a sign
    ;; took seconds.
    (while (or (< i range-count) (< j line-count))
      (while (and (< i range-count) (overlayp (aref ranges i)))
        (setq i (1+ i)))
      (while (and (< j line-count) (overlayp (aref lines j)))
        (setq j (1+ j)))
      (let ((range (and (< i range-count) (aref ranges i)))
            (line (and (< j line-count) (aref lines j))))
        (cond
         ((and range (or (null line)
                         (<= (aref range-spans (1+ range)) (aref line-spans (1+ line)))))
          (aset ranges i (highlight-ls--make-overlay range-spans range))
          (setq i (1+ i)))
         (line
          (aset lines j (highlight-ls--make-overlay line-spans line))
          (setq j (1+ j))))))))

(defun highlight-ls--make-overlay (spans index)
  "Make the overlay that draws the span at INDEX of SPANS (START END CATEGORY ...)."
  (let ((overlay (make-overlay (aref spans index) (aref spans (1+ index)) nil t nil)))
    (overlay-put overlay 'category (aref spans (+ index 2)))
    overlay))

(defun highlight-ls--draw-spans (range-count line-count &optional start end)
  "Draw the spans written for the ranges and the lines with overlays.
Those are the first RANGE-COUNT elements of `highlight-ls--span-buffer' and
the first LINE-COUNT of `highlight-ls--line-span-buffer', START END CATEGORY
... in buffer order.  They replace every overlay, or with START and END, the
overlays that start from START to END (and only the spans there are drawn).
The overlays already drawn where a span is are kept.  Return (RANGES .
LINES), the number of decoration and of line overlays made and deleted."
  (let* ((ranges highlight-ls--overlays)
         (lines highlight-ls--line-overlays)
         (range-region (if start
                           (highlight-ls--region-indices ranges start end)
                         (cons 0 (length ranges))))
         (line-region (if start
                          (highlight-ls--region-indices lines start end)
                        (cons 0 (length lines))))
         (range-spans highlight-ls--span-buffer)
         (line-spans highlight-ls--line-span-buffer)
         (range-result (highlight-ls--merge ranges (car range-region) (cdr range-region) range-spans
                                            (if start
                                                (highlight-ls--spans-within range-spans range-count start end)
                                              range-count)))
         (line-result (highlight-ls--merge lines (car line-region) (cdr line-region) line-spans
                                           (if start
                                               (highlight-ls--spans-within line-spans line-count start end)
                                             line-count))))
    ;; Emacs 28 keeps the overlays before its overlay centre in a list sorted by end,
    ;; largest first, and those after it in a list sorted by start, smallest first; each
    ;; overlay made is put into place from the front of its list.  With the centre at the
    ;; end, overlays made in buffer order each go first (see `highlight-ls--make-overlays');
    ;; with it at the start, each would walk the whole list.  A delta makes a few.
    (unless start (overlay-recenter (point-max)))
    (highlight-ls--make-overlays (car range-result) range-spans (car line-result) line-spans)
    (setq highlight-ls--overlays (highlight-ls--splice ranges (car range-region) (cdr range-region)
                                                       (car range-result))
          highlight-ls--line-overlays (highlight-ls--splice lines (car line-region) (cdr line-region)
                                                            (car line-result)))
    (cons (cdr range-result) (cdr line-result))))

(defun highlight-ls--vector (value)
  "VALUE, a JSON array (vector or list), as a vector."
  (if (vectorp value) value (vconcat value)))

(defun highlight-ls--draw (params)
  "Draw decoration PARAMS, a whole payload, in the current buffer.
Return (RANGES . LINES), the number of decoration and line overlays made and
deleted."
  (let* (;; Drawing a long file makes tens of thousands of overlays, which stay: with the
         ;; default threshold Emacs would collect garbage a dozen times meanwhile, each
         ;; time marking every overlay made so far, to free little.  Once afterwards does.
         (gc-cons-threshold most-positive-fixnum)
         (encoding (or (highlight-ls--get params :positionEncoding) "utf-16"))
         (backdrop (highlight-ls--backdrop))
         (styles (highlight-ls--vector (highlight-ls--get params :styles)))
         (count (highlight-ls--spans (highlight-ls--vector (highlight-ls--get params :ranges))
                                     (highlight-ls--range-categories styles backdrop)
                                     encoding)))
    (setq highlight-ls--styles styles
          highlight-ls--encoding encoding)
    (highlight-ls--draw-spans count (highlight-ls--line-indicator-spans
                                     styles (highlight-ls--vector (highlight-ls--get params :lines))
                                     backdrop))))

(defun highlight-ls--line-start (line)
  "Return the start of LINE (zero-based), or the end when there is no such line."
  (save-excursion
    (goto-char (point-min))
    ;; Past the end, `forward-line' falls short or stops at the end of a last line
    ;; without a newline; either way point is not at the line's start.
    (if (and (= 0 (forward-line line)) (bolp))
        (point)
      (point-max))))

(defun highlight-ls--draw-edit (params edit)
  "Draw the delta PARAMS in the current buffer; its EDIT names the lines.
EDIT's `ranges' and `lines' replace what is drawn on lines `startLine' to
`endLine' (excluded); every other line kept its overlays, which moved with
the text.  Return (RANGES . LINES), the number of decoration and line
overlays made and deleted, or nil when EDIT is malformed (then nothing is
drawn)."
  (let ((start-line (highlight-ls--get edit :startLine))
        (end-line (highlight-ls--get edit :endLine)))
    (when (and (highlight-ls--natural-p start-line) (highlight-ls--natural-p end-line)
               (<= start-line end-line))
      (save-restriction
        (widen)
        (let* ((encoding (or (highlight-ls--get params :positionEncoding) highlight-ls--encoding))
               (table (highlight-ls--get params :styles))
               (styles (if table (highlight-ls--vector table) highlight-ls--styles))
               (backdrop (highlight-ls--backdrop))
               (start (highlight-ls--line-start start-line))
               (end (if (= start-line end-line)
                        start
                      (highlight-ls--line-start end-line)))
               (count (highlight-ls--spans (highlight-ls--vector (highlight-ls--get edit :ranges))
                                           (highlight-ls--range-categories styles backdrop)
                                           encoding)))
          (setq highlight-ls--styles styles
                highlight-ls--encoding encoding)
          ;; The spans on other lines are left out: they are not the server's to send
          ;; here, and what is drawn there is right already.
          (highlight-ls--draw-spans count (highlight-ls--line-indicator-spans
                                           styles (highlight-ls--vector (highlight-ls--get edit :lines))
                                           backdrop)
                                    start end))))))

;;;; Line indicators

(when (fboundp 'define-fringe-bitmap)
  (define-fringe-bitmap 'highlight-ls-sign
    [#b00000000 #b00111100 #b01111110 #b01111110 #b01111110 #b01111110 #b00111100 #b00000000]
    nil nil 'center))

(defconst highlight-ls-default-sign "●"
  "The sign text shown in the margin for a gutter mark without text of its own.")

(defun highlight-ls--sign-string (face text)
  "The `before-string' of a gutter sign of TEXT drawn in FACE.
A dot in the left fringe, then TEXT in the left margin; each shows where the
window has that fringe or margin and is nothing elsewhere."
  (concat (propertize "*" 'display (list 'left-fringe 'highlight-ls-sign face))
          (propertize "*" 'display (list '(margin left-margin) (propertize text 'face face)))))

(defun highlight-ls--line-indicator-face (styles index key color-key kind backdrop)
  "The face of a line indicator, or nil when there is none to draw.
INDEX names a style of the vector STYLES (-1 for none); KEY is its mark
\(`:gutter' or `:wholeLine'), COLOR-KEY the mark's colour key.  KIND is
`sign' (the colour as foreground) or `line' (as an extended background).
Translucent colours blend over BACKDROP."
  (when (and (highlight-ls--natural-p index) (< index (length styles)))
    (let* ((mark (highlight-ls--get (aref styles index) key))
           (color (and (or (hash-table-p mark) (consp mark))
                       (highlight-ls--color (highlight-ls--get mark color-key) backdrop))))
      (when color
        (let ((cache-key (list kind color)))
          (or (gethash cache-key highlight-ls--face-cache)
              (puthash cache-key
                       (if (eq kind 'line)
                           (list :background color :extend t)
                         (list :foreground color))
                       highlight-ls--face-cache)))))))

(defun highlight-ls--line-category (face sign text)
  "The category of a line overlay: the whole line in FACE, a sign of TEXT in SIGN.
FACE and SIGN may be nil."
  (let ((priority (1- highlight-ls-overlay-priority)))
    (highlight-ls--category
     (list 'line face sign text priority)
     (append (list 'highlight-ls-line t 'priority priority
                   ;; A line whose text is deleted goes with it (a line overlay spans its
                   ;; newline, so only the deletion of the whole line empties it).
                   'evaporate t)
             (when face (list 'face face))
             (when sign (list 'highlight-ls-sign-face sign
                              'highlight-ls-sign-text text
                              'before-string (highlight-ls--sign-string sign text)))))))

(defun highlight-ls--line-indicator-spans (styles lines backdrop)
  "Write the spans to draw for LINES, the flat vector LINE GUTTER WHOLE-LINE ....
They go into `highlight-ls--line-span-buffer' as START END CATEGORY ..., in
buffer order: from a line's start to the next line's, and the category that
draws its whole line and its sign.  Return the number of elements written.
GUTTER and WHOLE-LINE are indices into the vector STYLES, or -1.
Translucent colours blend over BACKDROP.  Lines past the buffer's end are
left out."
  (let* ((limit (- (length lines) 2))
         (index 0)
         (count 0)
         (style-count (length styles))
         (spans (let ((size (length lines)))
                  (when (< (length highlight-ls--line-span-buffer) size)
                    (setq highlight-ls--line-span-buffer (make-vector size nil)))
                  highlight-ls--line-span-buffer))
         ;; Each style's faces and sign, found once per notification: a face parses a
         ;; colour.  The categories by pair of styles, likewise.
         (sign-faces (make-vector style-count 'unknown))
         (sign-texts (make-vector style-count nil))
         (line-faces (make-vector style-count 'unknown))
         (categories (make-hash-table)))
    (save-excursion
      (save-restriction
        (widen)
        (goto-char (point-min))
        (let ((current 0))
          (while (< index limit)
            (let* ((line (aref lines index))
                   (sign-index (aref lines (+ index 1)))
                   (line-index (aref lines (+ index 2)))
                   (sign (and (highlight-ls--natural-p sign-index) (< sign-index style-count)
                              (let ((known (aref sign-faces sign-index)))
                                (when (eq known 'unknown)
                                  (setq known (aset sign-faces sign-index
                                                    (highlight-ls--line-indicator-face
                                                     styles sign-index :gutter :color 'sign backdrop)))
                                  (let ((text (highlight-ls--get
                                               (highlight-ls--get (aref styles sign-index) :gutter) :text)))
                                    (aset sign-texts sign-index
                                          (if (and (stringp text) (> (length text) 0))
                                              text
                                            highlight-ls-default-sign))))
                                known)))
                   (whole (and (highlight-ls--natural-p line-index) (< line-index style-count)
                               (let ((known (aref line-faces line-index)))
                                 (if (eq known 'unknown)
                                     (aset line-faces line-index
                                           (highlight-ls--line-indicator-face
                                            styles line-index :wholeLine :backgroundColor 'line backdrop))
                                   known)))))
              (when (and (highlight-ls--natural-p line) (or sign whole))
                ;; The server sends the lines in order: move on from the last one.
                (when (< line current)
                  (goto-char (point-min))
                  (setq current 0))
                ;; Past the end, `forward-line' falls short or stops at the end of a last
                ;; line without a newline; either way point is not at the line's start.
                (if (not (or (= line current)
                             (and (= 0 (forward-line (- line current))) (bolp))))
                    (progn
                      (goto-char (point-min))
                      (setq current 0))
                  ;; The line's end is found with `skip-chars-forward', as for the ranges;
                  ;; point is left at the next line's start, where the next entry usually is.
                  (let ((start (point))
                        (key (+ (* (if sign (1+ sign-index) 0) (1+ style-count))
                                (if whole (1+ line-index) 0))))
                    (skip-chars-forward "^\n")
                    (unless (eobp) (forward-char 1))
                    (aset spans count start)
                    (aset spans (+ count 1) (point))
                    (aset spans (+ count 2)
                          (or (gethash key categories)
                              (puthash key (highlight-ls--line-category
                                            whole sign (and sign (aref sign-texts sign-index)))
                                       categories)))
                    (setq count (+ count 3))
                    (if (bolp)
                        (setq current (1+ line))
                      ;; The last line, without a newline: nothing follows it.
                      (goto-char (point-min))
                      (setq current 0))))))
            (setq index (+ index 3))))))
    count))

;;;; Applying payloads

(defun highlight-ls--buffer-for-uri (uri)
  "Return the live buffer connected to highlight-ls whose URI is URI, or nil."
  (cl-find-if (lambda (buffer)
                (let ((client (buffer-local-value 'highlight-ls--client buffer)))
                  (and client
                       (with-current-buffer buffer
                         (equal (highlight-ls--client-uri client) uri)))))
              (buffer-list)))

(defun highlight-ls-apply-decorations (params)
  "Draw decoration PARAMS in their buffer.
A whole payload replaces the buffer's decorations; a delta (with `edit')
replaces those of the lines it names.  Return the buffer drawn, or nil when
PARAMS were ignored: an unknown document, a buffer where `highlight-ls-mode'
is off, a version older than the buffer's (the buffer has changed since,
and the server will send the newer state), or a delta that does not apply
to what the buffer shows (then the whole set is asked for, see
`highlight-ls--apply')."
  (let* ((document (highlight-ls--get params :textDocument))
         (uri (and document (highlight-ls--get document :uri)))
         (version (and document (highlight-ls--get document :version)))
         (buffer (and uri (highlight-ls--buffer-for-uri uri))))
    (when buffer
      (with-current-buffer buffer
        (when (and highlight-ls-mode (highlight-ls--apply params version))
          buffer)))))

(defun highlight-ls--apply (params version)
  "Draw PARAMS, for document VERSION, in the current buffer if they apply.
A delta applies when it changes the payload drawn last (its
`previousResultId' is `highlight-ls--result-id') and VERSION is the
buffer's: its line numbers are those of this text.  Otherwise it is dropped
and the buffer needs the whole set, which is asked for once a payload for
the buffer's version arrives (this one, or a later one).  A whole payload
applies unless VERSION is older than the buffer's.  Return non-nil when
PARAMS were drawn."
  (let* ((current (highlight-ls--client-version highlight-ls--client))
         (known (and (integerp version) (integerp current)))
         (edit (highlight-ls--get params :edit)))
    (cond
     (edit
      (if (and (not highlight-ls--needs-whole)
               (or (not known) (= version current))
               highlight-ls--result-id
               (equal (highlight-ls--get params :previousResultId) highlight-ls--result-id)
               (highlight-ls--draw-edit params edit))
          (progn
            (setq highlight-ls--result-id (highlight-ls--get params :resultId))
            t)
        (setq highlight-ls--needs-whole t)
        (when (or (not known) (= version current))
          (highlight-ls--request-whole))
        nil))
     ((and known (< version current))
      ;; The server's next delta builds on this payload, which the buffer does not show.
      (when (highlight-ls--get params :resultId)
        (setq highlight-ls--needs-whole t))
      nil)
     (t
      (highlight-ls--draw params)
      (setq highlight-ls--result-id (highlight-ls--get params :resultId)
            highlight-ls--needs-whole nil)
      t))))

(defun highlight-ls--request-whole ()
  "Ask for the current buffer's whole set of decorations, unless already asked.
A request that has had no answer for `highlight-ls-request-timeout' seconds
no longer holds a new one back."
  (unless (and highlight-ls--request
               (< (- (float-time) (car highlight-ls--request)) highlight-ls-request-timeout))
    (highlight-ls-refresh)))

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
    (let* ((buffer (current-buffer))
           (request (list (float-time)))
           (answered (lambda (&rest _)
                       ;; Only the latest request counts: an earlier one's answer, or one
                       ;; sent before the buffer was cleared, is not drawn.
                       (when (buffer-live-p buffer)
                         (with-current-buffer buffer
                           (when (eq highlight-ls--request request)
                             (setq highlight-ls--request nil)
                             t))))))
      (setq highlight-ls--request request)
      (unless (highlight-ls--client-request
               highlight-ls--client highlight-ls-decorations-request
               (list :textDocument (list :uri (highlight-ls--client-uri highlight-ls--client)))
               (lambda (result)
                 (when (and (funcall answered) result)
                   (highlight-ls-apply-decorations result)))
               answered)
        (setq highlight-ls--request nil)))))

;;;; Finding matches

;; `highlight-ls-next' and `highlight-ls-previous' move between the matches the buffer
;; highlights, as the server has them (`highlight/matches', whose UTF-8 byte ranges are
;; buffer byte positions); `highlight-ls-occur' lists them, and `highlight-ls-list' lists the
;; matches of the rules marked `list' in the whole workspace (`workspace/symbol').  Both lists
;; are `compilation-mode' buffers, so `next-error' and `previous-error' walk through them.

(cl-defgeneric highlight-ls--client-position-encoding (client)
  "Return the position encoding of CLIENT's highlight-ls server for this buffer.")

(defun highlight-ls--request-sync (method params)
  "Send METHOD with PARAMS to the current buffer's server and return the result.
Signal a `user-error' when the buffer is not connected or no answer comes in
`highlight-ls-request-timeout' seconds."
  (unless highlight-ls--client
    (user-error "This buffer is not connected to highlight-ls"))
  (let ((done nil)
        (result nil)
        (deadline (+ (float-time) highlight-ls-request-timeout)))
    (highlight-ls--client-request highlight-ls--client method params
                                  (lambda (answer) (setq result answer done t)))
    (while (and (not done) (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (unless done
      (user-error "No answer from highlight-ls to %s" method))
    result))

(defun highlight-ls--seq (value)
  "VALUE, a JSON array (vector or list), as a list."
  (if (vectorp value) (append value nil) value))

(defun highlight-ls-matches ()
  "The matches of the current buffer as (RULE START END), in buffer order."
  (let ((result (highlight-ls--request-sync
                 "highlight/matches"
                 (list :textDocument (list :uri (highlight-ls--client-uri highlight-ls--client)))))
        (matches nil))
    (save-restriction
      (widen)
      (dolist (match (highlight-ls--seq result))
        (let* ((range (highlight-ls--seq (highlight-ls--get match :utf8Range)))
               (start (and (highlight-ls--natural-p (car range)) (byte-to-position (1+ (car range)))))
               (end (and (highlight-ls--natural-p (cadr range)) (byte-to-position (1+ (cadr range))))))
          (when (and start end)
            (push (list (highlight-ls--get match :rule) start end) matches)))))
    (nreverse matches)))

(defun highlight-ls--jump (count)
  "Move to the start of the COUNTth match after point, or before it when negative.
Wrap around the ends of the buffer with a message; return the new point."
  (let ((starts (mapcar #'cadr (highlight-ls-matches)))
        (position (point))
        (wrapped nil))
    (unless starts
      (user-error "No highlight-ls matches in this buffer"))
    (dotimes (_ (abs count))
      (let ((target (if (> count 0)
                        (cl-find-if (lambda (start) (> start position)) starts)
                      (cl-find-if (lambda (start) (< start position)) (reverse starts)))))
        (unless target
          (setq wrapped t
                target (if (> count 0) (car starts) (car (last starts)))))
        (setq position target)))
    (unless (region-active-p)
      (push-mark nil t))
    (goto-char position)
    (when wrapped
      (message "highlight-ls: %s" (if (> count 0) "wrapped to the first match" "wrapped to the last match")))
    position))

;;;###autoload
(defun highlight-ls-next (&optional count)
  "Move to the next match of highlight-ls in this buffer.
With prefix argument COUNT, move that many matches; wrap at the end."
  (interactive "p")
  (highlight-ls--jump (or count 1)))

;;;###autoload
(defun highlight-ls-previous (&optional count)
  "Move to the previous match of highlight-ls in this buffer.
With prefix argument COUNT, move that many matches; wrap at the start."
  (interactive "p")
  (highlight-ls--jump (- (or count 1))))

(defvar highlight-ls-repeat-map
  (let ((map (make-sparse-keymap)))
    (define-key map "n" #'highlight-ls-next)
    (define-key map "p" #'highlight-ls-previous)
    map)
  "Keys that repeat `highlight-ls-next' and `highlight-ls-previous'.
They apply under `repeat-mode' (Emacs 28 and later).")
(put 'highlight-ls-next 'repeat-map 'highlight-ls-repeat-map)
(put 'highlight-ls-previous 'repeat-map 'highlight-ls-repeat-map)

(defconst highlight-ls--list-regexp
  "^\\([^\n]+?\\):\\([0-9]+\\):\\([0-9]+\\): "
  "A line of a highlight-ls list: file, line and column (in characters, from 1).")

(define-compilation-mode highlight-ls-list-mode "highlight-ls"
  "A list of highlight-ls matches; `next-error' visits them in turn."
  (setq-local compilation-error-regexp-alist (list (list highlight-ls--list-regexp 1 2 3 1)))
  ;; Columns count characters, not screen columns: a tab or a wide character is one.
  (setq-local compilation-error-screen-columns nil))

(defun highlight-ls--show-list (name directory entries)
  "Show ENTRIES, (FILE LINE COLUMN TEXT) each, in the list buffer NAME.
File names are written relative to DIRECTORY; the buffer becomes the one
`next-error' uses.  Return the buffer."
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (setq default-directory directory)
        (insert (format "-*- %d match%s -*-\n" (length entries) (if (= (length entries) 1) "" "es")))
        (dolist (entry entries)
          (insert (format "%s:%d:%d: %s\n" (file-relative-name (nth 0 entry) directory)
                          (nth 1 entry) (nth 2 entry) (nth 3 entry)))))
      (highlight-ls-list-mode)
      (goto-char (point-min))
      (setq next-error-last-buffer buffer))
    (display-buffer buffer)
    buffer))

(defun highlight-ls--line-text-from (position)
  "The text from POSITION to the end of its line, without surrounding blanks."
  (string-trim (buffer-substring-no-properties
                position (save-excursion (goto-char position) (line-end-position)))))

;;;###autoload
(defun highlight-ls-occur ()
  "List the matches of highlight-ls in this buffer, for `next-error'."
  (interactive)
  (let* ((file (or buffer-file-name (user-error "This buffer visits no file")))
         (entries (save-restriction
                    (widen)
                    (mapcar (lambda (match)
                              (let ((start (nth 1 match)))
                                (save-excursion
                                  (goto-char start)
                                  (list file (line-number-at-pos start) (1+ (- start (line-beginning-position)))
                                        (format "[%s] %s" (nth 0 match) (highlight-ls--line-text-from start))))))
                            (highlight-ls-matches)))))
    (highlight-ls--show-list "*highlight-ls occur*" default-directory entries)))

(defun highlight-ls--column-in-characters (text units encoding)
  "The character column in TEXT at UNITS code units of ENCODING from its start."
  (if (equal encoding "utf-32")
      (min units (length text))
    (let ((column 0) (count 0))
      (while (and (< column (length text)) (< count units))
        (let ((char (aref text column)))
          (setq count (+ count (cond ((equal encoding "utf-8") (length (encode-coding-char char 'utf-8)))
                                     ((> char #xFFFF) 2)
                                     (t 1))))
          (setq column (1+ column))))
      column)))

;;;###autoload
(defun highlight-ls-list (&optional rule)
  "List the matches of the rules marked `list' in the whole workspace.
With a prefix argument, ask for RULE and list only its matches.  Files
open in Emacs count with their unsaved text."
  (interactive (list (when current-prefix-arg (read-string "highlight-ls rule: "))))
  (let* ((encoding (highlight-ls--client-position-encoding highlight-ls--client))
         (symbols (highlight-ls--request-sync
                   "workspace/symbol" (list :query (if (and rule (not (string-empty-p rule))) (concat rule ":") ""))))
         (lines (make-hash-table :test 'equal))
         (entries nil))
    (dolist (symbol (highlight-ls--seq symbols))
      (let* ((location (highlight-ls--get symbol :location))
             (uri (highlight-ls--get location :uri))
             (start (highlight-ls--get (highlight-ls--get location :range) :start))
             (line (highlight-ls--get start :line))
             (character (highlight-ls--get start :character))
             (file (and (stringp uri) (string-prefix-p "file://" uri)
                        (url-unhex-string (substring uri (length "file://"))))))
        (when (and file (highlight-ls--natural-p line) (highlight-ls--natural-p character))
          (let ((text (gethash (cons file line) lines)))
            (unless text
              (setq text (with-temp-buffer
                           (let ((visiting (find-buffer-visiting file)))
                             (if visiting
                                 (insert-buffer-substring visiting)
                               (let ((coding-system-for-read 'utf-8))
                                 (insert-file-contents file))))
                           (goto-char (point-min))
                           (forward-line line)
                           (buffer-substring-no-properties (point) (line-end-position))))
              (puthash (cons file line) text lines))
            (push (list file (1+ line) (1+ (highlight-ls--column-in-characters text character encoding))
                        (format "[%s] %s" (highlight-ls--get symbol :containerName) (highlight-ls--get symbol :name)))
                  entries)))))
    (highlight-ls--show-list "*highlight-ls list*" default-directory (nreverse entries))))

;;;; Counts in the mode line

;; The workspace's counts per listed rule (`highlight/counts', the server's workspace list
;; counted by rule), for the mode line.  The mode line is drawn often, so it only shows a
;; variable; the variable is refreshed by asking the server when a buffer connects, after a
;; save, and `highlight-ls-counts-delay' seconds after the last edit of a connected buffer
;; (one timer for all buffers, so a burst of edits asks once).  The server counts open
;; buffers with their unsaved text and re-reads only the files that changed.

(defvar highlight-ls-mode-line ""
  "The workspace's counts per rule as mode line text, e.g. \" 3 TODO 1 FIXME\".
Kept current while `highlight-ls-mode-line-counts' is non-nil; empty when
there is nothing to count.")

(defvar highlight-ls-counts nil
  "The workspace's counts per rule as an alist ((RULE . COUNT) ...).
The most frequent rule comes first, ties by name; see `highlight-ls-mode-line'.")

(defvar highlight-ls--counts-timer nil
  "The timer that asks for the counts after edits, or nil.")

(defun highlight-ls--counts-text (counts)
  "The mode line text of COUNTS, an alist of rules and counts."
  (if counts
      (concat " " (mapconcat (lambda (entry) (format "%d %s" (cdr entry) (upcase (car entry))))
                             counts " "))
    ""))

(defun highlight-ls--apply-counts (result)
  "Keep the counts of RESULT, the answer to `highlight/counts', and show them."
  (let ((counts nil))
    (dolist (entry (highlight-ls--seq (highlight-ls--get result :counts)))
      (let ((rule (highlight-ls--get entry :rule))
            (count (highlight-ls--get entry :count)))
        (when (and (stringp rule) (highlight-ls--natural-p count))
          (push (cons rule count) counts))))
    (setq highlight-ls-counts (nreverse counts)
          highlight-ls-mode-line (highlight-ls--counts-text highlight-ls-counts))
    (when (and (eq highlight-ls-mode-line-counts t) (listp global-mode-string))
      (add-to-list 'global-mode-string 'highlight-ls-mode-line t))
    (force-mode-line-update t)))

(defun highlight-ls-refresh-counts ()
  "Ask the current buffer's server for the workspace's counts per rule.
`highlight-ls-mode-line' and `highlight-ls-counts' change when it answers."
  (interactive)
  (when highlight-ls--client
    (highlight-ls--client-request highlight-ls--client "highlight/counts" (make-hash-table)
                                  #'highlight-ls--apply-counts)))

(defun highlight-ls--schedule-counts (&rest _)
  "Ask for the counts for this buffer after `highlight-ls-counts-delay' seconds.
A later call moves the request on, so a burst of edits asks once."
  (when highlight-ls-mode-line-counts
    (when highlight-ls--counts-timer
      (cancel-timer highlight-ls--counts-timer))
    (let ((buffer (current-buffer)))
      (setq highlight-ls--counts-timer
            (run-with-timer highlight-ls-counts-delay nil
                            (lambda ()
                              (setq highlight-ls--counts-timer nil)
                              (when (buffer-live-p buffer)
                                (with-current-buffer buffer
                                  (highlight-ls-refresh-counts)))))))))

(defun highlight-ls--watch-counts ()
  "Ask for the counts now, and again whenever this buffer is saved or edited."
  (when highlight-ls-mode-line-counts
    (add-hook 'after-change-functions #'highlight-ls--schedule-counts nil t)
    (add-hook 'after-save-hook #'highlight-ls--schedule-counts nil t)
    (highlight-ls-refresh-counts)))

(defun highlight-ls--unwatch-counts ()
  "Stop asking for the counts when this buffer is saved or edited."
  (remove-hook 'after-change-functions #'highlight-ls--schedule-counts t)
  (remove-hook 'after-save-hook #'highlight-ls--schedule-counts t))

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

(defvar highlight-ls--missing-program-reported nil
  "The program of `highlight-ls-command' last reported missing.")

(defun highlight-ls--program-found-p ()
  "Whether the program of `highlight-ls-command' can be run; say so once if not."
  (let ((program (car highlight-ls-command)))
    (or (and (stringp program)
             (or (file-remote-p default-directory)
                 (if (file-name-absolute-p program)
                     (file-executable-p program)
                   (executable-find program))))
        (progn
          (unless (equal program highlight-ls--missing-program-reported)
            (setq highlight-ls--missing-program-reported program)
            (message (concat "highlight-ls: cannot find the program %s (`highlight-ls-command') on "
                             "`exec-path'; install it (scripts/install.sh puts it in ~/.local/bin, "
                             "which must be on PATH) or set `highlight-ls-command'")
                     program))
          nil))))

(defun highlight-ls--connect ()
  "Connect the current buffer through the chosen client, if any."
  (let ((client (highlight-ls--chosen-client)))
    (when (and client (highlight-ls--program-found-p))
      (pcase client
        ('lsp-mode (require 'highlight-ls-lsp))
        ('eglot (require 'highlight-ls-eglot)))
      (condition-case failure
          (highlight-ls--client-connect client)
        (error (message "highlight-ls: %s could not start the server: %s"
                        client (error-message-string failure)))))))

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
