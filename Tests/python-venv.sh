# Sourced by the Python suites' run.sh (Tests/client, Tests/conformance): makes the virtual
# environment `$venv` from `$here/requirements.txt` with `$python` (installing again only when the
# requirements change), and exports HIGHLIGHT_LS as an absolute path to the server binary
# (default: .build/debug/highlight-ls of this checkout).

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "run.sh: $python is older than Python 3.10" >&2
    exit 2
fi
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
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
