"""Acceptance tests: a real LSP client (pygls) against the server binary.

Every test is a whole session (initialize, initialized, didOpen, ..., shutdown,
exit) that must end with exit code 0. Token positions are decoded and read back
from a Python copy of the document with Python's own codecs, in the encoding the
server negotiated, and compared with the highlights ``reference`` computes.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lsprotocol import types

from reference import Document, Token, apply_delta, decode_tokens, expected_tokens
from session import Session, run_session

# Line ends: CRLF, CRLF, a lone CR, LF, CRLF, CRLF (an empty line), none.
TRICKY_TEXT = (
    "TODO 👍 ABC-123 café\r\n"
    "FIXME: naïve 日本語 NOTE CAFÉ\r\n"
    "👨\u200d👩\u200d👧 TODO(XXX) e\u0301 cafe\u0301 café\u0301 BUG\r"
    "🇫🇷 HACK 日本語TODO 𝒳TODO REVIEW DEPRECATED-42\n"
    "_TODO TODO_ TODO1 todo XXX-1 INFO👍OPTIMIZE\r\n"
    "\r\n"
    "Café 👨\u200d👩\u200d👧NOTE🇫🇷 ZZ-9\tDEPRECATED"
)

# What TRICKY_TEXT highlights, written out by hand: (line, rule, text).
TRICKY_EXPECTED = [
    (0, "todo", "TODO"),
    (0, "ticket", "ABC-123"),
    (0, "cafe", "café"),
    (1, "fixme", "FIXME"),
    (1, "note", "NOTE"),
    (1, "cafe", "CAFÉ"),
    (2, "todo", "TODO"),
    (2, "fixme", "XXX"),
    (2, "fixme", "BUG"),
    (3, "hack", "HACK"),
    (3, "review", "REVIEW"),
    (3, "ticket", "DEPRECATED-42"),
    (4, "ticket", "XXX-1"),
    (4, "note", "INFO"),
    (4, "review", "OPTIMIZE"),
    (6, "cafe", "Café"),
    (6, "note", "NOTE"),
    (6, "ticket", "ZZ-9"),
    (6, "deprecated", "DEPRECATED"),
]

# (what the client offers in general.positionEncodings, what the server must choose)
NEGOTIATIONS = [
    pytest.param(None, "utf-16", id="utf-16-by-default"),
    pytest.param(["utf-16"], "utf-16", id="utf-16"),
    pytest.param(["utf-8"], "utf-8", id="utf-8"),
    pytest.param(["utf-32"], "utf-32", id="utf-32"),
]

ENCODINGS = [
    pytest.param(["utf-16"], id="utf-16"),
    pytest.param(["utf-8"], id="utf-8"),
    pytest.param(["utf-32"], id="utf-32"),
]


def document_uri(workspace: Path) -> str:
    """The URI of the test document (it need not exist on disk)."""
    return (workspace / "notes.txt").as_uri()


@dataclass
class EditedDocument:
    """The client's copy of an open document and the last semantic tokens it received."""

    uri: str
    document: Document
    version: int = 1
    result_id: str | None = None
    data: list[int] = field(default_factory=list)
    deltas: int = 0
    full_fallbacks: int = 0


async def open_and_check(session: Session, uri: str, text: str) -> EditedDocument:
    """Opens ``text``, checks its full tokens against the reference and returns the client state."""
    state = EditedDocument(uri=uri, document=Document(text))
    session.open(uri, text)
    full = await session.full(uri)
    assert full.result_id, "full tokens without a resultId: delta requests are impossible"
    state.result_id = full.result_id
    state.data = list(full.data)
    check_tokens(session, state, "after didOpen")
    return state


def check_tokens(session: Session, state: EditedDocument, when: str) -> list[Token]:
    """Asserts that ``state.data`` decodes to exactly the reference's tokens."""
    actual = decode_tokens(state.data, session.legend, state.document, session.encoding)
    expected = expected_tokens(state.document, session.encoding)
    assert actual == expected, (
        f"{when} ({session.encoding}): tokens differ\n"
        f"text: {state.document.text!r}\n"
        f"missing: {[t for t in expected if t not in actual]}\n"
        f"unexpected: {[t for t in actual if t not in expected]}"
    )
    return actual


async def edit_and_check(
    session: Session, state: EditedDocument, changes: list[tuple[int, int, str]], when: str, require_delta: bool
) -> None:
    """Sends ``changes`` (code point ranges, applied in order) as one didChange, then checks delta and full.

    Each change's range is converted to the client's units on the document as it
    is after the changes before it, which is how LSP applies a list of changes.
    """
    wire_changes = []
    document = state.document
    for start_cp, end_cp, new_text in changes:
        start = document.position(start_cp, session.encoding)
        end = document.position(end_cp, session.encoding)
        wire_changes.append((start, end, new_text))
        document = document.replace(start_cp, end_cp, new_text)
    state.version += 1
    session.change(state.uri, state.version, wire_changes)
    state.document = document

    assert state.result_id is not None
    answer = await session.delta(state.uri, state.result_id)
    if isinstance(answer, types.SemanticTokensDelta):
        state.deltas += 1
        rebuilt = apply_delta(state.data, answer.edits)
    else:
        assert not require_delta, f"{when}: the server answered a delta request with full tokens"
        state.full_fallbacks += 1
        rebuilt = list(answer.data)
    assert answer.result_id, f"{when}: delta answer without a resultId"

    full = await session.full(state.uri)
    assert rebuilt == list(full.data), (
        f"{when} ({session.encoding}): delta does not rebuild the full result\n"
        f"changes: {wire_changes}\nprevious: {state.data}\nanswer: {answer}\nfull: {list(full.data)}"
    )
    state.data = list(full.data)
    state.result_id = full.result_id
    check_tokens(session, state, when)


# --- 1. Full and range tokens on tricky text ---------------------------------------------


@pytest.mark.parametrize(("offered", "negotiated"), NEGOTIATIONS)
def test_full_and_range_tokens_on_tricky_text(workspace: Path, offered, negotiated) -> None:
    """Emoji, ZWJ sequences, flags, combining marks, CJK and every line end, in each encoding."""
    uri = document_uri(workspace)

    async def scenario(session: Session) -> None:
        assert session.encoding == negotiated
        assert {"ticket", "cafe", "todo", "fixme", "note"} <= set(session.legend)
        state = await open_and_check(session, uri, TRICKY_TEXT)
        tokens = decode_tokens(state.data, session.legend, state.document, session.encoding)
        assert [(t.line, t.rule, t.text) for t in tokens] == TRICKY_EXPECTED

        # A range from the middle of line 1 to just after "XXX-1" on line 4.
        text = state.document.text
        start_cp = text.index("naïve")
        end_cp = text.index("XXX-1") + len("XXX-1")
        start = state.document.position(start_cp, session.encoding)
        end = state.document.position(end_cp, session.encoding)
        ranged = await session.range(uri, start, end)
        in_range = decode_tokens(ranged.data, session.legend, state.document, session.encoding)
        assert in_range == [t for t in tokens if start <= (t.line, t.start) and (t.line, t.start + t.length) <= end]
        assert [t.text for t in in_range] == [
            "NOTE", "CAFÉ", "TODO", "XXX", "BUG", "HACK", "REVIEW", "DEPRECATED-42", "XXX-1"
        ]

    run_session(workspace, offered, scenario)


# --- 2. Scripted incremental edits with delta -------------------------------------------


@pytest.mark.parametrize("offered", ENCODINGS)
def test_incremental_edits_and_deltas(workspace: Path, offered) -> None:
    """Edits around emoji, CRLFs and CJK; each delta must rebuild the full result."""
    uri = document_uri(workspace)

    async def scenario(session: Session) -> None:
        state = await open_and_check(session, uri, TRICKY_TEXT)

        async def edit(when: str, *changes: tuple[int, int, str]) -> None:
            await edit_and_check(session, state, list(changes), when, require_delta=True)

        def at(needle: str, after: bool = False, nth: int = 0) -> int:
            text = state.document.text
            index = -1
            for _ in range(nth + 1):
                index = text.index(needle, index + 1)
            return index + len(needle) if after else index

        def texts() -> list[str]:
            return [t.text for t in decode_tokens(state.data, session.legend, state.document, session.encoding)]

        # Insert before the emoji of line 0.
        await edit("insert before 👍", (at("👍"), at("👍"), "NOTE 🇫🇷 "))
        assert state.document.line(0) == "TODO NOTE 🇫🇷 👍 ABC-123 café"
        assert texts()[:4] == ["TODO", "NOTE", "ABC-123", "café"]

        # Delete across a CRLF, joining lines 0 and 1.
        await edit("delete across CRLF", (at("ABC-123 ", after=True), at("naïve ", after=True), ""))
        assert state.document.line(0) == "TODO NOTE 🇫🇷 👍 ABC-123 日本語 NOTE CAFÉ"
        assert "FIXME" not in texts() and "café" not in texts()

        # Delete across a lone CR, joining "… BUG" and "🇫🇷 HACK …".
        await edit("delete across lone CR", (at("BUG", after=True), at("🇫🇷", after=True, nth=1), ""))
        assert "BUG HACK" in state.document.text

        # Insert text with emoji, a new TODO, a ticket and a CRLF before the CJK.
        await edit("insert emoji and TODO", (at("日本語"), at("日本語"), "🎉 TODO 👨\u200d👩\u200d👧 XY-77\r\nREVIEW "))
        assert "XY-77" in texts()

        # Replace inside CJK, twice in one notification: "日本語TODO" -> "日本 TODO", then
        # "日本語" -> "日 TODO 語". The later place goes first so that the offsets computed
        # here still hold when the second change is applied.
        await edit(
            "replace inside CJK",
            (at("語TODO"), at("語TODO") + 1, " "),
            (at("本"), at("本", after=True), " TODO "),
        )
        assert "日 TODO 語" in state.document.text and "日本 TODO" in state.document.text

        # Insert inside a ZWJ sequence and between the two halves of a flag.
        await edit("insert inside ZWJ family", (at("\u200d👩"), at("\u200d👩"), "NOTE"))
        await edit("split a flag", (at("🇫🇷") + 1, at("🇫🇷") + 1, " HACK "))

        # Insert before a combining mark: "e\u0301" becomes "e TODO\u0301", where the mark
        # makes TODO part of a longer word.
        await edit("insert before a combining mark", (at("\u0301"), at("\u0301"), " TODO"))

        # Turn a CRLF into a lone CR, then end the document with a lone CR.
        await edit("CRLF to CR", (at("\r\n"), at("\r\n", after=True), "\rDEPRECATED "))
        await edit("append a lone CR", (len(state.document.text), len(state.document.text), " FIXME\r"))

        # Empty the document, then refill it in the same notification.
        await edit(
            "empty and refill",
            (0, len(state.document.text), ""),
            (0, 0, TRICKY_TEXT),
        )
        tokens = decode_tokens(state.data, session.legend, state.document, session.encoding)
        assert [(t.line, t.rule, t.text) for t in tokens] == TRICKY_EXPECTED

    run_session(workspace, offered, scenario)


# --- 3. Random edits ------------------------------------------------------------------

FIXED_SEED = 20261121

INSERT_POOL = [
    "TODO", " TODO ", "FIXME", "NOTE", "HACK", "XXX", "BUG", "INFO", "DEPRECATED", "REVIEW",
    "ABC-123", "XY-7", "TODO-12", "A-1", "café", "CAFÉ", "Café", "cafe\u0301", "e\u0301",
    "👍", "🎉", "👨\u200d👩\u200d👧", "🇫🇷", "\u200d", "𝒳", "日本語", "本", "語",
    "\r\n", "\n", "\r", " ", "\t", "_", "-", "x", "1", "naïve", "(", ")", ":",
]

EDITS_PER_RUN = 200


def random_offset(rng: random.Random, document: Document) -> int:
    """A random code point offset that names a position (never between CR and LF)."""
    offset = rng.randint(0, len(document.text))
    while not document.is_valid_offset(offset):
        offset -= 1
    return offset


def random_changes(rng: random.Random, document: Document) -> list[tuple[int, int, str]]:
    """One to three random changes, each valid on the document left by the ones before it."""
    changes = []
    for _ in range(1 if rng.random() < 0.85 else rng.randint(2, 3)):
        start = random_offset(rng, document)
        kind = rng.random()
        long_document = len(document.text) > 1500
        if kind < (0.25 if long_document else 0.55):
            end = start
        else:
            end = min(len(document.text), start + rng.randint(1, 40 if long_document else 12))
            while not document.is_valid_offset(end):
                end += 1
        if kind > 0.85 and end > start:
            new_text = ""
        else:
            new_text = "".join(rng.choice(INSERT_POOL) for _ in range(rng.randint(1, 4)))
        changes.append((start, end, new_text))
        document = document.replace(start, end, new_text)
    return changes


def fresh_seed() -> int:
    """``$HIGHLIGHT_LS_SEED`` if set, else a new seed for this run."""
    return int(os.environ.get("HIGHLIGHT_LS_SEED", str(time.time_ns() % 1_000_000_007)))


@pytest.mark.parametrize("seed", [pytest.param(FIXED_SEED, id="fixed-seed"), pytest.param(fresh_seed(), id="fresh-seed")])
@pytest.mark.parametrize("offered", ENCODINGS)
def test_random_edits_and_deltas(workspace: Path, offered, seed: int) -> None:
    """200 random edits from a pool of emoji, CJK, line ends and rule words; each checked like above."""
    uri = document_uri(workspace)
    rng = random.Random(seed)
    history: list[list[tuple[int, int, str]]] = []

    async def scenario(session: Session) -> None:
        state = await open_and_check(session, uri, TRICKY_TEXT)
        for step in range(EDITS_PER_RUN):
            changes = random_changes(rng, state.document)
            history.append(changes)
            await edit_and_check(session, state, changes, f"step {step}", require_delta=False)
        assert state.deltas > 0, "the server never answered with a delta"

    try:
        run_session(workspace, offered, scenario)
    except BaseException as error:
        raise AssertionError(
            f"random edits failed with seed {seed} (to rerun it: HIGHLIGHT_LS_SEED={seed} "
            f"Tests/client/run.sh -k 'random and fresh-seed'); after {len(history)} edits, "
            f"the last (code point ranges): {history[-1:]}\n{error}"
        ) from error
