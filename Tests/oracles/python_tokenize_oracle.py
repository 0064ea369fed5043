#!/usr/bin/env python3
"""Python's own tokenizer as the oracle of where the built-in rules match.

Runs `highlight-ls list --json` with the built-in rules over the Python standard library (the
one this Python is part of, without site-packages), tokenizes every `.py` file with `tokenize`,
and classes each match by the token it starts in:

  comment      a COMMENT token
  docstring    a STRING token that stands alone as a statement (its logical line is only
               strings): a module, class or function docstring, or an attribute docstring
  continued    a STRING token that starts a continuation line inside brackets, as a docstring
               starts its line: the documented limit of a syntax table that reads lines, not
               statements; counted, not a failure
  literal      any other STRING token ('INFO' in `getLevelName('INFO')`)
  code         anything else: names, numbers, operators (INFO in `logging.INFO`)

It fails unless there are no matches in code or in literals, and every whole built-in word of
every comment and every docstring was found.

Usage: python_tokenize_oracle.py HIGHLIGHT_LS [ROOT]   (ROOT: the standard library by default)
"""

import io
import os
import sys
import sysconfig
import tokenize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from builtin_words import RULE_OF_WORD, list_matches, whole_words  # noqa: E402

SKIPPED_DIRECTORIES = {"site-packages", "dist-packages", "__pycache__"}
MAXIMUM_FILE_BYTES = 8 << 20  # files over this are skipped by the scanner, as binary files are
EXAMPLES = 10


def python_files(root):
    """The `.py` files `list` searches under `root` (no hidden entries, no binaries, no huge files)."""
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith(".") and d not in SKIPPED_DIRECTORIES)
        for name in sorted(files):
            if name.endswith(".py") and not name.startswith("."):
                path = os.path.join(directory, name)
                if os.path.islink(path):
                    continue
                yield os.path.normpath(os.path.relpath(path, root))


def classify(raw):
    """Tokenizes a file's bytes: its codec, and a sorted list of (utf8 start, utf8 end, class,
    text) for its comment and string tokens; every other byte is code."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    codec = encoding.replace("-sig", "")  # the BOM is counted once, below, not in every prefix
    lines = raw.split(b"\n")
    line_starts = []
    offset = 0
    for line in lines:
        line_starts.append(offset)
        offset += len(line) + 1
    bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    decoded = {}

    def utf8_offset(row, column):
        """The file offset of a tokenize position (row 1-based, column in characters of the decoded line)."""
        index = row - 1
        if index >= len(lines):
            return len(raw)
        if index not in decoded:
            decoded[index] = (lines[index] + b"\n").decode(encoding if index == 0 else codec)
        prefix = decoded[index][:column].encode(codec)
        return line_starts[index] + len(prefix) + (bom if index == 0 else 0)

    tokens = list(tokenize.tokenize(io.BytesIO(raw).readline))
    regions = []
    logical = []
    depth = 0  # of brackets, per token
    depths = {}
    ignorable = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE,
                 tokenize.ENCODING, tokenize.ENDMARKER}

    def end_logical_line():
        significant = [token for token in logical if token.type not in ignorable]
        statement_of_strings = bool(significant) and all(token.type == tokenize.STRING for token in significant)
        for token in logical:
            start, end = utf8_offset(*token.start), utf8_offset(*token.end)
            if token.type == tokenize.COMMENT:
                regions.append((start, end, "comment", token.string))
            elif token.type == tokenize.STRING:
                kind = "docstring" if statement_of_strings else "literal"
                starts_line = not token.line[:token.start[1]].strip()
                if kind == "literal" and depths[id(token)] > 0 and starts_line:
                    kind = "continued"
                regions.append((start, end, kind, token.string))
        logical.clear()

    for token in tokens:
        if token.type == tokenize.OP and token.string in ")]}":
            depth = max(depth - 1, 0)
        depths[id(token)] = depth
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        logical.append(token)
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            end_logical_line()
    end_logical_line()
    regions.sort()
    return codec, regions


def containing(ranges, offset):
    """The range of sorted, non-overlapping `ranges` that contains `offset`, or None."""
    low, high = 0, len(ranges)
    while low < high:
        middle = (low + high) // 2
        if ranges[middle][0] <= offset:
            low = middle + 1
        else:
            high = middle
    if low > 0 and ranges[low - 1][0] <= offset < ranges[low - 1][1]:
        return ranges[low - 1]
    return None


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    root = sys.argv[2] if len(sys.argv) == 3 else sysconfig.get_paths()["stdlib"]
    top = sorted(entry for entry in os.listdir(root) if entry not in SKIPPED_DIRECTORIES and not entry.startswith("."))
    matches = list_matches(binary, root, top)

    counts = {"comment": 0, "docstring": 0, "continued": 0, "literal": 0, "code": 0}
    words = {"comment": 0, "docstring": 0}
    problems = {"code": [], "literal": [], "missed comment word": [], "missed docstring word": [], "not a built-in word": []}
    files = skipped = 0
    untokenizable = []
    for path in python_files(root):
        full = os.path.join(root, path)
        with open(full, "rb") as handle:
            raw = handle.read()
        if len(raw) > MAXIMUM_FILE_BYTES or b"\0" in raw[:8192]:
            skipped += 1
            continue
        try:
            encoding, regions = classify(raw)
        except (SyntaxError, tokenize.TokenError, UnicodeDecodeError, LookupError) as error:
            untokenizable.append(f"{path}: {type(error).__name__}")
            continue
        files += 1

        def where(offset):
            line = raw.count(b"\n", 0, offset) + 1
            start = raw.rfind(b"\n", 0, offset) + 1
            end = raw.find(b"\n", offset)
            return f"{path}:{line}: {raw[start:end if end >= 0 else len(raw)].decode(encoding, 'replace').strip()[:100]}"

        found = set()
        for start, end, rule, text in matches.get(path, []):
            found.add((start, end))
            if RULE_OF_WORD.get(text) != rule:
                problems["not a built-in word"].append(f"{where(start)}  [{rule}: {text}]")
            region = containing(regions, start)
            kind = region[2] if region else "code"
            counts[kind] += 1
            if kind in ("code", "literal"):
                problems[kind].append(f"{where(start)}  [{text}]")

        for start, end, kind, text in regions:
            if kind not in words:
                continue
            for word_start, word_end, word in whole_words(text):
                words[kind] += 1
                utf8_start = start + len(text[:word_start].encode(encoding))
                utf8_end = utf8_start + len(word.encode(encoding))
                if (utf8_start, utf8_end) not in found:
                    problems[f"missed {kind} word"].append(f"{where(utf8_start)}  [{word}]")

    print(f"python tokenize oracle: {files} files tokenized under {root} "
          f"({len(untokenizable)} not tokenizable, {skipped} binary or too large)")
    print(f"  matches: {counts['comment']} in comments, {counts['docstring']} in docstrings, "
          f"{counts['literal']} in string literals, {counts['code']} in code; "
          f"{counts['continued']} in strings that start a continuation line (the documented limit)")
    print(f"  whole built-in words: {words['comment']} in comments, {words['docstring']} in docstrings")
    for path in untokenizable:
        print(f"  not tokenizable (left out): {path}")
    failed = False
    for name, items in problems.items():
        print(f"  check: {name}: {len(items)}")
        for item in items[:EXAMPLES]:
            print(f"    {item}")
        if len(items) > EXAMPLES:
            print(f"    … and {len(items) - EXAMPLES} more")
        failed = failed or bool(items)
    if files == 0 or words["comment"] == 0:
        print("  check: nothing was tokenized, or no comment has a built-in word: the oracle saw nothing")
        failed = True
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
