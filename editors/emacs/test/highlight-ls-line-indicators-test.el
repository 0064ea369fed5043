;;; highlight-ls-line-indicators-test.el --- gutter signs and whole lines under lsp-mode or Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-line-indicators-test.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot.)
;;
;; Opens a file whose configuration gives styles gutter signs and whole lines, waits
;; (bounded) for the line overlays the server's decorations produce, and checks what each
;; draws: the lines it covers, the fringe bitmap and its face in `before-string', and the
;; whole line's extended background.  Then it draws payloads directly (a sign past the
;; buffer's end, unknown styles, no `lines'), and edits the buffer.  Exits 0 when every
;; check passes, 1 otherwise.

;;; Code:

(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)


(defun highlight-ls-line-indicators--send-changes ()
  "Send the buffer's changes now (Eglot sends them from an idle timer)."
  (when (eq highlight-ls-test-client 'eglot)
    (eglot--signal-textDocument/didChange)))

(defun highlight-ls-line-indicators--sign (before)
  "The sign a `before-string' BEFORE draws, as (FACE TEXT), or nil.
BEFORE must be the fringe bitmap `highlight-ls-sign' in the left fringe, then
TEXT in the left margin, both in FACE; anything else is (:wrong BEFORE)."
  (when before
    (let ((fringe (get-text-property 0 'display before))
          (margin (and (> (length before) 1) (get-text-property 1 'display before))))
      (if (and (equal (length before) 2)
               (eq (nth 0 fringe) 'left-fringe)
               (eq (nth 1 fringe) 'highlight-ls-sign)
               (equal (nth 0 margin) '(margin left-margin))
               (stringp (nth 1 margin))
               (equal (get-text-property 0 'face (nth 1 margin)) (nth 2 fringe)))
          (list (nth 2 fringe) (substring-no-properties (nth 1 margin)))
        (list :wrong before)))))

(defun highlight-ls-line-indicators--drawn ()
  "The line overlays of the current buffer as (LINE END-LINE SIGN LINE-FACE), in order.
LINE is the zero-based line the overlay starts on, END-LINE the line it ends on;
SIGN is what `highlight-ls-line-indicators--sign' reads from its `before-string',
LINE-FACE its own face."
  (let ((overlays (cl-remove-if-not (lambda (overlay) (overlay-get overlay 'highlight-ls-line))
                                    (overlays-in (point-min) (point-max)))))
    (sort (mapcar (lambda (overlay)
                    (list (1- (line-number-at-pos (overlay-start overlay) t))
                          (1- (line-number-at-pos (overlay-end overlay) t))
                          (highlight-ls-line-indicators--sign (overlay-get overlay 'before-string))
                          (overlay-get overlay 'face)))
                  overlays)
          (lambda (a b) (< (car a) (car b))))))

(defvar highlight-ls-line-indicators--churn 0
  "The line overlays made and deleted since the count was last reset.")

(defvar highlight-ls-line-indicators--draws 0
  "How many times the line indicators were drawn.")

(defun highlight-ls-line-indicators--count-churn (churn)
  "Add the line overlays of CHURN, from `highlight-ls--draw-spans', to the count.
Return CHURN."
  (setq highlight-ls-line-indicators--churn (+ highlight-ls-line-indicators--churn (cdr churn))
        highlight-ls-line-indicators--draws (1+ highlight-ls-line-indicators--draws))
  churn)

(defun highlight-ls-line-indicators--wait-for (expected what)
  "Wait (bounded) until the line overlays are EXPECTED; check it, naming WHAT."
  (highlight-ls-test-wait (lambda () (equal (highlight-ls-line-indicators--drawn) expected)))
  (highlight-ls-test-check (equal (highlight-ls-line-indicators--drawn) expected)
                           "%s: line overlays\n  expected %S\n  got      %S"
                           what expected (highlight-ls-line-indicators--drawn)))

(let* ((binary (highlight-ls-test-binary))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-line-indicators" t)))
       (sample (expand-file-name "sample.txt" workspace))
       (name (format "emacs-line-indicators-%s" highlight-ls-test-client))
       (bug-sign '((:foreground "#d32f2f") "B"))
       (owned-sign '((:foreground "#1976d2") "●"))
       ;; #f9a82580 over black.
       (focus-line '(:background "#7d5413" :extend t)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  (highlight-ls-test-load-package workspace)
  (require (if (eq highlight-ls-test-client 'eglot) 'highlight-ls-eglot 'highlight-ls-lsp))
  (setq highlight-ls-command (list binary))
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)
  ;; Emacs without a window system (emacs-nox) has no fringes; the margin text shows there.
  (highlight-ls-test-check (or (not (fboundp 'fringe-bitmap-p)) (fringe-bitmap-p 'highlight-ls-sign))
                           "the fringe bitmap is defined where fringes exist")
  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{\n"
            "  \"defaults\": false,\n"
            "  \"styles\": {\n"
            "    \"bug\": { \"color\": \"#fff\", \"backgroundColor\": \"#d32f2f\", \"gutter\": { \"text\": \"B\" }, \"overviewRuler\": true },\n"
            "    \"focus\": { \"backgroundColor\": \"#f9a82580\", \"wholeLine\": true },\n"
            "  },\n"
            "  \"rules\": [\n"
            "    { \"name\": \"bug\", \"words\": [\"BUG\"] },\n"
            "    { \"name\": \"focus\", \"words\": [\"FOCUS\"] },\n"
            "    { \"name\": \"owned\", \"regex\": \"TODO\\\\((?P<owner>[a-z]+)\\\\)\", \"style\": { \"color\": \"#1976d2\", \"gutter\": true },\n"
            "      \"groups\": { \"owner\": { \"bold\": true, \"gutter\": \"@\" } } },\n"
            "    { \"name\": \"ruler\", \"words\": [\"RULER\"], \"style\": { \"color\": \"#000\", \"overviewRuler\": true } },\n"
            "  ],\n"
            "}\n"))
  (with-temp-file sample
    (insert "BUG and BUG\nTODO(ann) FOCUS\nplain\nRULER\nFOCUS"))
  (with-current-buffer (find-file-noselect sample)
    (text-mode)
    (highlight-ls-test-connect highlight-ls-test-client workspace)
    ;; Line 0: bug's sign; line 1: owned's sign and focus's whole line; line 3: a ruler mark
    ;; only (not drawn); line 4: the last line, without a newline, a whole line.
    (highlight-ls-line-indicators--wait-for
     `((0 1 ,bug-sign nil) (1 2 ,owned-sign ,focus-line) (4 4 nil ,focus-line))
     "after opening")
    ;; The match overlays are drawn as before, beside the line overlays.
    (highlight-ls-test-check (= 8 (length (highlight-ls-test-overlays)))
                             "eight match overlays (BUG, BUG, TODO( ann ), FOCUS, RULER, FOCUS): %S" (highlight-ls-test-overlays))

    ;; An edit: a line in front moves every mark down one line.  The overlays move with the
    ;; text, so only the new line's overlay is made.
    (advice-add 'highlight-ls--draw-spans :filter-return #'highlight-ls-line-indicators--count-churn)
    (setq highlight-ls-line-indicators--churn 0)
    (goto-char (point-min))
    (insert "FOCUS first\n")
    (highlight-ls-line-indicators--send-changes)
    (highlight-ls-line-indicators--wait-for
     `((0 1 nil ,focus-line) (1 2 ,bug-sign nil) (2 3 ,owned-sign ,focus-line) (5 5 nil ,focus-line))
     "after an edit")
    (highlight-ls-test-check (= highlight-ls-line-indicators--churn 1)
                             "the edit made or deleted one line overlay: %d" highlight-ls-line-indicators--churn)
    ;; Typing inside a marked line keeps its overlay; deleting the last line's match empties
    ;; that line's overlay, which goes with its text (nothing is left for the drawing to
    ;; delete), and typing it again makes one.
    (setq highlight-ls-line-indicators--churn 0)
    (goto-char (point-min))
    (forward-line 1)
    (end-of-line)
    (insert " and more")
    (goto-char (point-max))
    (delete-char -5)
    (highlight-ls-line-indicators--send-changes)
    (highlight-ls-line-indicators--wait-for
     `((0 1 nil ,focus-line) (1 2 ,bug-sign nil) (2 3 ,owned-sign ,focus-line))
     "after edits inside lines")
    (highlight-ls-test-check (= highlight-ls-line-indicators--churn 0)
                             "the edits made or deleted no line overlay: %d" highlight-ls-line-indicators--churn)
    (insert "FOCUS")
    (highlight-ls-line-indicators--send-changes)
    (highlight-ls-line-indicators--wait-for
     `((0 1 nil ,focus-line) (1 2 ,bug-sign nil) (2 3 ,owned-sign ,focus-line) (5 5 nil ,focus-line))
     "after the match is back")

    ;; Payloads drawn directly: an unknown style, a line past the end and a mark without a
    ;; colour draw nothing; a payload without `lines' clears the line indicators.
    (let ((uri (highlight-ls--client-uri highlight-ls--client))
          (version (highlight-ls--client-version highlight-ls--client)))
      (highlight-ls-apply-decorations
       (list :textDocument (list :uri uri :version version)
             :positionEncoding "utf-32"
             :styles (vector (list :rule "x" :gutter (list :color "#ff0000ff"))
                             (list :rule "y" :wholeLine (list :backgroundColor "red")))
             :ranges []
             :lines (vector 0 0 -1  1 1 1  2 7 7  99 0 -1)))
      (highlight-ls-test-check (equal (highlight-ls-line-indicators--drawn)
                                      '((0 1 ((:foreground "#ff0000") "●") nil)))
                               "only the valid entry draws: %S" (highlight-ls-line-indicators--drawn))
      (highlight-ls-apply-decorations
       (list :textDocument (list :uri uri :version version)
             :positionEncoding "utf-32" :styles [] :ranges []))
      (highlight-ls-test-check (null (highlight-ls-line-indicators--drawn))
                               "a payload without lines clears: %S" (highlight-ls-line-indicators--drawn)))
    ;; The request draws the server's state again; redrawing what is drawn changes nothing.
    (highlight-ls-refresh)
    (highlight-ls-line-indicators--wait-for
     `((0 1 nil ,focus-line) (1 2 ,bug-sign nil) (2 3 ,owned-sign ,focus-line) (5 5 nil ,focus-line))
     "after highlight/decorations")
    (setq highlight-ls-line-indicators--churn 0)
    (let ((draws highlight-ls-line-indicators--draws))
      (highlight-ls-refresh)
      (highlight-ls-test-wait (lambda () (> highlight-ls-line-indicators--draws draws))))
    (highlight-ls-test-check (= highlight-ls-line-indicators--churn 0)
                             "drawing the same marks again makes and deletes nothing: %d" highlight-ls-line-indicators--churn)
    (highlight-ls-clear)
    (highlight-ls-test-check (null (highlight-ls-line-indicators--drawn)) "highlight-ls-clear removes the line indicators")
    (highlight-ls-test-shutdown highlight-ls-test-client))
  (highlight-ls-test-exit name))

;;; highlight-ls-line-indicators-test.el ends here
