#!/usr/bin/env python3
"""Memory of a server whose client writes and never reads.

Sends up to `--megabytes` of messages to `highlight-ls` over stdin while nothing reads its
stdout, and samples the server's resident memory (VmRSS in /proc) as it goes:

  notifications  full-text `didChange`s of a 1 MB document (they answer nothing, but each one
                 makes decorations and diagnostics, which wait, coalesced, in the output queue)
  requests       `highlight/matches` on that document (each answer is several MB) padded with
                 an unused field to 700 KB, so every message is large

With back-pressure the server stops reading once its output queue and inbox are full, so a
client's write blocks: the driver stops sending when a write has blocked for `--stall` seconds
and reports how much went in. Exits 1 when the peak exceeds `--limit-mib`.

Usage: scripts/bench-unread-output.py --binary .build/release/highlight-ls [--megabytes 3000]
"""
import argparse
import os
import subprocess
import sys
import threading
import time

from lsp_wire import framed


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--megabytes", type=int, default=3000)
    parser.add_argument("--limit-mib", type=int, default=512)
    parser.add_argument("--stall", type=float, default=5.0)
    args = parser.parse_args()

    # stdout is a pipe nobody reads; stderr is discarded.
    read_end, write_end = os.pipe()
    server = subprocess.Popen([args.binary], stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.DEVNULL)
    os.close(write_end)
    uri = "file:///tmp/unread-output/a.txt"
    text = "".join(f"TODO item {n} FIXME ABC-{n} done\n" for n in range(30_000))  # about 1 MB
    budget = args.megabytes * 1_000_000
    sent = [0]
    last_write = [time.monotonic()]
    done = threading.Event()

    def send(message):
        data = framed(message)
        server.stdin.write(data)
        server.stdin.flush()
        sent[0] += len(data)
        last_write[0] = time.monotonic()

    def writer():
        try:
            send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {},
                  "initializationOptions": {"decorations": True}}})
            send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "plaintext", "version": 1, "text": text}}})
            version = 2
            while sent[0] < budget // 2:
                send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text + f"v{version}\n"}]}})
                version += 1
            padding = "x" * 700_000
            request = 2
            while sent[0] < budget:
                send({"jsonrpc": "2.0", "id": request, "method": "highlight/matches",
                      "params": {"textDocument": {"uri": uri}, "padding": padding}})
                request += 1
        except (BrokenPipeError, ValueError, OSError):
            pass
        finally:
            done.set()

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    peak = 0
    started = time.monotonic()
    while not done.is_set():
        peak = max(peak, rss_kib(server.pid))
        if time.monotonic() - last_write[0] > args.stall:
            break
        time.sleep(0.1)
    peak = max(peak, rss_kib(server.pid))
    elapsed = time.monotonic() - started
    stalled = not done.is_set()
    server.kill()
    server.wait()
    os.close(read_end)
    print(f"sent {sent[0] / 1e6:,.0f} MB of {args.megabytes:,} MB in {elapsed:.1f} s"
          f"{' (then the server stopped reading: back-pressure)' if stalled else ''}; "
          f"peak RSS {peak / 1024:,.0f} MiB (limit {args.limit_mib} MiB)")
    return 0 if peak / 1024 <= args.limit_mib else 1


if __name__ == "__main__":
    sys.exit(main())
