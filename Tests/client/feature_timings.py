#!/usr/bin/env python3
"""Times the requests behind groups, colours, diagnostics, links and hover on a large document.

Drives the release server binary over pipes (Python standard library only) twice: once with a
plain configuration and once with the same rules plus styled capture groups, ``"colors": true``,
severities, messages and links. Prints the best of N round-trip times per request, in
milliseconds. The round trip includes writing and parsing the JSON on this side, so compare the
two columns rather than reading the figures as server time; the time this side spends
decoding the answer's JSON is measured and subtracted ("server" columns), which leaves the
server's work plus the pipe. Keystrokes are timed with decorations off (their cost is the
``highlight/decorations`` row), on a server of their own.

    swift build -c release --product highlight-ls
    python3 Tests/client/feature_timings.py [--server .build/release/highlight-ls] [--lines 100000] [--runs 5]
"""

import argparse
import json
import random
import subprocess
import time

PLAIN = {
    "rules": [
        {"name": "ticket", "regex": "\\b[A-Z]{2,}-[0-9]+\\b"},
        {"name": "owned", "regex": "TODO\\(([a-z]+)\\):"},
    ]
}
DETAILED = {
    "colors": True,
    "rules": [
        {"name": "ticket", "regex": "\\b(?P<project>[A-Z]{2,})-[0-9]+\\b", "severity": "hint",
         "message": "ticket of ${project}", "link": "https://tracker.example/browse/$0",
         "groups": {"project": {"bold": True}}},
        {"name": "owned", "regex": "TODO\\(([a-z]+)\\):", "severity": "information",
         "groups": {"1": {"color": "#7c3aed"}}},
        {"name": "fixme", "words": ["FIXME", "BUG", "XXX"], "wholeWord": True, "severity": "warning"},
    ],
}


def corpus(lines, seed):
    """Source-like lines; about one in four carries a TODO(owner):, a ticket, FIXME or a colour."""
    generator = random.Random(seed)
    words = ["parse", "token", "render", "item", "value", "index", "buffer", "line", "state", "node"]
    extras = ["// TODO(ann): tidy {w}", "// see CORE-{n}", "// FIXME {w}", "color = #{h:06x};",
              "background: rgb({a}, {b}, 40);", "// plain"]
    out = []
    for _ in range(lines):
        w = generator.choice(words)
        line = f"let {w}{generator.randrange(100)} = {generator.choice(words)}({w})"
        if generator.random() < 0.25:
            line += " " + generator.choice(extras).format(
                w=w, n=generator.randrange(10000), h=generator.randrange(1 << 24),
                a=generator.randrange(256), b=generator.randrange(256))
        out.append(line)
    return "\n".join(out) + "\n"


class Server:
    def __init__(self, path, options, pull, decorations=True):
        self.process = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 1
        capabilities = {"textDocument": {"diagnostic": {}}} if pull else {}
        options = dict(options, decorations=decorations)
        #: Seconds spent decoding JSON bodies, so that callers can subtract it.
        self.decode_seconds = 0.0
        self.request("initialize", {"processId": None, "rootUri": None, "capabilities": capabilities,
                                    "initializationOptions": options})
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.process.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        body = self.process.stdout.read(length)
        start = time.perf_counter()
        message = json.loads(body)
        self.decode_seconds += time.perf_counter() - start
        return message

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                return message.get("result")

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        # Reading what is left (decorations, logs) lets a server blocked on a full pipe finish.
        self.process.communicate(timeout=10)


def best(server, runs, action):
    """The best of `runs` round trips in ms, and the best of them less this side's JSON decoding."""
    times = []
    for _ in range(runs):
        server.decode_seconds = 0.0
        start = time.perf_counter()
        action()
        total = time.perf_counter() - start
        times.append((total * 1000, (total - server.decode_seconds) * 1000))
    return min(times)


def measure(path, options, text, runs, pull=True):
    server = Server(path, options, pull)
    typing = Server(path, options, pull, decorations=False)
    uri = "file:///bench/large.css"
    document = {"uri": uri}
    for each in (server, typing):
        each.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "css", "version": 1, "text": text}})
        each.request("textDocument/semanticTokens/full", {"textDocument": document}) if each is typing else None
    results = {}
    version = [1]

    def edit_and_tokens():
        version[0] += 1
        line = random.randrange(1000, 90000)
        typing.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version[0]}, "contentChanges": [
            {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": "x"}]})
        typing.request("textDocument/semanticTokens/range", {"textDocument": document,
            "range": {"start": {"line": line - 50, "character": 0}, "end": {"line": line + 50, "character": 0}}})

    def recompute_and_tokens():
        # A configuration change makes the next request find every match and piece again.
        typing.notify("workspace/didChangeConfiguration", {"settings": {"highlight": options}})
        typing.request("textDocument/semanticTokens/full", {"textDocument": document})

    results["didChangeConfiguration + semanticTokens/full"] = best(typing, runs, recompute_and_tokens)
    results["semanticTokens/full"] = best(server, runs, lambda: server.request("textDocument/semanticTokens/full", {"textDocument": document}))
    results["highlight/decorations"] = best(server, runs, lambda: server.request("highlight/decorations", {"textDocument": document}))
    results["textDocument/diagnostic"] = best(server, runs, lambda: server.request("textDocument/diagnostic", {"textDocument": document}))
    results["textDocument/documentLink"] = best(server, runs, lambda: server.request("textDocument/documentLink", {"textDocument": document}))
    results["textDocument/documentColor"] = best(server, runs, lambda: server.request("textDocument/documentColor", {"textDocument": document}))
    results["textDocument/hover"] = best(server, runs, lambda: server.request("textDocument/hover", {"textDocument": document, "position": {"line": 5000, "character": 3}}))
    random.seed(7)
    results["keystroke + tokens/range (median of 200)"] = sorted(best(typing, 1, edit_and_tokens) for _ in range(200))[100]
    server.close()
    typing.close()
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=".build/release/highlight-ls")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    text = corpus(arguments.lines, seed=3)
    plain = measure(arguments.server, PLAIN, text, arguments.runs)
    detailed = measure(arguments.server, DETAILED, text, arguments.runs)
    print(f"{arguments.lines} lines, {len(text.encode()) / 1e6:.1f} MB; best of {arguments.runs}, ms")
    print("| request | plain | plain, server | detailed | detailed, server |")
    print("|---|---:|---:|---:|---:|")
    for name in plain:
        print(f"| {name} | {plain[name][0]:.1f} | {plain[name][1]:.1f} | {detailed[name][0]:.1f} | {detailed[name][1]:.1f} |")


if __name__ == "__main__":
    main()
