;;; highlight-ls-find-test.el --- finding matches under lsp-mode or Eglot  -*- lexical-binding: t; -*-

;;; Commentary:

;; HIGHLIGHT_LS=/path/to/highlight-ls HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
;;   emacs --batch -l editors/emacs/test/highlight-ls-find-test.el
;; (HIGHLIGHT_LS_EMACS_CLIENT=eglot for Eglot.)
;;
;; Opens a file whose matches sit behind two- and four-byte characters (a wide emoji among
;; them) and checks: `highlight-ls-next' and `highlight-ls-previous' land on each match,
;; wrap at both ends with a message, take a count (also as a prefix argument), skip nothing
;; and see an edit made just before; `highlight-ls-occur' lists every match at its line and
;; character column, and `next-error' visits each in turn; `highlight-ls-list' lists the
;; workspace's listed matches (a file on disk among them), and with a rule only that rule's,
;; and `next-error' opens the file on disk at the match; `imenu' offers the listed matches
;; at their positions, from the server's outline.

;;; Code:

(require 'imenu)
(load (expand-file-name "highlight-ls-test-support"
                        (file-name-directory (or load-file-name buffer-file-name)))
      nil t)
(highlight-ls-test-require-client)


(defvar highlight-ls-find--messages nil
  "Messages shown while a command ran, latest first.")

(defun highlight-ls-find--run (function &rest arguments)
  "Call FUNCTION with ARGUMENTS, keeping its messages; return (POINT MESSAGE)."
  (setq highlight-ls-find--messages nil)
  (cl-letf (((symbol-function 'message)
             (lambda (format-string &rest message-arguments)
               (when format-string
                 (push (apply #'format format-string message-arguments) highlight-ls-find--messages)))))
    (apply function arguments))
  (list (point) (or (car highlight-ls-find--messages) "")))

(defun highlight-ls-find--list-lines (name)
  "The lines of list buffer NAME after its heading."
  (with-current-buffer name
    (cdr (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t))))

(defun highlight-ls-find--imenu-leaves (index)
  "The (NAME . POSITION) leaves of the imenu INDEX, positions as numbers."
  (mapcan (lambda (entry)
            (cond ((imenu--subalist-p entry) (highlight-ls-find--imenu-leaves (cdr entry)))
                  ((equal (car entry) (car imenu--rescan-item)) nil)
                  (t (let ((where (if (consp (cdr entry)) (cadr entry) (cdr entry))))
                       (list (cons (car entry) (if (markerp where) (marker-position where) where)))))))
          index))

(let* ((binary (highlight-ls-test-binary))
       (name (format "emacs-find-%s" highlight-ls-test-client))
       (workspace (file-name-as-directory (make-temp-file "highlight-ls-find" t)))
       (sample (expand-file-name "notes.txt" workspace))
       (other (expand-file-name "sub/b.txt" workspace)))
  (unless (executable-find binary)
    (highlight-ls-test-check nil "highlight-ls binary not executable: %s (set HIGHLIGHT_LS)" binary)
    (highlight-ls-test-exit name))
  ;; The package goes elsewhere: the workspace list would find the TODOs of its files.
  (highlight-ls-test-load-package (make-temp-file "highlight-ls-package" t))
  (setq highlight-ls-command (list binary))
  (with-temp-file (expand-file-name ".highlights.json" workspace)
    (insert "{ \"rules\": [] }\n"))
  (make-directory (file-name-directory other) t)
  (let ((coding-system-for-write 'utf-8-unix))
    (with-temp-file sample (insert "é TODO 👍 FIXME ça\nplain line\n  NOTE: 🔥 HACK x\nTODO end\n"))
    ;; Never visited: its list entry is read from the disk.
    (with-temp-file other (insert "日本 🔥 FIXME b\n")))
  (let ((buffer (let ((coding-system-for-read 'utf-8-unix)) (find-file-noselect sample))))
    (with-current-buffer buffer
      (text-mode)
      (highlight-ls-test-connect highlight-ls-test-client workspace)
      (highlight-ls-test-wait (lambda () (and highlight-ls--client
                                              (= 5 (length (ignore-errors (highlight-ls-matches)))))))
      (let* ((at (lambda (text &optional nth)
                   (save-excursion
                     (goto-char (point-min))
                     (search-forward text nil nil (or nth 1))
                     (match-beginning 0))))
             (todo (funcall at "TODO"))
             (fixme (funcall at "FIXME"))
             (note (funcall at "NOTE"))
             (hack (funcall at "HACK"))
             (last-todo (funcall at "TODO" 2))
             (expect (lambda (result position message what)
                       (highlight-ls-test-check (equal result (list position message))
                                                "%s: expected %S, got %S" what (list position message) result))))
        (highlight-ls-test-check (equal (mapcar #'cadr (highlight-ls-matches)) (list todo fixme note hack last-todo))
                                 "highlight-ls-matches: every match, at its character position: %S" (highlight-ls-matches))
        ;; Forward, with a count, and around the end.
        (goto-char (point-min))
        (funcall expect (highlight-ls-find--run #'highlight-ls-next) todo "" "next from the start")
        (funcall expect (highlight-ls-find--run #'highlight-ls-next) fixme "" "next behind the emoji")
        (funcall expect (highlight-ls-find--run #'highlight-ls-next 2) hack "" "next with a count of 2")
        (funcall expect (highlight-ls-find--run #'highlight-ls-next) last-todo "" "next to the last match")
        (funcall expect (highlight-ls-find--run #'highlight-ls-next) todo
                 "highlight-ls: wrapped to the first match" "next wraps at the end")
        ;; Backward, around the start, and with a count.
        (funcall expect (highlight-ls-find--run #'highlight-ls-previous) last-todo
                 "highlight-ls: wrapped to the last match" "previous wraps at the start")
        (funcall expect (highlight-ls-find--run #'highlight-ls-previous 3) fixme "" "previous with a count of 3")
        ;; A prefix argument is the count; a negative one goes the other way.
        (goto-char (point-min))
        (funcall expect (let ((current-prefix-arg 2)) (highlight-ls-find--run #'call-interactively #'highlight-ls-next))
                 fixme "" "C-u 2 M-x highlight-ls-next")
        (funcall expect (highlight-ls-find--run #'highlight-ls-next -1) todo "" "a negative count goes back")
        ;; Repeatable with repeat-mode (Emacs 28): n and p.
        (highlight-ls-test-check (and (eq (get 'highlight-ls-next 'repeat-map) 'highlight-ls-repeat-map)
                                      (eq (lookup-key highlight-ls-repeat-map "p") #'highlight-ls-previous))
                                 "highlight-ls-next and -previous repeat with n and p")
        ;; The mark is left where the jump started.
        (highlight-ls-test-check (= (mark t) fixme) "the mark is where the jump started: %S" (mark t))

        ;; An edit just before the jump is seen: the last TODO moves right.
        (goto-char last-todo)
        (insert "ü 🔥 ")
        (setq last-todo (funcall at "TODO" 2))
        (goto-char (1+ hack))
        (funcall expect (highlight-ls-find--run #'highlight-ls-next) last-todo "" "next after an edit")

        ;; The occur buffer: every match at its line and character column.
        (highlight-ls-occur)
        (let ((expected '("notes.txt:1:3: [todo] TODO 👍 FIXME ça"
                          "notes.txt:1:10: [fixme] FIXME ça"
                          "notes.txt:3:3: [note] NOTE: 🔥 HACK x"
                          "notes.txt:3:11: [hack] HACK x"
                          "notes.txt:4:5: [todo] TODO end")))
          (highlight-ls-test-check (equal (highlight-ls-find--list-lines "*highlight-ls occur*") expected)
                                   "the occur buffer:\n  expected %S\n  got      %S"
                                   expected (highlight-ls-find--list-lines "*highlight-ls occur*")))
        (highlight-ls-test-check (with-current-buffer "*highlight-ls occur*" (derived-mode-p 'compilation-mode))
                                 "the occur buffer is in a compilation mode")
        ;; next-error walks through the list from the source buffer.
        (dolist (position (list todo fixme note hack last-todo))
          (set-buffer buffer)
          (next-error)
          (highlight-ls-test-check (and (eq (current-buffer) buffer) (= (point) position))
                                   "next-error visits the match at %d (at %S in %S)" position (point) (current-buffer)))

        ;; The workspace list: the listed rules only, the open file with its edit, the other
        ;; from the disk.
        (set-buffer buffer)
        (highlight-ls-list)
        (let ((expected '("notes.txt:1:3: [todo] TODO 👍 FIXME ça"
                          "notes.txt:1:10: [fixme] FIXME ça"
                          "notes.txt:3:11: [hack] HACK x"
                          "notes.txt:4:5: [todo] TODO end"
                          "sub/b.txt:1:6: [fixme] FIXME b")))
          (highlight-ls-test-check (equal (highlight-ls-find--list-lines "*highlight-ls list*") expected)
                                   "the workspace list:\n  expected %S\n  got      %S"
                                   expected (highlight-ls-find--list-lines "*highlight-ls list*")))
        (set-buffer buffer)
        (highlight-ls-list "fixme")
        (let ((expected '("notes.txt:1:10: [fixme] FIXME ça" "sub/b.txt:1:6: [fixme] FIXME b")))
          (highlight-ls-test-check (equal (highlight-ls-find--list-lines "*highlight-ls list*") expected)
                                   "the list of one rule:\n  expected %S\n  got      %S"
                                   expected (highlight-ls-find--list-lines "*highlight-ls list*")))
        (set-buffer buffer)
        (highlight-ls-list "nosuchrule")
        (highlight-ls-test-check (null (highlight-ls-find--list-lines "*highlight-ls list*"))
                                 "the list of an unknown rule is empty")
        (set-buffer buffer)
        (highlight-ls-list "fixme")
        (set-buffer buffer)
        (next-error)
        (highlight-ls-test-check (and (eq (current-buffer) buffer) (= (point) fixme))
                                 "next-error visits the first fixme of the list")
        (next-error)
        (let ((visited (find-buffer-visiting other)))
          (highlight-ls-test-check (and visited (eq (window-buffer (selected-window)) visited)
                                        (with-current-buffer visited (looking-at "FIXME b")))
                                   "next-error opens the file on disk at its FIXME (%S)" visited))

        ;; imenu, from the server's outline: the listed matches, at their starts.
        (set-buffer buffer)
        (setq imenu--index-alist nil)
        (let* ((leaves (highlight-ls-find--imenu-leaves (imenu--make-index-alist t)))
               (wanted (list (cons "TODO 👍 FIXME ça" todo) (cons "FIXME ça" fixme)
                             (cons "HACK x" hack) (cons "TODO end" last-todo))))
          (dolist (entry wanted)
            (highlight-ls-test-check (member entry leaves) "imenu offers %S; it has %S" entry leaves))
          (highlight-ls-test-check (not (assoc "NOTE: 🔥 HACK x" leaves)) "imenu leaves out the unlisted NOTE"))))
    (highlight-ls-test-shutdown highlight-ls-test-client buffer)
    (highlight-ls-test-exit name)))

;;; highlight-ls-find-test.el ends here
