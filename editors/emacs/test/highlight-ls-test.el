;;; highlight-ls-test.el --- batch test of highlight-ls.el against the real server  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls emacs --batch -l editors/emacs/test/highlight-ls-test.el
;;
;; (Without -Q, so that Debian's site-start puts elpa-lsp-mode on the load path; elsewhere
;; the packages are activated with `package-initialize'.)
;;
;; Opens a file in a fresh workspace with a .highlights.json, waits (bounded) for the
;; overlays the server's decorations produce, and checks their positions and faces; then
;; edits the buffer and checks again, and changes `highlight-ls-settings'.  Exits 0 when
;; every check passes, 1 otherwise.

;;; Code:

(unless (require 'lsp-mode nil t)
  (require 'package)
  (package-initialize)
  (require 'lsp-mode))
(require 'cl-lib)

(defconst highlight-ls-test--directory
  (file-name-directory (or load-file-name buffer-file-name)))
(add-to-list 'load-path (expand-file-name ".." highlight-ls-test--directory))

(defvar highlight-ls-test--checks 0)
(defvar highlight-ls-test--failures 0)
(defvar highlight-ls-test--timeout
  (/ (string-to-number (or (getenv "HIGHLIGHT_LS_TEST_TIMEOUT_MS") "15000")) 1000.0))

(defun highlight-ls-test--say (format-string &rest arguments)
  "Print FORMAT-STRING with ARGUMENTS on standard output."
  (princ (concat (apply #'format format-string arguments) "\n")))

(defun highlight-ls-test--check (condition format-string &rest arguments)
  "Count a check; report FORMAT-STRING with ARGUMENTS unless CONDITION holds."
  (cl-incf highlight-ls-test--checks)
  (unless condition
    (cl-incf highlight-ls-test--failures)
    (highlight-ls-test--say "FAIL: %s" (apply #'format format-string arguments)))
  condition)

(defun highlight-ls-test--finish ()
  "Stop the servers and exit with the test's status."
  (ignore-errors
    (dolist (workspace (lsp--session-workspaces (lsp-session)))
      (with-lsp-workspace workspace (lsp--shutdown-workspace))))
  (if (> highlight-ls-test--failures 0)
      (progn
        (highlight-ls-test--say "emacs: FAILED (%d of %d checks failed)"
                                highlight-ls-test--failures highlight-ls-test--checks)
        (kill-emacs 1))
    (highlight-ls-test--say "emacs: ok (%d checks)" highlight-ls-test--checks)
    (kill-emacs 0)))

(defun highlight-ls-test--overlays ()
  "The decoration overlays of the current buffer as (START END FACE), in order."
  (sort (mapcar (lambda (overlay)
                  (list (overlay-start overlay) (overlay-end overlay) (overlay-get overlay 'face)))
                (cl-remove-if-not (lambda (overlay) (overlay-get overlay 'highlight-ls))
                                  (overlays-in (point-min) (point-max))))
        (lambda (a b) (< (car a) (car b)))))

(defun highlight-ls-test--same-face-p (expected actual)
  "Whether face plists EXPECTED and ACTUAL have the same attributes."
  (and (= (length expected) (length actual))
       (cl-loop for (key value) on expected by #'cddr
                always (equal (plist-get actual key) value))))

(defun highlight-ls-test--matches-p (expected)
  "Whether the current overlays are EXPECTED, a list of (START END FACE)."
  (let ((actual (highlight-ls-test--overlays)))
    (and (= (length expected) (length actual))
         (cl-every (lambda (want got)
                     (and (= (nth 0 want) (nth 0 got))
                          (= (nth 1 want) (nth 1 got))
                          (highlight-ls-test--same-face-p (nth 2 want) (nth 2 got))))
                   expected actual))))

(defun highlight-ls-test--wait-for (expected what)
  "Wait (bounded) until the current overlays are EXPECTED; check it, naming WHAT."
  (let ((deadline (+ (float-time) highlight-ls-test--timeout)))
    (while (and (not (highlight-ls-test--matches-p expected))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (highlight-ls-test--check (highlight-ls-test--matches-p expected)
                              "%s: overlays\n  expected %S\n  got      %S"
                              what expected (highlight-ls-test--overlays))))

(defun highlight-ls-test--payload (json)
  "Parse JSON as lsp-mode parses messages (hash tables or plists)."
  (lsp--read-json json))

;;;; The test

(let* ((binary (let ((value (getenv "HIGHLIGHT_LS")))
                 (if (or (null value) (string-empty-p value)) "highlight-ls" value)))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-emacs" t)))
       (sample (expand-file-name "sample.txt" workspace)))
  (unless (executable-find binary)
    (highlight-ls-test--check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test--finish))

  ;; A quiet lsp-mode with a throwaway session that already knows the workspace folder.
  (setq lsp-session-file (expand-file-name ".lsp-session" workspace)
        lsp-auto-guess-root nil
        lsp-restart 'ignore
        lsp-keep-workspace-alive nil
        lsp-enable-file-watchers nil
        lsp-headerline-breadcrumb-enable nil
        lsp-modeline-code-actions-enable nil
        lsp-modeline-diagnostics-enable nil
        lsp-lens-enable nil
        lsp-modeline-workspace-status-enable nil
        lsp-enable-snippet nil
        lsp-warn-no-matched-clients nil
        lsp-enabled-clients '(highlight-ls))

  ;; Loaded as a package manager loads it: through the autoloads, which add the lsp-mode
  ;; part to `lsp-client-packages' for `lsp' to require.
  (let ((autoloads (expand-file-name "highlight-ls-autoloads.el" workspace)))
    (make-directory-autoloads (expand-file-name ".." highlight-ls-test--directory) autoloads)
    (load autoloads nil t))
  (setq highlight-ls-command (list binary))
  ;; A fixed backdrop, so translucent colours blend the same everywhere.
  (set-face-background 'default "#000000")
  (set-frame-parameter nil 'background-mode 'dark)

  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{\n"
            "  \"rules\": [\n"
            "    { \"name\": \"ticket\", \"regex\": \"\\\\b[A-Z]{2,}-[0-9]+\\\\b\", \"style\": { \"color\": \"#3b82f6\", \"underline\": true } },\n"
            "    { \"name\": \"cafe\", \"words\": [\"café\"], \"caseSensitive\": false, \"wholeWord\": true,\n"
            "      \"style\": { \"backgroundColor\": \"#ff000080\", \"italic\": true, \"borderColor\": \"#00ff00\" } },\n"
            "  ],\n"
            "}\n"))
  (let ((coding-system-for-write 'utf-8-unix))
    (with-temp-file sample (insert "TODO 👍 ABC-123 café\n")))
  (lsp-workspace-folders-add workspace)

  (let ((todo '(:foreground "#1a1a1a" :background "#f9a825" :weight bold))
        (ticket '(:foreground "#3b82f6" :underline t))
        ;; #ff000080 over black is #800000; the border is a box.
        (cafe '(:background "#800000" :box (:line-width -1 :color "#00ff00") :slant italic))
        (fixme '(:foreground "#ffffff" :background "#d32f2f" :weight bold))
        (deprecated '(:foreground "#9e9e9e" :strike-through t)))
    (with-current-buffer (let ((coding-system-for-read 'utf-8-unix)) (find-file-noselect sample))
      (text-mode)
      (lsp)
      ;; Positions count characters:  T O D O ␠ 👍 ␠ A B C - 1 2 3 ␠ c a f é
      ;;                              1       5 6  7 8             15 16    20
      (highlight-ls-test--wait-for `((1 5 ,todo) (8 15 ,ticket) (16 20 ,cafe)) "after opening")

      ;; An edit: a new match in front and a second line.
      (goto-char (point-min))
      (insert "FIXME ü ")
      (goto-char (point-max))
      (insert "  DEPRECATED ZZ-9\n")
      (let ((after-edit `((1 6 ,fixme) (9 13 ,todo) (16 23 ,ticket) (24 28 ,cafe)
                          (31 41 ,deprecated) (42 46 ,ticket))))
        (highlight-ls-test--wait-for after-edit "after an edit")

        ;; An edit after the emoji on the same line, where UTF-16 and character columns
        ;; differ: it lands in the right place only if both sides count the same units.
        (goto-char 16)
        (insert "XY-7 ")
        (setq after-edit `((1 6 ,fixme) (9 13 ,todo) (16 20 ,ticket) (21 28 ,ticket) (29 33 ,cafe)
                           (36 46 ,deprecated) (47 51 ,ticket)))
        (highlight-ls-test--wait-for after-edit "after an edit behind the emoji")

        ;; A notification for an older version than the buffer's is ignored.
        (let ((uri (lsp--buffer-uri)))
          (highlight-ls-test--check
           (null (highlight-ls-apply-decorations
                  (highlight-ls-test--payload
                   (format "{\"textDocument\":{\"uri\":%S,\"version\":0},\"positionEncoding\":\"utf-32\",\"styles\":[],\"ranges\":[]}" uri))))
           "a stale notification is ignored")
          (highlight-ls-test--check (highlight-ls-test--matches-p after-edit)
                                    "a stale notification leaves the overlays alone")

          ;; UTF-16 and UTF-8 columns are converted to characters.
          (dolist (case '(("utf-16" 21 28) ("utf-8" 24 31)))
            (highlight-ls-apply-decorations
             (highlight-ls-test--payload
              (format "{\"textDocument\":{\"uri\":%S,\"version\":%d},\"positionEncoding\":%S,\"styles\":[{\"rule\":\"ticket\",\"color\":\"#3b82f6ff\",\"underline\":true}],\"ranges\":[0,%d,%d,0]}"
                      uri lsp--cur-version (nth 0 case) (nth 1 case) (nth 2 case))))
            (highlight-ls-test--check (highlight-ls-test--matches-p `((21 28 ,ticket)))
                                      "%s columns become characters: %S" (nth 0 case) (highlight-ls-test--overlays)))

          ;; The request gives the server's current state back.
          (highlight-ls-refresh)
          (highlight-ls-test--wait-for after-edit "after highlight/decorations")

          ;; An empty ranges clears the buffer.
          (highlight-ls-apply-decorations
           (highlight-ls-test--payload
            (format "{\"textDocument\":{\"uri\":%S,\"version\":%d},\"positionEncoding\":\"utf-32\",\"styles\":[],\"ranges\":[]}"
                    uri lsp--cur-version)))
          (highlight-ls-test--check (null (highlight-ls-test--overlays)) "empty ranges clear the decorations")

          ;; A change of `highlight-ls-settings' reaches the server: a rule added, then gone.
          (goto-char (point-max))
          (insert "zebra\n")
          (setq highlight-ls-settings '(:rules [(:name "zebra" :words ["zebra"] :style (:color "#ff0000"))]))
          (highlight-ls-test--wait-for (append after-edit '((52 57 (:foreground "#ff0000"))))
                                       "after a change of highlight-ls-settings")
          (setq highlight-ls-settings nil)
          (highlight-ls-test--wait-for after-edit "after highlight-ls-settings is emptied")))))
  (highlight-ls-test--finish))

;;; highlight-ls-test.el ends here
