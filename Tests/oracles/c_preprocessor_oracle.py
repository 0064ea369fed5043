#!/usr/bin/env python3
"""GCC's preprocessor as the oracle of which built-in matches are in C comments.

`gcc -fpreprocessed -dD -E` removes a file's comments and keeps everything else (directives
and all). Every whole built-in word of each `.h` file is first renamed to a numbered marker
(an identifier, so no comment or string changes its extent); the markers GCC removes were in
comments, the ones it keeps were in code or in strings. Then `highlight-ls list --json` with
the built-in rules runs over the same tree, and must report exactly the words in comments:
none in code or strings, and none missed.

Usage: c_preprocessor_oracle.py HIGHLIGHT_LS [ROOT]   (ROOT: /usr/include by default)
"""

import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from builtin_words import RULE_OF_WORD, list_matches, whole_words  # noqa: E402

MAXIMUM_FILE_BYTES = 8 << 20
MARKER = re.compile(r"HlsOracleMarker(\d+)Q")
EXAMPLES = 10


def header_files(root):
    """The `.h` files `list` searches under `root` (no hidden entries, no links, no binaries, no huge files)."""
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.endswith(".h") and not name.startswith(".") and not os.path.islink(path):
                yield os.path.normpath(os.path.relpath(path, root))


def comment_words(root, path):
    """(path, words, error): `words` maps the UTF-8 range of each whole built-in word of the file
    to (word, whether GCC removed it with a comment)."""
    with open(os.path.join(root, path), "rb") as handle:
        raw = handle.read()
    if len(raw) > MAXIMUM_FILE_BYTES or b"\0" in raw[:8192]:
        return path, None, "binary or too large"
    text = raw.decode("utf-8", "surrogateescape")
    occurrences = whole_words(text)
    if not occurrences:
        return path, {}, None
    pieces = []
    last = 0
    for number, (start, end, _) in enumerate(occurrences):
        pieces.append(text[last:start])
        pieces.append(f"HlsOracleMarker{number}Q")
        last = end
    pieces.append(text[last:])
    marked = "".join(pieces).encode("utf-8", "surrogateescape")
    result = subprocess.run(
        ["gcc", "-fpreprocessed", "-dD", "-E", "-w", "-x", "c", "-"], input=marked, capture_output=True, check=False)
    if result.returncode != 0:
        return path, None, "gcc: " + result.stderr.decode(errors="replace").strip().splitlines()[-1]
    kept = {int(number) for number in MARKER.findall(result.stdout.decode("utf-8", "surrogateescape"))}
    words = {}
    for number, (start, end, word) in enumerate(occurrences):
        utf8_start = len(text[:start].encode("utf-8", "surrogateescape"))
        words[(utf8_start, utf8_start + len(word))] = (word, number not in kept)
    return path, words, None


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    root = sys.argv[2] if len(sys.argv) == 3 else "/usr/include"
    paths = list(header_files(root))
    matches = list_matches(binary, root, paths)

    files = 0
    counts = {"comment words": 0, "words in code or strings": 0, "matches": 0}
    problems = {"match in code or a string": [], "missed comment word": [], "not a built-in word": []}
    left_out = []
    raws = {}

    def where(path, offset):
        if path not in raws:
            with open(os.path.join(root, path), "rb") as handle:
                raws[path] = handle.read()
        raw = raws[path]
        line = raw.count(b"\n", 0, offset) + 1
        start = raw.rfind(b"\n", 0, offset) + 1
        end = raw.find(b"\n", offset)
        return f"{path}:{line}: {raw[start:end if end >= 0 else len(raw)].decode('utf-8', 'replace').strip()[:100]}"

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for path, words, error in pool.map(lambda path: comment_words(root, path), paths):
            if words is None:
                left_out.append(f"{path}: {error}")
                continue
            files += 1
            for (start, end), (word, in_comment) in words.items():
                counts["comment words" if in_comment else "words in code or strings"] += 1
            found = set()
            for start, end, rule, text in matches.get(path, []):
                counts["matches"] += 1
                found.add((start, end))
                if RULE_OF_WORD.get(text) != rule:
                    problems["not a built-in word"].append(f"{where(path, start)}  [{rule}: {text}]")
                elif not words.get((start, end), ("", False))[1]:
                    problems["match in code or a string"].append(f"{where(path, start)}  [{text}]")
            for (start, end), (word, in_comment) in sorted(words.items()):
                if in_comment and (start, end) not in found:
                    problems["missed comment word"].append(f"{where(path, start)}  [{word}]")

    print(f"C preprocessor oracle: {files} .h files under {root} ({len(left_out)} left out)")
    print(f"  whole built-in words: {counts['comment words']} in comments, "
          f"{counts['words in code or strings']} in code or strings; {counts['matches']} matches")
    for item in left_out[:EXAMPLES]:
        print(f"  left out: {item}")
    failed = False
    for name, items in problems.items():
        print(f"  check: {name}: {len(items)}")
        for item in items[:EXAMPLES]:
            print(f"    {item}")
        if len(items) > EXAMPLES:
            print(f"    … and {len(items) - EXAMPLES} more")
        failed = failed or bool(items)
    if files == 0 or counts["comment words"] == 0 or counts["words in code or strings"] == 0:
        print("  check: no file, or no built-in word both in comments and in code: the oracle saw nothing")
        failed = True
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
