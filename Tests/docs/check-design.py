#!/usr/bin/env python3
"""Runs every example of docs/DESIGN.md through the server binary and compares the output.

Usage: Tests/docs/check-design.py [BINARY] [--show]

BINARY defaults to .build/debug/highlight-ls of this checkout. With --show, the actual output of
each example is printed (to write a new example); without it, any difference fails.

An example starts at a line `<!-- example: NAME -->` and ends at the next one or at the next
heading. Inside it, each fenced block is read by the last non-blank line before it:

* the ```jsonc block is the configuration, written as `example.json` and as `.highlights.json`;
* a block whose line names a command in backticks (`highlight-ls list --config example.json a.py`)
  is that command's expected standard output; the command runs in a fresh directory that holds
  the configuration and the inputs;
* a block whose line mentions `highlight/decorations` is what the server draws for each input,
  opened as an editor would open it, one range a line:
  `path:line:column: rule: text (style)`, lines and byte columns 1-based as `list` prints them;
* any other block is an input file, named by the first `path` in backticks on its line.

An example marked `<!-- example: NAME (pending: why) -->` is listed and skipped.
Uses the standard library only.
"""
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "DESIGN.md"
EXAMPLE = re.compile(r"^<!-- example: ([\w-]+)( \(pending: [^)]*\))? -->$")
FENCE = re.compile(r"^```(\w*)$")
LANGUAGES = {
    ".py": "python", ".c": "c", ".js": "javascript", ".ts": "typescript", ".md": "markdown",
    ".rs": "rust", ".swift": "swift", ".go": "go", ".css": "css", ".sh": "shellscript", ".txt": "plaintext",
}


class Example:
    def __init__(self, name, pending, line):
        self.name, self.pending, self.line = name, pending, line
        self.config = None
        self.inputs = []          # (path, text)
        self.checks = []          # (kind, command or None, expected text, line)


def parse(text):
    examples, current, label, lines = [], None, "", text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        marker = EXAMPLE.match(line)
        if marker:
            current = Example(marker.group(1), marker.group(2), index + 1)
            examples.append(current)
        elif line.startswith("#"):
            current = None
        fence = FENCE.match(line)
        if fence and current is not None:
            start = index + 1
            index += 1
            while index < len(lines) and lines[index] != "```":
                index += 1
            body = "\n".join(lines[start:index]) + "\n"
            command = re.search(r"`(highlight-ls [^`]*)`", label)
            if fence.group(1) == "jsonc":
                current.config = body
            elif command:
                current.checks.append(("command", command.group(1), body, start))
            elif "highlight/decorations" in label:
                current.checks.append(("decorations", None, body, start))
            else:
                names = re.findall(r"`([^`]+)`", label)
                if not names:
                    raise SystemExit(f"DESIGN.md:{start}: a block that is no configuration, command or input")
                current.inputs.append((names[0], body))
        elif fence:
            index += 1
            while index < len(lines) and lines[index] != "```":
                index += 1
        elif line.strip():
            label = line
        index += 1
    return examples


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_messages(data):
    messages = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header, re.I).group(1))
        messages.append(json.loads(rest[:length]))
        data = rest[length:]
    return messages


def style_text(style):
    colours = " ".join(
        ([style["color"]] if "color" in style else [])
        + (["on " + style["backgroundColor"]] if "backgroundColor" in style else [])
        + (["border " + style["borderColor"]] if "borderColor" in style else []))
    flags = [key for key in ("bold", "italic", "underline", "strikethrough", "rounded") if style.get(key)]
    return "(" + ", ".join(([colours] if colours else []) + flags) + ")"


def decorations(binary, directory, inputs):
    """What the server draws for each input: one line per range, in the documented format."""
    root = pathlib.Path(directory).as_uri()
    out = [frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "processId": None, "rootUri": root, "capabilities": {},
        "workspaceFolders": [{"uri": root, "name": "example"}],
        "initializationOptions": {"decorations": {"positionEncoding": "utf-8"}}}}),
        frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})]
    for number, (path, text) in enumerate(inputs, start=1):
        uri = f"{root}/{path}"
        language = LANGUAGES.get(os.path.splitext(path)[1], "plaintext")
        out.append(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}}))
        out.append(frame({"jsonrpc": "2.0", "id": number, "method": "highlight/decorations",
                          "params": {"textDocument": {"uri": uri}}}))
    out.append(frame({"jsonrpc": "2.0", "id": len(inputs) + 1, "method": "shutdown"}))
    out.append(frame({"jsonrpc": "2.0", "method": "exit"}))
    result = subprocess.run([binary], input=b"".join(out), capture_output=True, timeout=120)
    answers = {m["id"]: m for m in read_messages(result.stdout) if "id" in m and "method" not in m}
    lines = []
    for number, (path, text) in enumerate(inputs, start=1):
        payload = answers[number]["result"]
        assert payload["positionEncoding"] == "utf-8", payload
        text_lines = re.split(rb"\r\n|\r|\n", text.encode())
        ranges = payload["ranges"]
        for i in range(0, len(ranges), 4):
            line, start, end, style = ranges[i:i + 4]
            shown = text_lines[line][start:end].decode()
            rule = payload["styles"][style]
            lines.append(f"{path}:{line + 1}:{start + 1}: {rule['rule']}: {shown} {style_text(rule)}")
    return "".join(line + "\n" for line in lines)


def run(binary, example):
    """Yields (check, expected, actual) for each check of the example."""
    with tempfile.TemporaryDirectory(prefix="design-") as directory:
        if example.config is not None:
            for name in ("example.json", ".highlights.json"):
                pathlib.Path(directory, name).write_text(example.config, encoding="utf-8")
        for path, text in example.inputs:
            target = pathlib.Path(directory, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode())
        for kind, command, expected, line in example.checks:
            if kind == "command":
                arguments = shlex.split(command)
                result = subprocess.run([binary] + arguments[1:], cwd=directory, capture_output=True, timeout=120)
                actual = result.stdout.decode()
                if result.stderr:
                    actual += "".join("[stderr] " + l + "\n" for l in result.stderr.decode().splitlines())
            else:
                actual = decorations(binary, directory, example.inputs)
            yield (line, kind, command), expected, actual


def main():
    arguments = [a for a in sys.argv[1:] if a != "--show"]
    show = "--show" in sys.argv[1:]
    binary = os.path.abspath(arguments[0] if arguments else ROOT / ".build" / "debug" / "highlight-ls")
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"check-design: no server binary at {binary}")
    examples = parse(DESIGN.read_text(encoding="utf-8"))
    failures = checks = 0
    for example in examples:
        if example.pending:
            print(f"skipped  {example.name}{example.pending} (DESIGN.md:{example.line})")
            continue
        if example.config is None or not example.checks or not example.inputs:
            print(f"FAILED   {example.name}: needs a configuration, an input and an output (DESIGN.md:{example.line})")
            failures += 1
            continue
        for (line, kind, command), expected, actual in run(binary, example):
            checks += 1
            what = command or "highlight/decorations"
            if show:
                print(f"--- {example.name}: {what}\n{actual}", end="")
            elif actual != expected:
                failures += 1
                print(f"FAILED   {example.name}: {what} (DESIGN.md:{line})")
                print("  expected:\n" + "".join("    " + l + "\n" for l in expected.splitlines()))
                print("  actual:\n" + "".join("    " + l + "\n" for l in actual.splitlines()))
            else:
                print(f"ok       {example.name}: {what}")
    print(f"{checks} checks in {len(examples)} examples, {failures} failed")
    if checks < 20:
        print("check-design: fewer than 20 checks found; has the example format changed?")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
