#!/usr/bin/env bash
# Acceptance tests: a real LSP client (pygls) drives the server binary over stdio.
#
# Usage: Tests/client/run.sh [pytest arguments...]
# Environment:
#   HIGHLIGHT_LS               the server binary (default: .build/debug/highlight-ls of this checkout)
#   HIGHLIGHT_LS_SEED          the seed of the "fresh-seed" random-edit tests (default: a new one)
#   HIGHLIGHT_SEED             the fresh seed of the differential workspace tests (default: a new one)
#   HIGHLIGHT_LS_CLIENT_VENV   where the virtual environment lives (default: /tmp/highlight-ls-client-venv)
#   PYTHON                     the Python (>= 3.10) that creates it (default: python3)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
venv="${HIGHLIGHT_LS_CLIENT_VENV:-/tmp/highlight-ls-client-venv}"
python="${PYTHON:-python3}"

# shellcheck source=../python-venv.sh
source "$here/../python-venv.sh"

cd "$here"
exec "$venv/bin/python" -m pytest -q "$@"
