#!/usr/bin/env python3
"""Builds a seed corpus for highlight-fuzz from the session transcripts.

Each transcript becomes one input: every `send:` and `send-raw:` block in order, framed as
the harness frames them, so the fuzzer starts from whole sessions (initialize, documents,
edits, requests, shutdown) and mutates from there. Usage:

    Tests/fuzz/make-corpus.py [OUTPUT_DIRECTORY]     (default: fuzz-corpus, git-ignored)
"""
import json
import pathlib
import sys

ROOT = "file:///tmp/highlight-fuzz-root"


def unescape(text):
    """The `send-raw:` escapes: \\r \\n \\t \\\\ and \\xHH; real newlines are dropped."""
    source = text.replace("\n", "").encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(source):
        b = source[i]
        if b == ord("\\") and i + 1 < len(source):
            n = chr(source[i + 1])
            simple = {"r": 13, "n": 10, "t": 9, "\\": 92}
            if n in simple:
                out.append(simple[n])
                i += 2
                continue
            if n == "x" and i + 3 < len(source):
                try:
                    out.append(int(source[i + 2:i + 4].decode(), 16))
                    i += 4
                    continue
                except ValueError:
                    pass
        out.append(b)
        i += 1
    return bytes(out)


def messages(text):
    blocks = text.split("\n---\n")
    for block in blocks:
        lines = [line for line in block.split("\n") if not line.startswith("#")]
        while lines and not lines[0].strip():
            lines.pop(0)
        if not lines:
            continue
        header, body = lines[0].strip(), "\n".join(lines[1:])
        body = body.replace("${ROOT_PATH}", ROOT[len("file://"):]).replace("${ROOT}", ROOT)
        if header == "send:":
            try:
                payload = json.dumps(json.loads(body), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            except ValueError:
                payload = body.encode("utf-8")  # Comments or trailing commas: kept as they are.
            yield b"Content-Length: %d\r\n\r\n" % len(payload) + payload
        elif header == "send-raw:":
            yield unescape(body)


def main():
    repository = pathlib.Path(__file__).resolve().parents[2]
    output = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else repository / "fuzz-corpus")
    output.mkdir(parents=True, exist_ok=True)
    count = 0
    for transcript in sorted((repository / "Tests/SessionTests/Transcripts").glob("*.transcript")):
        session = b"".join(messages(transcript.read_text(encoding="utf-8")))
        (output / (transcript.stem + ".bin")).write_bytes(session)
        count += 1
    print(f"{count} seed inputs in {output}")


if __name__ == "__main__":
    main()
