"""Checks of the Python reference itself, so that a wrong oracle cannot pass a wrong server."""

from __future__ import annotations

import pytest
from lsprotocol import types

from reference import Document, apply_delta, expected_matches

# (text, code point offset, utf-16, utf-8, utf-32 positions)
POSITIONS = [
    ("TODO 👍 x", 7, (0, 8), (0, 10), (0, 7)),
    ("a\r\nb", 3, (1, 0), (1, 0), (1, 0)),
    ("a\rb\nc", 2, (1, 0), (1, 0), (1, 0)),
    ("a\r\n", 3, (1, 0), (1, 0), (1, 0)),
    ("日本語", 2, (0, 2), (0, 6), (0, 2)),
    ("e\u0301x", 2, (0, 2), (0, 3), (0, 2)),
    ("👨\u200d👩\u200d👧!", 5, (0, 8), (0, 18), (0, 5)),
    ("🇫🇷 x", 1, (0, 2), (0, 4), (0, 1)),
]


@pytest.mark.parametrize(("text", "cp", "utf16", "utf8", "utf32"), POSITIONS)
def test_positions_round_trip(text: str, cp: int, utf16, utf8, utf32) -> None:
    document = Document(text)
    for encoding, position in (("utf-16", utf16), ("utf-8", utf8), ("utf-32", utf32)):
        assert document.position(cp, encoding) == position
        assert document.offset(position, encoding) == cp


def test_no_position_between_cr_and_lf() -> None:
    document = Document("a\r\nb")
    assert not document.is_valid_offset(2)
    with pytest.raises(ValueError):
        document.position(2, "utf-16")


def test_offset_inside_a_surrogate_pair_is_refused() -> None:
    with pytest.raises(ValueError):
        Document("👍").offset((0, 1), "utf-16")


def test_lines_split_the_lsp_way() -> None:
    document = Document("a\r\nb\rc\nd\r\n")
    assert [document.line(index) for index in range(document.line_count)] == ["a", "b", "c", "d", ""]


# (text, expected (rule, text) pairs)
MATCHES = [
    ("TODO 👍 ABC-123 café", [("todo", "TODO"), ("ticket", "ABC-123"), ("cafe", "café")]),
    ("CAFÉ Café cafe\u0301 café\u0301 xcafé", [("cafe", "CAFÉ"), ("cafe", "Café")]),
    ("TODO-12 XXX-1 XXX", [("ticket", "TODO-12"), ("ticket", "XXX-1"), ("fixme", "XXX")]),
    ("_TODO TODO_ TODO1 日本語TODO TODO\u0301 todo", []),
    ("👍TODO👍 (NOTE) INFO:", [("todo", "TODO"), ("note", "NOTE"), ("note", "INFO")]),
    # A regex \b is ASCII (RE2), so ZWJ does not stop AB-1; a whole word must not touch a
    # (?u)\w character, and ZWJ is one, so it stops TODO.
    ("\u200dAB-1 \u200dTODO AB-1x AB-12", [("ticket", "AB-1"), ("ticket", "AB-12")]),
]


@pytest.mark.parametrize(("text", "expected"), MATCHES)
def test_reference_matches(text: str, expected) -> None:
    assert [(match.rule, text[match.start : match.end]) for match in expected_matches(text)] == expected


def test_apply_delta_edits_from_the_back() -> None:
    edits = [
        types.SemanticTokensEdit(start=5, delete_count=5, data=[9, 9, 9, 9, 9]),
        types.SemanticTokensEdit(start=0, delete_count=0, data=[1, 1, 1, 1, 1]),
    ]
    assert apply_delta(list(range(10)), edits) == [1, 1, 1, 1, 1, 0, 1, 2, 3, 4, 9, 9, 9, 9, 9]
