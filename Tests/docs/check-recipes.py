#!/usr/bin/env python3
"""Runs the editor recipes of README.md and editors/*/README.md as a new user would.

Usage: Tests/docs/check-recipes.py [--binary FILE] [--list] [--keep] [CHECK...]

A recipe is a fenced block between `<!-- recipe: NAME -->` and `<!-- /recipe -->`. Blocks of
one NAME in several READMEs must be the same text. Each CHECK (all of them by default; --list
names them) makes a fresh home folder and installs recipes into it exactly as written:

* `sh` blocks run in bash (`-e -o pipefail`) from the clone, which is `~/src/highlight-ls` in
  that home: a folder of links to this checkout's entries, where only `scripts/install.sh` is a
  stand-in that links the server under test (`--binary`, default $HIGHLIGHT_LS, else
  .build/debug/highlight-ls) into `~/.local/bin` (`scripts/test-release.sh` tests the real one);
* other blocks are the files the README says they are (`~/.vimrc`, `init.lua`, `init.el`,
  `.highlights.json` of a project, `languages.toml`).

Then the real editor starts on `project/a.py` (`# TODO: fix ABC-123` in a comment),
`project/b.md` (`<!-- TODO: fix ABC-123 -->`) and a second Python file, `project/c.py`, with
that HOME, `~/.local/bin` on PATH and no XDG variables, and the check waits (bounded) for what the editor draws: Neovim's extmarks in the
label's colours and `:help highlight-ls`, or its semantic tokens; Vim + ALE's problems; Emacs's
overlays under lsp-mode and under Eglot. Helix is not installed here: its `languages.toml` is
checked against Helix's documented rules (it parses; `[language-server.highlight-ls]` has a
`command`; every `[[language]]` lists highlight-ls after the built-in servers of a sample
built-in file, editors/helix/test/builtin-languages.toml; every server named is declared). The
`severity` check runs every rule of a recipe (and of add-highlight-ls.py) named like a built-in
rule through `highlight-ls list --format json` over a corpus: it must match exactly where the
built-in rule matches, and carry every key `highlight-ls init` shows for it, plus a `severity`.

A check whose editor is not installed is reported as `SKIPPED:`. Prints one line per check and
failure; exits 1 when one failed, 2 for a bad argument, 77 when every check asked for was
skipped, else 0. Uses the standard library only (tomllib: Python 3.11+).

The `self-test` check gives the Helix and severity checks the broken inputs issue 41 found (no
server declared, a built-in server dropped, rules without `scope`, `list`, `languages` or a
`severity`): each must be caught. `markers` checks that every recipe is run by some check.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = [ROOT / "README.md"] + sorted((ROOT / "editors").glob("*/README.md"))
RECIPE = re.compile(r"^<!-- recipe: ([\w.-]+) -->$")
END = "<!-- /recipe -->"
NVIM_07 = "/usr/bin/nvim" if os.access("/usr/bin/nvim", os.X_OK) else shutil.which("nvim")
NVIM_011 = str(ROOT / ".venv-editors" / "bin" / "nvim")
BUILT_IN_RULES = ["fixme", "todo", "hack", "note", "review", "deprecated", "task"]
SEVERITIES = {"error", "warning", "information", "hint"}
SKIPPED = 77  # the exit status when every check asked for was skipped
WAIT_SECONDS = int(os.environ.get("HIGHLIGHT_LS_TEST_TIMEOUT_MS", "15000")) // 1000

PYTHON_FILE = "import logging\n\nlevel = logging.INFO  # TODO: fix ABC-123\n"
MARKDOWN_FILE = "# Notes\n\n<!-- TODO: fix ABC-123 -->\n\n- [ ] a task\n"
# (file, 0-based line, 0-based byte column of TODO); c.py is a second file of a language
# already served.
TODO_AT = [("a.py", 2, 24), ("b.md", 2, 5), ("c.py", 2, 24)]


class Failed(Exception):
    pass


# Recipes -------------------------------------------------------------------------------------

class Recipe:
    def __init__(self, name, path, line, language, text):
        self.name, self.path, self.line, self.language, self.text = name, path, line, language, text

    def where(self):
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def read_recipes():
    """Every recipe by name; problems (a block of one name written two ways, a marker without a
    block) as messages."""
    recipes, problems = {}, []
    for path in READMES:
        lines = path.read_text(encoding="utf-8").split("\n")
        index = 0
        while index < len(lines):
            marker = RECIPE.match(lines[index].strip())
            index += 1
            if not marker:
                continue
            name, start = marker.group(1), index
            fence = re.match(r"^```(\w*)$", lines[index]) if index < len(lines) else None
            if not fence:
                problems.append(f"{path.relative_to(ROOT)}:{start}: recipe {name}: no fenced block right after the marker")
                continue
            end = index + 1
            while end < len(lines) and lines[end] != "```":
                end += 1
            if end + 1 >= len(lines) or lines[end + 1].strip() != END:
                problems.append(f"{path.relative_to(ROOT)}:{start}: recipe {name}: the block is not followed by {END}")
            recipe = Recipe(name, path, start, fence.group(1), "\n".join(lines[index + 1:end]) + "\n")
            known = recipes.get(name)
            if known and known.text != recipe.text:
                problems.append(f"{recipe.where()}: recipe {name} differs from the one at {known.where()}")
            recipes.setdefault(name, recipe)
            index = end + 1
    return recipes, problems


# A fresh home --------------------------------------------------------------------------------

STAND_IN_INSTALL = """#!/bin/sh
# Stand-in for scripts/install.sh in the recipe tests: links the server under test instead of
# building one (scripts/test-release.sh tests the real script).
set -e
prefix="${1:-$HOME/.local}"
mkdir -p "$prefix/bin"
ln -sf "$RECIPE_SERVER" "$prefix/bin/highlight-ls"
echo "installed $prefix/bin/highlight-ls"
"""


class Home:
    """A temporary home folder with the clone at ~/src/highlight-ls and a project to open."""

    def __init__(self, server, keep):
        self.path = pathlib.Path(tempfile.mkdtemp(prefix="highlight-ls-recipes-"))
        self.keep = keep
        self.clone = self.path / "src" / "highlight-ls"
        self.clone.mkdir(parents=True)
        for entry in ROOT.iterdir():
            if entry.name != "scripts":
                (self.clone / entry.name).symlink_to(entry)
        (self.clone / "scripts").mkdir()
        for entry in (ROOT / "scripts").iterdir():
            if entry.name != "install.sh":
                (self.clone / "scripts" / entry.name).symlink_to(entry)
        install = self.clone / "scripts" / "install.sh"
        install.write_text(STAND_IN_INSTALL)
        install.chmod(0o755)
        self.project = self.path / "work" / "project"
        self.project.mkdir(parents=True)
        (self.project / "a.py").write_text(PYTHON_FILE)
        (self.project / "b.md").write_text(MARKDOWN_FILE)
        (self.project / "c.py").write_text(PYTHON_FILE)
        self.env = clean_environment(self.path, server)

    def expand(self, path):
        return self.path / path[2:] if path.startswith("~/") else pathlib.Path(path)

    def write(self, path, text, append=True):
        target = self.expand(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "a" if append else "w", encoding="utf-8") as file:
            file.write(text)

    def sh(self, recipe):
        """Runs an `sh` recipe from the clone, as it is written."""
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", recipe.text], cwd=self.clone, env=self.env,
                                capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise Failed(f"recipe {recipe.name} ({recipe.where()}) exited {result.returncode}:\n"
                         f"{result.stdout}{result.stderr}")

    def close(self):
        if self.keep:
            print(f"  kept {self.path}")
        else:
            shutil.rmtree(self.path, ignore_errors=True)


def clean_environment(home, server):
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("XDG_", "NVIM", "VIM", "MYVIMRC", "EMACS", "HIGHLIGHT_LS"))}
    # No other highlight-ls on PATH (unless in a folder the recipes need for their tools): the
    # recipe's install must be what the editor finds.
    def other_server(entry):
        return (os.access(os.path.join(entry, "highlight-ls"), os.X_OK)
                and not any(os.access(os.path.join(entry, tool), os.X_OK) for tool in ("bash", "env", "python3")))
    path = [entry for entry in os.environ.get("PATH", "").split(":") if entry and not other_server(entry)]
    env.update(HOME=str(home), PATH=":".join([str(home / ".local" / "bin")] + path),
               RECIPE_SERVER=server, TERM="dumb", LC_ALL="C.UTF-8")
    return env


# Editors -------------------------------------------------------------------------------------

NVIM_DRIVER = r"""
-- Opens the project's files in the Neovim the recipe set up and writes what it sees as JSON.
local results, mode = {}, os.getenv("RECIPE_MODE")
local function check(ok, what) results[#results + 1] = { ok = ok and true or false, what = what } end
local function finish()
  local file = io.open(os.getenv("RECIPE_RESULT"), "w")
  file:write(vim.fn.json_encode(results))
  file:close()
  vim.cmd("qall!")
end
local function attributes(name)
  if vim.api.nvim_get_hl then
    local hl = vim.api.nvim_get_hl(0, { name = name, link = false })
    return { fg = hl.fg, bg = hl.bg, bold = hl.bold }
  end
  local hl = vim.api.nvim_get_hl_by_name(name, true)
  return { fg = hl.foreground, bg = hl.background, bold = hl.bold }
end
local ok, problem = pcall(function()
  local wait = tonumber(os.getenv("RECIPE_WAIT")) * 1000
  for _, case in ipairs(vim.fn.json_decode(os.getenv("RECIPE_FILES"))) do
    local name, row, col = case[1], case[2], case[3]
    vim.cmd("edit " .. vim.fn.fnameescape(name))
    local buf = vim.api.nvim_get_current_buf()
    if mode == "plugin" then
      local namespace = vim.api.nvim_get_namespaces()["highlight-ls"]
      local group
      vim.wait(wait, function()
        namespace = namespace or vim.api.nvim_get_namespaces()["highlight-ls"]
        if not namespace then return false end
        for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(buf, namespace, { row, 0 }, { row, -1 }, { details = true })) do
          if mark[3] == col and mark[4].end_col == col + 4 then
            group = mark[4].hl_group
            return true
          end
        end
        return false
      end, 50)
      check(group ~= nil, name .. ": TODO has an extmark of highlight-ls (" .. tostring(group) .. ")")
      if group then
        local hl = attributes(group)
        check(hl.bg == 0xf9a825 and hl.fg == 0x1a1a1a and hl.bold == true,
          name .. ": " .. group .. " is the amber label as the server styles it: " .. vim.inspect(hl))
      end
    else
      local found
      vim.wait(wait, function()
        for _, token in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}) do
          if token.type == "todo" then
            found = token
            return true
          end
        end
        return false
      end, 50)
      check(found ~= nil, name .. ": TODO is a semantic token of type todo")
    end
  end
  if mode == "plugin" then
    local opened, problem = pcall(vim.cmd, "help highlight-ls")
    check(opened and vim.bo.buftype == "help" and vim.api.nvim_buf_get_name(0):match("highlight%-ls%.txt$") ~= nil,
      ":help highlight-ls opens the plugin's help (" .. tostring(problem) .. ")")
  end
end)
check(ok, "the driver ran (" .. tostring(problem) .. ")")
finish()
"""

EMACS_DRIVER = r"""
;;; Opens the project's files in the Emacs the recipe set up and writes what it sees as JSON.
(require 'cl-lib)
(require 'json)
(defvar recipe-results nil)
(defun recipe-check (ok what) (push (list (cons 'ok (if ok t :json-false)) (cons 'what what)) recipe-results) ok)
(defun recipe-idle ()
  "Run the idle timers: batch Emacs is never idle (lsp-deferred starts from one)."
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list) (timer-event-handler timer))))
(defun recipe-wait (predicate)
  (let ((deadline (+ (float-time) (string-to-number (getenv "RECIPE_WAIT")))) (value nil))
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (recipe-idle)
      (accept-process-output nil 0.05))
    value))
(defun recipe-face-at (position)
  (cl-loop for overlay in (overlays-at position)
           when (overlay-get overlay 'highlight-ls)
           return (or (overlay-get overlay 'face) (get (overlay-get overlay 'category) 'face))))
(condition-case failure
    (let ((project (getenv "RECIPE_PROJECT"))
          (client (getenv "RECIPE_CLIENT")))
      (when (equal client "lsp-mode")
        ;; lsp-mode asks once which folder is the project; this is the documented answer.
        (require 'lsp-mode)
        (lsp-workspace-folders-add project))
      (recipe-check (eq (highlight-ls--chosen-client) (intern client))
                    (format "highlight-ls-client auto chooses %s" client))
      (dolist (case (append (json-read-from-string (getenv "RECIPE_FILES")) nil))
        (let ((name (aref case 0)) (line (aref case 1)) (column (aref case 2)))
          (find-file (expand-file-name name project))
          (recipe-idle)
          (let* ((position (save-excursion (goto-char (point-min)) (forward-line line) (+ (point) column)))
                 (face (recipe-wait (lambda () (recipe-face-at position)))))
            (recipe-check face (format "%s (%s): TODO has an overlay of highlight-ls: %S" name major-mode face))
            (when face
              (recipe-check (and (equal (plist-get face :background) "#f9a825")
                                 (equal (plist-get face :foreground) "#1a1a1a"))
                            (format "%s: the overlay is the amber label: %S" name face)))
            (recipe-check (eq highlight-ls--client (intern client))
                          (format "%s: connected through %s (%S)" name client highlight-ls--client))))))
  (error (recipe-check nil (format "the driver ran: %S" failure))))
(with-temp-file (getenv "RECIPE_RESULT") (insert (json-encode (nreverse recipe-results))))
(kill-emacs 0)
"""

VIM_DRIVER = r"""
" Opens the project's files in the Vim the recipe set up and writes what ALE lists as JSON.
let s:results = []
let s:wait = str2nr($RECIPE_WAIT) * 1000
for [s:name, s:line, s:column] in json_decode($RECIPE_FILES)
  execute 'edit ' . fnameescape(s:name)
  let s:waited = 0
  while s:waited < s:wait && empty(filter(copy(ale#engine#GetLoclist(bufnr(''))), 'v:val.code ==# "todo"'))
    sleep 50m
    let s:waited += 50
  endwhile
  let s:todo = filter(copy(ale#engine#GetLoclist(bufnr(''))), 'v:val.code ==# "todo"')
  call add(s:results, {'ok': !empty(s:todo) && s:todo[0].lnum == s:line + 1 && s:todo[0].col == s:column + 1,
        \ 'what': s:name . ' (' . &filetype . '): ALE lists the TODO at its line and column: ' . string(s:todo)})
  let s:ticket = filter(copy(ale#engine#GetLoclist(bufnr(''))), 'v:val.code ==# "ticket"')
  call add(s:results, {'ok': len(s:ticket) == 1, 'what': s:name . ': ALE lists the ticket: ' . string(s:ticket)})
endfor
call writefile([json_encode(s:results)], $RECIPE_RESULT)
qall!
"""


def run_editor(home, command, driver_name, driver_text, extra_env, files=TODO_AT):
    """Runs an editor with a driver script and returns its list of (ok, what)."""
    driver = home.path / driver_name
    driver.write_text(driver_text)
    result_path = home.path / "result.json"
    if result_path.exists():
        result_path.unlink()
    env = dict(home.env, RECIPE_RESULT=str(result_path), RECIPE_WAIT=str(WAIT_SECONDS),
               RECIPE_FILES=json.dumps(files), RECIPE_PROJECT=str(home.project), **extra_env)
    argv = [str(part).replace("{driver}", str(driver)) for part in command]
    try:
        run = subprocess.run(argv, cwd=home.project, env=env, capture_output=True, text=True,
                             timeout=WAIT_SECONDS * (len(files) + 2) + 30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as timeout:
        raise Failed(f"{argv[0]} did not finish: {timeout}")
    if not result_path.exists():
        raise Failed(f"{' '.join(argv)} wrote no result (exit {run.returncode}):\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
    return [(bool(entry["ok"]), entry["what"]) for entry in json.loads(result_path.read_text())]


# Checks --------------------------------------------------------------------------------------

def neovim(binary, recipe, mode="plugin"):
    def check(home, recipes):
        tags = ROOT / "editors" / "neovim" / "doc" / "tags"
        tags_before = tags.exists()
        if recipes[recipe].language == "sh":
            home.sh(recipes[recipe])
        else:
            # A snippet for init.lua, with the server on PATH as scripts/install.sh puts it.
            home.sh(Recipe("install", ROOT / "README.md", 0, "sh", "scripts/install.sh\n"))
            home.write("~/.config/nvim/init.lua", recipes[recipe].text)
        results = run_editor(home, [binary, "--headless", "-c", "luafile {driver}"], "driver.lua", NVIM_DRIVER,
                             {"RECIPE_MODE": mode})
        if mode == "plugin" and not tags_before:
            results.append((not tags.exists(), "no doc/tags written into the clone (editors/neovim/doc/tags)"))
        return results
    return check


def emacs(client, recipe_names):
    def check(home, recipes):
        if all(recipes[name].language != "sh" for name in recipe_names):
            # The server on PATH, as the README asks.
            home.sh(Recipe("install", ROOT / "README.md", 0, "sh", "scripts/install.sh\n"))
        for name in recipe_names:
            recipe = recipes[name]
            if recipe.language == "sh":
                home.sh(recipe)
            else:
                home.write("~/.emacs.d/init.el", recipe.text)
        init = home.path / ".emacs.d" / "init.el"
        if not init.exists():
            raise Failed("the recipes wrote no ~/.emacs.d/init.el")
        # Batch Emacs neither activates the installed packages nor reads the init file: do both,
        # as Emacs does when it starts. A user of Eglot has no lsp-mode: Debian's is left
        # inactive and taken off the load path that site-start gave it.
        startup = "(package-activate-all)"
        if client == "eglot":
            startup = ("(progn (setq package-load-list '((lsp-mode nil) all)) (package-activate-all)"
                       " (setq load-path (delq nil (mapcar (lambda (d) (unless (string-match-p \"/lsp-mode\" d) d)) load-path))))")
        command = ["emacs", "--batch", "--eval", startup, "-l", str(init), "-l", "{driver}"]
        return run_editor(home, command, "driver.el", EMACS_DRIVER, {"RECIPE_CLIENT": client})
    return check


def vim_ale(home, recipes):
    home.sh(Recipe("install", ROOT / "README.md", 0, "sh", "scripts/install.sh\n"))
    home.write("~/.vimrc", recipes["vim-vimrc"].text)
    home.write(str(home.project / ".highlights.json"), recipes["vim-highlights-json"].text, append=False)
    # Ex mode (-es) reads no vimrc unless -u names it: name the one a plain `vim` would read.
    return run_editor(home, ["vim", "-Nu", str(home.path / ".vimrc"), "-i", "NONE", "-es", "-c", "source {driver}"],
                      "driver.vim", VIM_DRIVER, {})


def load_toml(path):
    import tomllib
    with open(path, "rb") as file:
        return tomllib.load(file)


HELIX_SERVER_KEYS = {"command", "args", "config", "timeout", "environment", "required-root-patterns"}
HELIX_ENTRY_KEYS = {"name", "only-features", "except-features"}
HELIX_TOP_KEYS = {"use-grammars", "language-server", "language", "grammar"}


def helix_problems(user, builtin, every_language):
    """What Helix would refuse or ignore in the user's languages.toml, after its documented rules."""
    problems = []
    for key in user:
        if key not in HELIX_TOP_KEYS:
            problems.append(f"unknown top-level key {key}")
    servers = user.get("language-server", {})
    ours = servers.get("highlight-ls")
    if not isinstance(ours, dict) or not isinstance(ours.get("command"), str):
        problems.append("no [language-server.highlight-ls] with a command: Helix says "
                        "\"Language server 'highlight-ls' not defined\"")
    else:
        problems += [f"[language-server.highlight-ls] has an unknown key {key}" for key in ours if key not in HELIX_SERVER_KEYS]
    declared = set(builtin.get("language-server", {})) | set(servers)
    builtin_servers = {language["name"]: language.get("language-servers", []) for language in builtin.get("language", [])}
    named = {}
    for language in user.get("language", []):
        name = language.get("name")
        if name not in builtin_servers:
            problems.append(f"[[language]] {name!r} is not a built-in language")
            continue
        listed = language.get("language-servers")
        if listed is None:
            continue
        named[name] = listed
        for entry in listed:
            server = entry.get("name") if isinstance(entry, dict) else entry
            if isinstance(entry, dict) and set(entry) - HELIX_ENTRY_KEYS:
                problems.append(f"{name}: unknown keys in {entry}")
            if server not in declared:
                problems.append(f"{name}: language server {server!r} not defined")
        if listed[-1:] != ["highlight-ls"]:
            problems.append(f"{name}: language-servers {listed} does not end with highlight-ls")
        elif listed[:-1] != builtin_servers[name]:
            problems.append(f"{name}: language-servers {listed} does not keep the built-in {builtin_servers[name]}")
    if every_language:
        missing = sorted(set(builtin_servers) - set(named))
        if missing:
            problems.append(f"languages without highlight-ls: {missing}")
    return problems


def helix(home, recipes):
    """The recipes that write languages.toml, checked as Helix would read the result."""
    results = []
    fixture = ROOT / "editors" / "helix" / "test" / "builtin-languages.toml"
    builtin = load_toml(fixture)
    home.write("~/src/helix/languages.toml", fixture.read_text())
    target = home.path / ".config" / "helix" / "languages.toml"
    for name in ("install-helix", "helix-install"):
        shutil.rmtree(home.path / ".config" / "helix", ignore_errors=True)  # a new user has no folder
        for run in ("", " run twice"):
            home.sh(recipes[name])
            problems = helix_problems(load_toml(target), builtin, every_language=True)
            results.append((not problems, f"{name}{run}: ~/.config/helix/languages.toml is valid for Helix"
                            + "".join(f"\n    {problem}" for problem in problems)))
    for names in (("helix-server", "helix-languages"), ("readme-helix",)):
        text = "\n".join(recipes[name].text for name in names)
        import tomllib
        try:
            problems = helix_problems(tomllib.loads(text), builtin, every_language=False)
        except tomllib.TOMLDecodeError as error:
            problems = [f"not TOML: {error}"]
        results.append((not problems, f"{' + '.join(names)}: valid for Helix"
                        + "".join(f"\n    {problem}" for problem in problems)))
    return results


# The rules given a severity must be the built-in rules exactly.

CORPUS = {
    "code.py": "import logging\n# FIXME BUG XXX TODO HACK NOTE INFO REVIEW OPTIMIZE DEPRECATED\n"
               "level = logging.INFO  # TODO: fix\nTODO = 'FIXME in a string'\n"
               "def f():\n    \"\"\"HACK in a docstring; NOTE too.\"\"\"\n    - [ ] not a task\n",
    "notes.md": "# TODO FIXME BUG XXX HACK NOTE INFO REVIEW OPTIMIZE DEPRECATED\n\n<!-- TODO: later -->\n\n"
                "- [ ] a task\n  * [ ] nested\n1. [ ] numbered\n- [x] done\n`FIXME` in code\n",
    "plain.txt": "TODO FIXME BUG XXX HACK NOTE INFO REVIEW OPTIMIZE DEPRECATED\n- [ ] not markdown\nTODOS NOTED\n",
    "app.js": "// TODO: fix\nconst s = \"TODO in a string\"; /* DEPRECATED */ let XXX = 1;\n",
    "lib.c": "/* FIXME: leak */\nint BUG = 0; // REVIEW\n#define INFO \"OPTIMIZE\"\n",
}


def matches(binary, corpus, config):
    result = subprocess.run([binary, "list", "--format", "json", "--config", str(config), "."], cwd=corpus,
                            capture_output=True, text=True, timeout=60)
    if result.returncode not in (0, 1):
        raise Failed(f"highlight-ls list --config {config.name} exited {result.returncode}: {result.stderr}")
    return sorted((match["path"], match["line"], match["column"], match["rule"], match["text"])
                  for match in map(json.loads, result.stdout.splitlines()))


def init_rules(binary):
    """The built-in rules as `highlight-ls init` shows them (commented out)."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([binary, "init", folder], capture_output=True, check=True, timeout=30)
        text = (pathlib.Path(folder) / ".highlights.json").read_text()
    rules = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("// {") and line.endswith("},"):
            rule = json.loads(line[3:-1])
            if rule.get("name") in BUILT_IN_RULES:
                rules[rule["name"]] = rule
    return rules


def jsonc(text):
    return json.loads(re.sub(r",(\s*[\]}])", r"\1", re.sub(r"^\s*//.*$", "", text, flags=re.M)))


def severity_rules(binary):
    def check(home, recipes):
        import tomllib
        sources = []
        for name, recipe in sorted(recipes.items()):
            if recipe.language == "jsonc":
                sources.append((name, jsonc(recipe.text).get("rules", [])))
            elif recipe.language == "toml":
                document = tomllib.loads(recipe.text)
                config = document.get("language-server", {}).get("highlight-ls", {}).get("config", {})
                sources.append((name, config.get("highlight", {}).get("rules", [])))
        script = subprocess.run([sys.executable, str(ROOT / "editors" / "helix" / "add-highlight-ls.py"),
                                 str(ROOT / "editors" / "helix" / "test" / "builtin-languages.toml"), "rust"],
                                capture_output=True, text=True, check=True)
        sources.append(("add-highlight-ls.py", tomllib.loads(script.stdout)["language-server"]["highlight-ls"]
                        ["config"]["highlight"]["rules"]))
        built_in = BuiltIn(binary, home)
        results = built_in.ready()
        for source, rules in sources:
            for rule in rules:
                if rule.get("name") in BUILT_IN_RULES:
                    results += built_in.compare(f"{source}: rule {rule['name']}", rule)
        return results
    return check


class BuiltIn:
    """The built-in rules, as `highlight-ls init` shows them and as they match over CORPUS."""

    def __init__(self, binary, home):
        self.binary, self.home = binary, home
        self.shown = init_rules(binary)
        self.corpus = home.path / "corpus"
        self.corpus.mkdir(exist_ok=True)
        for path, text in CORPUS.items():
            (self.corpus / path).write_text(text)
        baseline = home.path / "baseline.json"
        baseline.write_text("{}")
        self.baseline = matches(binary, self.corpus, baseline)
        self.count = 0

    def ready(self):
        return [(len(self.shown) == len(BUILT_IN_RULES),
                 f"highlight-ls init shows the {len(BUILT_IN_RULES)} built-in rules: {sorted(self.shown)}"),
                (all(any(match[3] == name for match in self.baseline) for name in BUILT_IN_RULES),
                 "the corpus has matches of every built-in rule")]

    def compare(self, label, rule):
        """Checks that RULE is its built-in namesake plus a severity."""
        name = rule.get("name")
        results = [(rule.get("severity") in SEVERITIES, f"{label} has a severity ({rule.get('severity')})")]
        differing = {key: (value, rule.get(key)) for key, value in self.shown.get(name, {}).items() if rule.get(key) != value}
        results.append((not differing, f"{label} has every key highlight-ls init shows, unchanged: {differing or 'yes'}"))
        self.count += 1
        config = self.home.path / f"rule-{self.count}.json"
        config.write_text(json.dumps({"rules": [rule]}))
        found = matches(self.binary, self.corpus, config)
        extra, missing = sorted(set(found) - set(self.baseline)), sorted(set(self.baseline) - set(found))
        results.append((not extra and not missing,
                        f"{label} matches exactly where the built-in {name} does"
                        + (f"\n    more: {extra}" if extra else "") + (f"\n    fewer: {missing}" if missing else "")))
        return results


def self_test(binary):
    """The checks catch what issue 41 found: each broken input must fail."""
    def check(home, recipes):
        import tomllib
        builtin = load_toml(ROOT / "editors" / "helix" / "test" / "builtin-languages.toml")
        results = []
        broken_helix = {
            "languages without the server": '[[language]]\nname = "rust"\nlanguage-servers = ["rust-analyzer", "highlight-ls"]\n',
            "a built-in server dropped": '[language-server.highlight-ls]\ncommand = "highlight-ls"\n'
                                         '[[language]]\nname = "markdown"\nlanguage-servers = ["marksman", "highlight-ls"]\n',
            "a server never declared": '[language-server.highlight-ls]\ncommand = "highlight-ls"\n'
                                       '[[language]]\nname = "rust"\nlanguage-servers = ["rust-analyzer", "rust-lsp", "highlight-ls"]\n',
        }
        for label, text in broken_helix.items():
            problems = helix_problems(tomllib.loads(text), builtin, every_language=False)
            results.append((bool(problems), f"helix: {label} is caught: {problems}"))
        built_in = BuiltIn(binary, home)
        broken_rules = {
            "no scope (matches in code and strings)":
                {"name": "todo", "words": ["TODO"], "wholeWord": True, "style": "todo", "list": True, "severity": "information"},
            "no list": {"name": "fixme", "words": ["FIXME", "BUG", "XXX"], "wholeWord": True, "scope": "comments",
                        "style": "fixme", "severity": "warning"},
            "no languages (tasks outside Markdown)":
                {"name": "task", "regex": "^[ \\t]*(?:[-*+]|[0-9]{1,9}[.)])[ \\t]+\\[ \\]", "style": "task", "list": True,
                 "severity": "information"},
            "no severity": {"name": "hack", "words": ["HACK"], "wholeWord": True, "scope": "comments", "style": "hack", "list": True},
        }
        for label, rule in broken_rules.items():
            caught = [what.split("\n")[0] for ok, what in built_in.compare(label, rule) if not ok]
            results.append((bool(caught), f"severity: a rule with {label} is caught: {caught}"))
        return results
    return check


def every_recipe_is_checked(home, recipes):
    unused = sorted(set(recipes) - USED)
    return [(not unused, f"every recipe is run by a check (not: {unused})" if unused else "every recipe is run by a check")]


# The checks: name -> (what must be installed, recipes used, function).
CHECKS = {}
USED = set()


def define(name, needs, uses, function):
    CHECKS[name] = (needs, uses, function)
    USED.update(uses)


def tool(name):
    return lambda: shutil.which(name) is not None or f"{name} not installed"


def executable(path, label):
    return lambda: (path is not None and os.access(path, os.X_OK)) or f"{label} not installed"


def emacs_has(feature):
    def needs():
        if not shutil.which("emacs"):
            return "emacs not installed"
        probe = subprocess.run(["emacs", "--batch", "--eval", f"(unless (require '{feature} nil t) (kill-emacs 1))"],
                               capture_output=True, timeout=60)
        return probe.returncode == 0 or f"{feature} not installed"
    return needs


def vim_has_ale():
    if not shutil.which("vim"):
        return "vim not installed"
    probe = subprocess.run(["vim", "-Nu", "NONE", "-i", "NONE", "-es", "-c", "packadd ale",
                            "-c", "if !exists('g:loaded_ale') | cquit 1 | endif", "-c", "qall!"], capture_output=True, timeout=60)
    return probe.returncode == 0 or "ALE (vim-ale) not installed"


def define_checks(binary):
    define("self-test", lambda: True, [], self_test(binary))
    define("markers", lambda: True, [], every_recipe_is_checked)
    define("severity", lambda: True, ["helix-highlights-json", "vim-highlights-json", "helix-server", "readme-helix"],
           severity_rules(binary))
    define("helix", lambda: True, ["install-helix", "helix-install", "helix-server", "helix-languages", "readme-helix"], helix)
    define("neovim-0.11", executable(NVIM_011, "nvim 0.11 (.venv-editors/bin/nvim)"), ["install-neovim"],
           neovim(NVIM_011, "install-neovim"))
    define("neovim-0.7", executable(NVIM_07, "nvim 0.7 (/usr/bin/nvim)"), ["install-neovim-0.7"],
           neovim(NVIM_07, "install-neovim-0.7"))
    define("neovim-0.11-lsp-start", executable(NVIM_011, "nvim 0.11 (.venv-editors/bin/nvim)"), ["readme-neovim-lsp-start"],
           neovim(NVIM_011, "readme-neovim-lsp-start", mode="semantic"))
    define("vim-ale", vim_has_ale, ["vim-vimrc", "vim-highlights-json"], vim_ale)
    define("emacs-eglot", emacs_has("eglot"), ["install-emacs"], emacs("eglot", ["install-emacs"]))
    define("emacs-lsp-mode", emacs_has("lsp-mode"), ["install-emacs"], emacs("lsp-mode", ["install-emacs"]))
    define("emacs-readme-eglot", emacs_has("eglot"), ["emacs-load", "emacs-turn-on"],
           emacs("eglot", ["emacs-load", "emacs-turn-on"]))
    define("emacs-readme-lsp-mode", emacs_has("lsp-mode"), ["emacs-load", "emacs-turn-on"],
           emacs("lsp-mode", ["emacs-load", "emacs-turn-on"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checks", nargs="*", help="the checks to run (default: all)")
    parser.add_argument("--binary", default=os.environ.get("HIGHLIGHT_LS") or str(ROOT / ".build" / "debug" / "highlight-ls"))
    parser.add_argument("--list", action="store_true", help="name the checks and the recipes each runs")
    parser.add_argument("--keep", action="store_true", help="keep the home folders")
    options = parser.parse_args()
    binary = shutil.which(options.binary) or options.binary
    binary = str(pathlib.Path(binary).resolve())
    define_checks(binary)
    if options.list:
        for name, (_, uses, _) in CHECKS.items():
            print(f"{name}: {', '.join(uses) or '-'}")
        return 0
    unknown = [name for name in options.checks if name not in CHECKS]
    if unknown:
        print(f"check-recipes: unknown checks {unknown}; --list names them", file=sys.stderr)
        return 2
    if not os.access(binary, os.X_OK):
        print(f"check-recipes: {binary} is not an executable (--binary or HIGHLIGHT_LS)", file=sys.stderr)
        return 2
    recipes, problems = read_recipes()
    failures, ran = len(problems), 0
    for problem in problems:
        print(f"FAIL: {problem}")
    for name in options.checks or list(CHECKS):
        needs, uses, function = CHECKS[name]
        ready = needs()
        if ready is not True:
            print(f"SKIPPED: {name}: {ready}")
            continue
        missing = [recipe for recipe in uses if recipe not in recipes]
        if missing:
            print(f"FAIL: {name}: no recipe named {missing} in the READMEs")
            failures += 1
            continue
        started = time.monotonic()
        ran += 1
        home = Home(binary, options.keep)
        try:
            results = function(home, recipes)
        except (Failed, subprocess.SubprocessError, OSError) as error:
            results = [(False, str(error))]
        finally:
            home.close()
        failed = [what for ok, what in results if not ok]
        failures += len(failed)
        for what in failed:
            print(f"FAIL: {name}: {what}")
        print(f"{name}: {'FAILED' if failed else 'ok'} ({len(results) - len(failed)} of {len(results)} checks, "
              f"{time.monotonic() - started:.1f} s; recipes {', '.join(uses) or '-'})")
    if failures:
        return 1
    return 0 if ran else SKIPPED


if __name__ == "__main__":
    sys.exit(main())
