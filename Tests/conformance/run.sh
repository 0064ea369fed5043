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

# shellcheck source=../python-venv.sh
source "$here/../python-venv.sh"

cd "$here"
# The checker's own test first: a recorded valid session passes and every broken copy is caught.
exec "$venv/bin/python" conformance.py --self-test "$@"
