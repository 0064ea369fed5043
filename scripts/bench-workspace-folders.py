#!/usr/bin/env python3
"""Adding many workspace folders at once: time from one `didChangeWorkspaceFolders` that adds N
folders to the answer of the request after it (the folders need not exist).

Usage: scripts/bench-workspace-folders.py BINARY N
"""
import json, subprocess, sys, tempfile, time, os
binary = sys.argv[1]; n = int(sys.argv[2])
root = tempfile.mkdtemp(prefix="highlight-ls-folders-")
p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(m):
    b = json.dumps(m).encode(); p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def read():
    h = b""
    while not h.endswith(b"\r\n\r\n"): h += p.stdout.read(1)
    n = int([l for l in h.split(b"\r\n") if l.lower().startswith(b"content-length")][0].split(b":")[1])
    return json.loads(p.stdout.read(n))
def wait(i):
    while True:
        m = read()
        if m.get("id") == i and "method" not in m: return m
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":None,"capabilities":{}}}); wait(1)
send({"jsonrpc":"2.0","method":"initialized","params":{}})
t=time.time()
send({"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"file://%s/f%d" % (root, i),"name":"f"} for i in range(n)],"removed":[]}}})
send({"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x"},"position":{"line":0,"character":0}}})
wait(2); print(n, "folders: answered after %.2f s" % (time.time()-t))
send({"jsonrpc":"2.0","id":3,"method":"shutdown"}); wait(3); send({"jsonrpc":"2.0","method":"exit"})
