"""What the oracle tests share: the built-in words, whole-word search as the engine does it,
and running `highlight-ls list --json` over a tree."""

import json
import os
import re
import subprocess
import tempfile
import unicodedata

# The words of the built-in rules (Sources/HighlightConfig/ConfigLayer+BuiltIn.swift), by rule.
BUILT_IN_WORDS = {
    "fixme": ["FIXME", "BUG", "XXX"],
    "todo": ["TODO"],
    "hack": ["HACK"],
    "note": ["NOTE", "INFO"],
    "review": ["REVIEW", "OPTIMIZE"],
    "deprecated": ["DEPRECATED"],
}
RULE_OF_WORD = {word: rule for rule, words in BUILT_IN_WORDS.items() for word in words}
_WORDS = re.compile("|".join(sorted(RULE_OF_WORD, key=len, reverse=True)))


def is_word_character(character):
    """A word character for `wholeWord`: a Unicode letter, mark or decimal digit, or `_`."""
    if character == "_":
        return True
    category = unicodedata.category(character)
    return category[0] in "LM" or category == "Nd"


def whole_words(text):
    """(start, end, word) in characters of every whole built-in word of `text`, leftmost first."""
    found = []
    for match in _WORDS.finditer(text):
        start, end = match.span()
        if start > 0 and is_word_character(text[start - 1]):
            continue
        if end < len(text) and is_word_character(text[end]):
            continue
        found.append((start, end, match.group()))
    return found


def list_matches(binary, root, paths):
    """Every match of `highlight-ls list --json` over `paths` (relative to `root`), with the
    built-in rules only: a configuration file that says nothing, so no `.highlights.json` of
    the tree or above it is read. Returns {path: [(utf8 start, utf8 end, rule, text)]}."""
    with tempfile.TemporaryDirectory() as scratch:
        config = os.path.join(scratch, "empty.json")
        with open(config, "w") as handle:
            handle.write("{}\n")
        result = subprocess.run(
            [binary, "list", "--json", "--config", config, *paths], cwd=root, capture_output=True, check=False)
    # Exit 1 means some file could not be read; the rest is still listed.
    if result.returncode not in (0, 1):
        raise SystemExit(f"highlight-ls list failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    matches = {}
    for line in result.stdout.splitlines():
        record = json.loads(line)
        path = os.path.normpath(record["path"])
        start, end = record["utf8"]
        matches.setdefault(path, []).append((start, end, record["rule"], record["text"]))
    return matches
