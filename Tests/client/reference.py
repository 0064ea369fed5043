"""An independent Python model of what the server should answer.

Nothing here comes from the server's sources: positions are converted with
Python's own codecs, lines are split the way LSP 3.17 defines them, and the
expected highlights are computed with ``re`` from the rules as docs/CONFIGURATION.md
and docs/DESIGN.md document them.

Units and offsets:

* A *code point offset* (``cp``) indexes the Python ``str`` of the whole
  document. It is the unit this model edits in.
* A *position* is ``(line, character)``, zero-based, with ``character`` counted
  in the negotiated encoding: UTF-16 code units, UTF-8 bytes or code points
  (``utf-32``).

Line ends are ``\\r\\n``, ``\\r`` and ``\\n``; a position never falls between the
``\\r`` and the ``\\n`` of a CRLF.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

ENCODINGS = ("utf-16", "utf-8", "utf-32")

_LINE_END = re.compile(r"\r\n|\r|\n")


def units(text: str, encoding: str) -> int:
    """Length of ``text`` in the units of ``encoding`` (Python's codecs do the counting)."""
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    raise ValueError(f"unknown encoding {encoding!r}")


def slice_units(line: str, start: int, length: int, encoding: str) -> str:
    """The text of ``line`` between two unit offsets; raises if they cut a character."""
    if encoding == "utf-16":
        raw = line.encode("utf-16-le")
        return raw[2 * start : 2 * (start + length)].decode("utf-16-le", errors="strict")
    if encoding == "utf-8":
        raw = line.encode("utf-8")
        return raw[start : start + length].decode("utf-8", errors="strict")
    if encoding == "utf-32":
        return line[start : start + length]
    raise ValueError(f"unknown encoding {encoding!r}")


class Document:
    """A document's text with LSP lines and conversions between code points and positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Start and content end (before the line end) of every line, in code points.
        self.line_starts = [0]
        self.line_ends = []
        for match in _LINE_END.finditer(text):
            self.line_ends.append(match.start())
            self.line_starts.append(match.end())
        self.line_ends.append(len(text))

    @property
    def line_count(self) -> int:
        """Number of lines (a text ending with a line end has an empty last line)."""
        return len(self.line_starts)

    def line(self, index: int) -> str:
        """The content of line ``index`` without its line end."""
        return self.text[self.line_starts[index] : self.line_ends[index]]

    def is_valid_offset(self, cp: int) -> bool:
        """Whether ``cp`` is a place a position can name (not between ``\\r`` and ``\\n``)."""
        if cp < 0 or cp > len(self.text):
            return False
        return not (0 < cp < len(self.text) and self.text[cp - 1] == "\r" and self.text[cp] == "\n")

    def position(self, cp: int, encoding: str) -> tuple[int, int]:
        """The position of code point offset ``cp``."""
        if not self.is_valid_offset(cp):
            raise ValueError(f"offset {cp} names no position")
        line = bisect.bisect_right(self.line_starts, cp) - 1
        start = self.line_starts[line]
        if cp > self.line_ends[line]:
            raise ValueError(f"offset {cp} is inside a line end")
        return line, units(self.text[start:cp], encoding)

    def offset(self, position: tuple[int, int], encoding: str) -> int:
        """The code point offset of an exact position; raises if it names no character boundary."""
        line, character = position
        if not 0 <= line < self.line_count:
            raise ValueError(f"line {line} out of range")
        content = self.line(line)
        count = 0
        for index, scalar in enumerate(content):
            if count == character:
                return self.line_starts[line] + index
            if count > character:
                break
            count += units(scalar, encoding)
        if count == character:
            return self.line_ends[line]
        raise ValueError(f"character {character} of line {line} is not a boundary in {encoding}")

    def replace(self, start_cp: int, end_cp: int, new_text: str) -> Document:
        """A new document with ``[start_cp, end_cp)`` replaced by ``new_text``."""
        return Document(self.text[:start_cp] + new_text + self.text[end_cp:])


# --- Rules --------------------------------------------------------------------------

_LETTER_MARK_DIGIT = ("Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd")


def is_ascii_word_char(scalar: str) -> bool:
    """A word character for the regex ``\\b`` without ``(?u)``: ``[0-9A-Za-z_]``, as in RE2."""
    return scalar == "_" or ("0" <= scalar <= "9") or ("A" <= scalar <= "Z") or ("a" <= scalar <= "z")


def is_regex_word_char(scalar: str) -> bool:
    """A word character for ``wholeWord`` (and ``(?u)\\b``): Unicode ``\\w`` as in UTS #18 annex C.

    That is Alphabetic, marks, decimal digits, connector punctuation and
    Join_Control (U+200C, U+200D). Python has no Alphabetic property; for the
    characters these tests use, letters (L*) and letter numbers (Nl) stand in for it.
    """
    if scalar in ("\u200c", "\u200d"):
        return True
    category = unicodedata.category(scalar)
    return category in _LETTER_MARK_DIGIT or category in ("Nl", "Pc")


def _simple_fold(scalar: str) -> str:
    lowered = scalar.lower()
    return lowered if len(lowered) == 1 else scalar


@dataclass(frozen=True)
class WordsRule:
    """A ``words`` rule: literal words, optionally case-insensitive and whole-word."""

    name: str
    words: tuple[str, ...]
    case_sensitive: bool = True
    whole_word: bool = True

    def first_scalars(self) -> set[str]:
        """The scalars a match can start with."""
        firsts = {word[0] for word in self.words}
        if not self.case_sensitive:
            firsts |= {scalar.upper() for scalar in firsts} | {scalar.lower() for scalar in firsts}
        return firsts

    def match_at(self, text: str, cp: int) -> int | None:
        """The end of the longest word matching at ``cp`` (first listed wins ties), or None."""
        best = None
        for word in self.words:
            if self.case_sensitive:
                if not text.startswith(word, cp):
                    continue
                end = cp + len(word)
            else:
                found = re.compile(re.escape(word), re.IGNORECASE).match(text, cp)
                if found is None:
                    continue
                # ``re.IGNORECASE`` folds a little more widely than simple case
                # folding; keep only matches that fold scalar by scalar.
                candidate = text[cp : found.end()]
                if len(candidate) != len(word) or any(
                    _simple_fold(a) != _simple_fold(b) for a, b in zip(candidate, word)
                ):
                    continue
                end = found.end()
            if self.whole_word and not _whole_word_accepts(text, cp, end):
                continue
            if best is None or end > best:
                best = end
        return best


@dataclass(frozen=True)
class TicketRule:
    """The ticket rule ``\\b[A-Z]{2,}-[0-9]+\\b`` (a regex rule)."""

    name: str = "ticket"
    _core = re.compile(r"[A-Z]{2,}-[0-9]+")

    def first_scalars(self) -> set[str]:
        """The scalars a match can start with."""
        return set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    def match_at(self, text: str, cp: int) -> int | None:
        """The end of the match starting at ``cp``, or None.

        The greedy match is the only candidate: a shorter run of capitals is
        followed by a capital, not ``-``, and a shorter run of digits by a digit,
        which fails ``\\b``.
        """
        if cp > 0 and is_ascii_word_char(text[cp - 1]):
            return None
        found = self._core.match(text, cp)
        if found is None:
            return None
        end = found.end()
        if end < len(text) and is_ascii_word_char(text[end]):
            return None
        return end


def _whole_word_accepts(text: str, start: int, end: int) -> bool:
    # A whole word touches no word character on either side, whatever its own edges are.
    if start == end:
        return False
    if start > 0 and is_regex_word_char(text[start - 1]):
        return False
    if end < len(text) and is_regex_word_char(text[end]):
        return False
    return True


#: The rules in precedence order: the workspace file's rules, then the built-ins.
RULES = (
    TicketRule(),
    WordsRule("cafe", ("café",), case_sensitive=False),
    WordsRule("fixme", ("FIXME", "BUG", "XXX")),
    WordsRule("todo", ("TODO",)),
    WordsRule("hack", ("HACK",)),
    WordsRule("note", ("NOTE", "INFO")),
    WordsRule("review", ("REVIEW", "OPTIMIZE")),
    WordsRule("deprecated", ("DEPRECATED",)),
)

#: The workspace configuration that adds the first two rules.
WORKSPACE_CONFIG = {
    "rules": [
        {"name": "ticket", "regex": r"\b[A-Z]{2,}-[0-9]+\b"},
        {"name": "cafe", "words": ["café"], "caseSensitive": False, "wholeWord": True},
    ]
}


@dataclass(frozen=True)
class Match:
    """One expected highlight, in code point offsets."""

    start: int
    end: int
    rule: str


def expected_matches(text: str, rules=RULES) -> list[Match]:
    """Highlights by the overlap rule of docs/DESIGN.md: leftmost, then longest, then first rule."""
    firsts = set().union(*(rule.first_scalars() for rule in rules))
    matches = []
    cp = 0
    while cp < len(text):
        if text[cp] not in firsts:
            cp += 1
            continue
        best = None
        for rule in rules:
            end = rule.match_at(text, cp)
            if end is not None and (best is None or end > best.end):
                best = Match(cp, end, rule.name)
        if best is None:
            cp += 1
        else:
            matches.append(best)
            cp = best.end
    return matches


# --- Semantic tokens ------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """A decoded semantic token: absolute line and start, length, all in the client's units."""

    line: int
    start: int
    length: int
    rule: str
    text: str


def decode_tokens(data, legend: list[str], document: Document, encoding: str) -> list[Token]:
    """Decodes relative token data and reads each token's text from the Python copy."""
    data = list(data)
    if len(data) % 5 != 0:
        raise AssertionError(f"token data length {len(data)} is not a multiple of 5")
    tokens = []
    line = 0
    start = 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, type_index, modifiers = data[index : index + 5]
        if delta_line < 0 or delta_start < 0 or length <= 0:
            raise AssertionError(f"token {index // 5}: bad numbers {data[index:index + 5]}")
        if modifiers != 0:
            raise AssertionError(f"token {index // 5}: unexpected modifiers {modifiers}")
        if delta_line > 0:
            line += delta_line
            start = delta_start
        else:
            start += delta_start
        if not 0 <= type_index < len(legend):
            raise AssertionError(f"token {index // 5}: type {type_index} not in the legend")
        if line >= document.line_count:
            raise AssertionError(f"token {index // 5}: line {line} past the end")
        content = document.line(line)
        if start + length > units(content, encoding):
            raise AssertionError(f"token {index // 5}: {start}+{length} past the end of line {line} {content!r}")
        try:
            token_text = slice_units(content, start, length, encoding)
        except UnicodeDecodeError as error:
            raise AssertionError(
                f"token {index // 5}: line {line} [{start}, {start + length}) cuts a character in {encoding}: {error}"
            ) from None
        tokens.append(Token(line, start, length, legend[type_index], token_text))
    return tokens


def expected_tokens(document: Document, encoding: str) -> list[Token]:
    """The tokens the reference highlights should produce (single-line matches only)."""
    tokens = []
    for match in expected_matches(document.text):
        line, start = document.position(match.start, encoding)
        end_line, end = document.position(match.end, encoding)
        assert end_line == line, "the test rules never match across lines"
        tokens.append(Token(line, start, end - start, match.rule, document.text[match.start : match.end]))
    return tokens


def apply_delta(previous: list[int], edits) -> list[int]:
    """Applies ``SemanticTokensEdit``s (offsets into the previous data) to a copy of it."""
    result = list(previous)
    ordered = sorted(edits, key=lambda edit: edit.start)
    for before, after in zip(ordered, ordered[1:]):
        if before.start + before.delete_count > after.start:
            raise AssertionError(f"overlapping delta edits {before} and {after}")
    for edit in reversed(ordered):
        if not 0 <= edit.start <= len(previous) or edit.start + edit.delete_count > len(previous):
            raise AssertionError(f"delta edit {edit} outside data of length {len(previous)}")
        result[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
    return result
