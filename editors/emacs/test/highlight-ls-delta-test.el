;;; highlight-ls-delta-test.el --- decorations that follow edits, under lsp-mode or Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-delta-test.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot.)
;;
;; Opens a file whose configuration has ranges of several styles, gutter signs and whole
;; lines, with characters outside the BMP, and edits it: typing, inserting, deleting,
;; joining and splitting lines, at the top, in the middle and at the end (whose last line
;; has no newline), a paste and a deletion across lines.  After each edit the buffer must
;; catch up with its version from deltas only, and what it shows (every range and line
;; overlay, with its face and sign) must equal what a fresh whole payload from
;; `highlight/decorations' draws in a fresh buffer with the same text; drawing that payload
;; over the buffer must then make and delete nothing.  Then the chain is broken: deltas on
;; a payload the buffer does not show, for an older version, and a notification dropped;
;; the buffer asks for the whole set once and recovers.  A burst of edits sent without
;; waiting ends drawn as the whole payload draws, however it got there.  Exits 0 when
;; every check passes, 1 otherwise.

;;; Code:

(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)

(defun highlight-ls-delta--search (text &optional count)
  "Move point to the start of the COUNTth occurrence of TEXT from the top."
  (goto-char (point-min))
  (search-forward text nil nil (or count 1))
  (goto-char (match-beginning 0)))

(defconst highlight-ls-delta--text
  (concat
   "TODO first line 👍 BUG here\n"
   "plain words\n"
   "FOCUS the whole line with ABC-12\n"
   "\n"
   "  FIXME 🔥 BUG and NOTE\n"
   "ticket XY-7 and ZZ-99 and a TODO\n"
   "HACK: FOCUS\n"
   "nothing to see\n"
   "BUG BUG BUG\n"
   "last line FOCUS")
  "The document: ranges of several styles, signs, whole lines, no final newline.")

(let* ((binary (highlight-ls-test-binary))
       (client highlight-ls-test-client)
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-delta" t)))
       (sample (expand-file-name "sample.txt" workspace))
       (name (format "emacs-delta-%s" client)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  (highlight-ls-test-load-package workspace)
  (require (if (eq client 'eglot) 'highlight-ls-eglot 'highlight-ls-lsp))
  (setq highlight-ls-command (list binary))
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)
  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{\n"
            "  \"styles\": {\n"
            "    \"bug\": { \"color\": \"#fff\", \"backgroundColor\": \"#d32f2f\", \"gutter\": { \"text\": \"B\" } },\n"
            "    \"focus\": { \"backgroundColor\": \"#f9a82580\", \"wholeLine\": true },\n"
            "    \"todo\": { \"color\": \"#1a1a1a\", \"backgroundColor\": \"#f9a825\", \"gutter\": true }\n"
            "  },\n"
            "  \"rules\": [\n"
            "    { \"name\": \"bug\", \"words\": [\"BUG\"] },\n"
            "    { \"name\": \"focus\", \"words\": [\"FOCUS\"] },\n"
            "    { \"name\": \"ticket\", \"regex\": \"\\\\b[A-Z]{2,}-[0-9]+\\\\b\", \"style\": { \"color\": \"#3b82f6\", \"underline\": true } }\n"
            "  ]\n"
            "}\n"))
  (let ((coding-system-for-write 'utf-8-unix))
    (with-temp-file sample (insert highlight-ls-delta--text)))
  (with-current-buffer (let ((coding-system-for-read 'utf-8-unix)) (find-file-noselect sample))
    (text-mode)
    (highlight-ls-test-connect client workspace)
    (highlight-ls-test-wait (lambda () (and highlight-ls--client (> (length highlight-ls--overlays) 10))))
    (highlight-ls-test-check (highlight-ls-test-settle client) "the server settled after its start")
    (let ((drawn (highlight-ls-test-drawn)))
      (highlight-ls-test-check (and (> (length (car drawn)) 15) (> (length (cadr drawn)) 5))
                               "ranges and line indicators drawn: %d and %d" (length (car drawn)) (length (cadr drawn))))
    (highlight-ls-test-check-as-whole "after opening")

    (dolist (step
             `(("typing TODO at the start of a plain line, a key at a time"
                ,(lambda () (highlight-ls-delta--search "plain")))
               ("a line inserted in the middle"
                ,(lambda () (highlight-ls-delta--search "nothing") (insert "FOCUS BUG-1 and BUG\n")))
               ("a line with a sign deleted"
                ,(lambda () (highlight-ls-delta--search "BUG BUG BUG")
                   (delete-region (point) (progn (forward-line 1) (point)))))
               ("two lines joined (a whole line and a sign)"
                ,(lambda () (highlight-ls-delta--search "HACK: FOCUS") (end-of-line) (delete-char 1)))
               ("a line split inside a match"
                ,(lambda () (highlight-ls-delta--search "FIXME") (forward-char 2) (insert "\n")))
               ("a match made again by joining"
                ,(lambda () (highlight-ls-delta--search "FI\n") (forward-char 2) (delete-char 1)))
               ("a deletion across three lines"
                ,(lambda () (highlight-ls-delta--search "whole line")
                   (delete-region (point) (progn (forward-line 2) (forward-char 4) (point)))))
               ("empty lines inserted at the top"
                ,(lambda () (goto-char (point-min)) (insert "\n\nFOCUS\n")))
               ("the first line deleted"
                ,(lambda () (goto-char (point-min)) (delete-region (point) (progn (forward-line 1) (point)))))
               ("the last line's match deleted (no final newline)"
                ,(lambda () (goto-char (point-max)) (delete-char -5)))
               ("typed back at the end"
                ,(lambda () (goto-char (point-max)) (insert "FOCUS BUG")))
               ("a newline at the end"
                ,(lambda () (goto-char (point-max)) (insert "\n")))
               ("a paste of several lines"
                ,(lambda () (highlight-ls-delta--search "ticket")
                   (insert "BUG one\nFOCUS two 🔥 TODO\n\nQQ-1 BUG\n")))
               ;; An edit of two changes is one change here: lsp-mode sends each at once, and
               ;; a payload for the version between them would come too late to apply.
               ("a word replaced"
                ,(lambda () (highlight-ls-delta--search "FOCUS two")
                   (combine-change-calls (point) (+ (point) 5)
                     (delete-char 5)
                     (insert "focus"))))
               ("everything after the third line deleted"
                ,(lambda () (highlight-ls-test-goto-line 3) (delete-region (point) (point-max))))
               ("the buffer emptied and written again"
                ,(lambda () (combine-change-calls (point-min) (point-max)
                              (delete-region (point-min) (point-max))
                              (insert highlight-ls-delta--text))))))
      (let ((what (car step)))
        (if (string-prefix-p "typing" what)
            (progn
              (funcall (cadr step))
              (dolist (char (string-to-list "TODO "))
                (highlight-ls-test-edit client (format "%s (%c)" what char) (lambda () (insert char)))))
          (highlight-ls-test-edit client what (cadr step)))
        (highlight-ls-test-check-as-whole what)))

    ;; Deltas that do not apply, and a notification lost.
    (highlight-ls-test-chain client)

    ;; A burst: edits sent without waiting for their payloads.  Some may come for a version
    ;; the buffer has left; however it gets there, it ends as the whole payload draws.
    (dotimes (round 12)
      (highlight-ls-test-goto-line (% (* round 5) 9))
      (insert (nth (% round 4) '("BUG " "x\n" "FOCUS\n" "TODO ")))
      (highlight-ls-test-send-changes client))
    (highlight-ls-test-wait #'highlight-ls-test-caught-up-p)
    (highlight-ls-test-check (highlight-ls-test-caught-up-p) "the burst's last version is drawn")
    (highlight-ls-test-check-as-whole "after a burst of edits")
    (highlight-ls-test-shutdown client))
  (highlight-ls-test-exit name))

;;; highlight-ls-delta-test.el ends here
