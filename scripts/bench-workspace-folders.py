#!/usr/bin/env python3
"""Adding many workspace folders at once: time from one `didChangeWorkspaceFolders` that adds N
folders to the answer of the request sent right after it (the folders need not exist).

Usage: scripts/bench-workspace-folders.py BINARY N
"""
import subprocess
import sys
import tempfile
import time

from lsp_wire import framed, read_message


def answer(server, request_id):
    while True:
        message = read_message(server.stdout)
        if message.get("id") == request_id and "method" not in message:
            return message


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, count = sys.argv[1], int(sys.argv[2])
    root = tempfile.mkdtemp(prefix="highlight-ls-folders-")
    server = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(message):
        server.stdin.write(framed(message))
        server.stdin.flush()

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"rootUri": None, "capabilities": {}}})
    answer(server, 1)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    started = time.monotonic()
    added = [{"uri": f"file://{root}/f{n}", "name": f"f{n}"} for n in range(count)]
    send({"jsonrpc": "2.0", "method": "workspace/didChangeWorkspaceFolders", "params": {"event": {"added": added, "removed": []}}})
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
          "params": {"textDocument": {"uri": "file:///x"}, "position": {"line": 0, "character": 0}}})
    answer(server, 2)
    print(f"{count} folders: answered after {time.monotonic() - started:.2f} s")
    send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    answer(server, 3)
    send({"jsonrpc": "2.0", "method": "exit"})
    server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
