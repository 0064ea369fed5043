#!/usr/bin/env python3
"""Time to `initialize`'s answer with costly configurations, for each binary given, side by side.

Each case is a workspace folder whose `.highlights.json` holds many regex rules that are cheap to
write and costly to compile: 200 rules `\\pL{80}|zN` (8.6 KB) and 20,000 rules `\\pL{20}`.

Usage: scripts/bench-initialize.py BINARY [BINARY ...]
"""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsp_wire import framed, read_message

CASES = {
    "200 rules \\pL{80}|zN": [{"name": f"r{n}", "regex": f"\\pL{{80}}|z{n}"} for n in range(200)],
    "20,000 rules \\pL{20}": [{"name": f"r{n}", "regex": "\\pL{20}"} for n in range(20_000)],
}


def time_initialize(binary, folder):
    server = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    server.stdin.write(framed({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"rootUri": folder.as_uri(), "capabilities": {}}}))
    server.stdin.flush()
    while "result" not in read_message(server.stdout):
        pass
    elapsed = time.monotonic() - started
    server.kill()
    server.wait()
    return elapsed


def main():
    binaries = sys.argv[1:]
    if not binaries:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="highlight-ls-initialize-") as root:
        for name, rules in CASES.items():
            folder = Path(root) / str(abs(hash(name)))
            folder.mkdir()
            (folder / ".highlights.json").write_text(json.dumps({"rules": rules}))
            figures = "  ".join(f"{binary}: {time_initialize(binary, folder):.2f} s" for binary in binaries)
            print(f"{name}: {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
