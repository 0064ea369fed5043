#!/usr/bin/env bash
# Protocol conformance: every message the server sends, under several client profiles, checked
# against the LSP 3.17 meta model (lsprotocol) and the capabilities each client announced.
#
# Usage: Tests/conformance/run.sh [conformance.py arguments: --profile NAME, --verbose, --transcripts DIR]
# Environment:
#   HIGHLIGHT_LS                    the server binary (default: .build/debug/highlight-ls of this checkout)
#   HIGHLIGHT_LS_CONFORMANCE_VENV   where the virtual environment lives (default: /tmp/highlight-ls-conformance-venv)
#   PYTHON                          the Python (>= 3.10) that creates it (default: python3)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
venv="${HIGHLIGHT_LS_CONFORMANCE_VENV:-/tmp/highlight-ls-conformance-venv}"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "run.sh: $python is older than Python 3.10" >&2
    exit 2
fi
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# Install again only when requirements.txt changes.
stamp="$venv/.highlight-ls-requirements"
wanted="$(cksum < "$here/requirements.txt")"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$wanted" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    printf '%s\n' "$wanted" > "$stamp"
fi

binary="${HIGHLIGHT_LS:-$here/../../.build/debug/highlight-ls}"
if [ ! -x "$binary" ]; then
    echo "run.sh: no server binary at $binary (run 'swift build --product highlight-ls' or set HIGHLIGHT_LS)" >&2
    exit 2
fi
HIGHLIGHT_LS="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
export HIGHLIGHT_LS
export PYTHONDONTWRITEBYTECODE=1

cd "$here"
# The checker's own test first: a recorded valid session passes and every broken copy is caught.
exec "$venv/bin/python" conformance.py --self-test "$@"
