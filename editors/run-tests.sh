#!/usr/bin/env bash
# Runs the editor integration tests against a highlight-ls binary built beforehand:
#   Neovim  headless end-to-end test (editors/neovim/test/decorations_test.lua)
#   Emacs   batch end-to-end test with lsp-mode (editors/emacs/test/highlight-ls-test.el)
#   VS Code node's test runner: the extension against recording stand-ins of vscode and its client
#           library, and its manifest against the schema and the server (editors/vscode/test/)
#
#   HIGHLIGHT_LS=/path/to/highlight-ls editors/run-tests.sh
#
# The binary comes from $HIGHLIGHT_LS (default: highlight-ls on PATH); this script builds
# nothing. A test whose editor is not installed is skipped with a "SKIPPED:" line. Exits 1 when
# any test that ran failed. The last line is "N passed, N failed, N skipped".
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
  if [ "$status" -eq 0 ]; then
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

# Neovim 0.7 or later.
if ! command -v nvim >/dev/null 2>&1; then
  skip "nvim not installed"
elif ! nvim --headless -u NONE -i NONE -c 'if has("nvim-0.7") | qall! | else | cquit 1 | endif' >/dev/null 2>&1; then
  skip "nvim 0.7 or later not installed"
else
  run "neovim" nvim --headless -u NONE -i NONE --cmd 'set rtp^=editors/neovim' \
    -c 'luafile editors/neovim/test/decorations_test.lua'
fi

# Emacs with lsp-mode (Debian: elpa-lsp-mode). No -Q, so that site-start finds the package.
if ! command -v emacs >/dev/null 2>&1; then
  skip "emacs not installed"
elif ! emacs --batch --eval "(unless (require 'lsp-mode nil t) (require 'package) (package-initialize) (require 'lsp-mode))" >/dev/null 2>&1; then
  skip "lsp-mode (elpa-lsp-mode) not installed"
else
  run "emacs" emacs --batch -l editors/emacs/test/highlight-ls-test.el
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
