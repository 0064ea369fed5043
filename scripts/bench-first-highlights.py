#!/usr/bin/env python3
"""First highlights of a large document next to `list` of the same file, side by side.

For each binary: `didOpen` of FILE then `textDocument/semanticTokens/full` at once, timed from
writing `didOpen` to reading the tokens, in a fresh server each run (median of --runs); and
`highlight-ls list FILE` as a whole process in the same turns. Also: a small document's request
sent right after the large `didOpen`, timed to its answer (the large message must not hold it up).

Usage: scripts/bench-first-highlights.py --file F [--runs 7] BINARY [BINARY ...]

The small request's figures are p50, p95 (nearest rank) and max over the runs; take 20 runs for a p95.
"""
import argparse
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

from lsp_wire import framed, read_message


def session(binary, uri, language, text, small_first):
    server = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdin.write(framed({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
    server.stdin.write(framed({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    server.stdin.write(framed({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///small.txt", "languageId": "plaintext", "version": 1, "text": "TODO small\n"}}}))
    server.stdin.flush()
    while read_message(server.stdout).get("id") != 1:
        pass
    opening = framed({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": language, "version": 1, "text": text}}})
    wanted = 3 if small_first else 2
    request = {"jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": uri}}}
    small = {"jsonrpc": "2.0", "id": 3, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": "file:///small.txt"}}}
    # Joined before the clock starts: a copy of the large message is the client's own cost, not the server's.
    message = opening + framed(small if small_first else request)
    started = time.monotonic()
    server.stdin.write(message)
    server.stdin.flush()
    while True:
        message = read_message(server.stdout)
        if message.get("id") == wanted:
            elapsed = time.monotonic() - started
            break
    server.kill()
    server.wait()
    return elapsed


def list_time(binary, path):
    started = time.monotonic()
    subprocess.run([binary, "list", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", required=True)
    parser.add_argument("--language", default="swift")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    path = Path(args.file).resolve()
    text = path.read_text(encoding="utf-8")
    uri = path.as_uri()
    print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB, {text.count(chr(10)):,} lines")
    # In turns, binary after binary, so that a drift in the machine's state (its free memory, its caches) falls on
    # all of them alike.
    opens, lists, smalls = ({binary: [] for binary in args.binaries} for _ in range(3))
    for _ in range(args.runs):
        for binary in args.binaries:
            opens[binary].append(session(binary, uri, args.language, text, small_first=False))
            lists[binary].append(list_time(binary, path))
            smalls[binary].append(session(binary, uri, args.language, text, small_first=True))
    for binary in args.binaries:
        first, listed = statistics.median(opens[binary]), statistics.median(lists[binary])
        # The nearest-rank 95th percentile: with 20 runs, the 19th fastest.
        p95 = sorted(smalls[binary])[max(0, math.ceil(0.95 * len(smalls[binary])) - 1)]
        print(f"{binary}: didOpen -> full tokens {first * 1000:.1f} ms, list {listed * 1000:.1f} ms, "
              f"ratio {first / listed:.2f}; a small document's request after it: p50 {statistics.median(smalls[binary]) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {max(smalls[binary]) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
