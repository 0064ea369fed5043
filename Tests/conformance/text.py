"""Documents as a client holds them: lines, and positions in the three LSP encodings.

Lines end at ``\\n``, ``\\r\\n`` and a lone ``\\r``, as LSP says. A position is valid when its
line exists and its character is a character boundary of that line (not past its end, not
inside a UTF-16 surrogate pair or a UTF-8 sequence) in the encoding the positions are in.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

ENCODINGS = ("utf-8", "utf-16", "utf-32")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def units(character: str, encoding: str) -> int:
    """How many code units of ``encoding`` one Unicode scalar takes."""
    code = ord(character)
    if encoding == "utf-8":
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    if encoding == "utf-16":
        return 2 if code > 0xFFFF else 1
    return 1


class Text:
    """An immutable document text with the line and position arithmetic the checks need."""

    def __init__(self, text: str) -> None:
        self.text = text
        breaks = list(_LINE_BREAK.finditer(text))
        self.line_starts = [0] + [m.end() for m in breaks]
        self.line_ends = [m.start() for m in breaks] + [len(text)]

    @property
    def line_count(self) -> int:
        return len(self.line_starts)

    def line(self, number: int) -> str:
        return self.text[self.line_starts[number]:self.line_ends[number]]

    @lru_cache(maxsize=None)
    def _boundaries(self, number: int, encoding: str) -> tuple[frozenset[int], int]:
        """The character boundaries of a line in ``encoding``, and its length."""
        offsets = [0]
        for character in self.line(number):
            offsets.append(offsets[-1] + units(character, encoding))
        return frozenset(offsets), offsets[-1]

    def line_length(self, number: int, encoding: str) -> int:
        return self._boundaries(number, encoding)[1]

    def problem(self, position: dict, encoding: str) -> str | None:
        """Why ``position`` is not a valid position of this text in ``encoding``; None when it is."""
        line, character = position.get("line"), position.get("character")
        if not isinstance(line, int) or not isinstance(character, int):
            return None  # the meta model check reports the type
        if line < 0 or character < 0:
            return f"negative position {line}:{character}"
        if line >= self.line_count:
            return f"line {line} is past the last line ({self.line_count - 1})"
        bounds, length = self._boundaries(line, encoding)
        if character > length:
            return f"character {character} is past the end of line {line} ({length} {encoding} units)"
        if character not in bounds:
            return f"character {character} splits a character of line {line} in {encoding}"
        return None

    def offset(self, position: dict, encoding: str) -> int:
        """The index into ``text`` of a position (clamped to its line and the text)."""
        line = min(max(position["line"], 0), self.line_count - 1)
        index = self.line_starts[line]
        remaining = max(position["character"], 0)
        while index < self.line_ends[line] and remaining > 0:
            remaining -= units(self.text[index], encoding)
            index += 1
        return index

    def position(self, index: int, encoding: str) -> dict:
        """The position of the index into ``text`` (the start of a character) in ``encoding``."""
        line = bisect_right(self.line_starts, index) - 1
        prefix = self.text[self.line_starts[line]:index]
        return {"line": line, "character": sum(units(c, encoding) for c in prefix)}

    def position_of_utf8(self, byte_offset: int, encoding: str) -> dict | None:
        """The position of a UTF-8 byte offset; None when it is not a character boundary."""
        data = self.text.encode("utf-8")
        if not 0 <= byte_offset <= len(data):
            return None
        try:
            index = len(data[:byte_offset].decode("utf-8"))
        except UnicodeDecodeError:
            return None
        return self.position(index, encoding)

    def replaced(self, change_range: dict | None, new_text: str, encoding: str) -> "Text":
        """The text after one ``didChange`` content change (the whole text when no range)."""
        if change_range is None:
            return Text(new_text)
        start = self.offset(change_range["start"], encoding)
        end = self.offset(change_range["end"], encoding)
        start, end = min(start, end), max(start, end)
        return Text(self.text[:start] + new_text + self.text[end:])

    def find(self, needle: str, encoding: str, occurrence: int = 0, shift: int = 0) -> dict:
        """The position ``shift`` characters into the ``occurrence``-th ``needle``."""
        index = -1
        for _ in range(occurrence + 1):
            index = self.text.index(needle, index + 1)
        return self.position(index + shift, encoding)

    def span(self, needle: str, encoding: str, occurrence: int = 0) -> dict:
        """The range of the ``occurrence``-th ``needle``."""
        start = self.find(needle, encoding, occurrence)
        index = self.offset(start, encoding)
        return {"start": start, "end": self.position(index + len(needle), encoding)}


def read_file(path) -> str:
    """A file's text with its line ends as they are (``Path.read_text`` would turn them into ``\\n``)."""
    with open(path, encoding="utf-8", newline="") as file:
        return file.read()
