"""The command line, the editor and the workspace list report the same matches.

A seeded generator writes a workspace to a temporary folder: Python, C, Rust,
JavaScript (one of them minified), Markdown, plain text, a log and a file with an
extension no table knows; lines far past 400 bytes (up to several KB, one after
hundreds of tabs), emoji, CJK, combining marks and characters outside the BMP;
``\\n``, ``\\r\\n`` and lone ``\\r`` line ends; and a ``.highlights.json`` of
overlapping ``words`` and ``regex`` rules limited by ``scope``, ``languages`` and
``files`` globs (including ``!`` exclusions). Three ways of asking the server for
the matches of that workspace must then agree on every (file, range, rule):

1. ``highlight-ls list --json .`` run in the workspace. Its ``utf8`` file offsets
   are turned into positions here, with Python's codecs (``reference.Document``),
   not with anything the server computes.
2. ``textDocument/semanticTokens/full`` after ``didOpen`` of each file, decoded with
   the legend. A match that spans lines is one token per line, so matches are
   compared as their non-empty line segments.
3. ``workspace/symbol`` with an empty query, first with no file open (the files on
   disk), then again with every file open and unchanged. A symbol's range is the
   match's whole range (docs/PROTOCOL.md). Only rules marked ``list`` are listed,
   and a rule that is not listed is no candidate at all (it cannot hide a listed
   match), so the symbols are compared with ``list --json`` run with every unlisted
   rule switched off.

Every position encoding the server offers is checked (``general.positionEncodings``).
The language of a file is an input of all three: each is given the file-name
guess that ``list`` makes (an empty language id for an unknown extension).

A second test edits an open document without saving (one listed match deleted, one
added): its semantic tokens must be those ``list --json`` finds in a saved copy of the
edited text, ``workspace/symbol`` must list the editor's text, and after ``didClose``
the file on disk again.

Each run checks two fixed seeds and a fresh one; the seed is in the test id and in
every failure message. ``HIGHLIGHT_SEED=N Tests/client/run.sh test_differential.py``
replays seed N (in place of the fresh one).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from lsprotocol import types

from reference import Document, decode_tokens, units
from session import Session, run_session, server_path

ENCODINGS = ("utf-16", "utf-8", "utf-32")

# --- The generated workspace -------------------------------------------------------------

#: The language id `list` guesses from each file name (LanguageSyntax+FileNames.swift, as the
#: README documents it); a name it does not know gets none.
LANGUAGE_BY_EXTENSION = {
    ".py": "python",
    ".c": "c",
    ".rs": "rust",
    ".js": "javascript",
    ".md": "markdown",
    ".txt": "plaintext",
    ".log": "log",
}

#: The files of every workspace: path relative to the workspace, and the kind of text in it.
FILES = (
    ("src/app.py", "python"),
    ("src/tasks.py", "short-python"),  # every line short: the file the unsaved-edit test edits
    ("src/lib/core.c", "c"),
    ("src/main.rs", "rust"),
    ("web/app.js", "javascript"),
    ("web/vendor/bundle.min.js", "minified"),
    ("docs/guide café.md", "markdown"),
    ("notes/todo.txt", "plaintext"),
    ("logs/server.log", "log"),
    ("data/blob.zzq", "unknown"),
)

EDITED_FILE = "src/tasks.py"

#: Text some rule matches (and near misses: a ticket with a version, an owner, a colon).
RULE_TEXT = [
    "TODO", "TODO", "FIXME", "XXX", "BUG", "HACK", "hack", "Hack", "NOTE", "INFO", "REVIEW",
    "OPTIMIZE", "DEPRECATED", "ABC-123", "XY-7", "RFC-2119.3", "JIRA-42", "TODO(alice)",
    "TODO(bob)", "TODO: finish this", "FIXME: later", "café", "CAFÉ", "Café", "naïve", "NAÏVE",
    "日本語", "日本", "👍", "🎉", "👨\u200d👩\u200d👧", "deprecated_api", "unsafe {", "unsafe{",
    "𝒳𝒳42", "𝒳", "\tTODO", "\tABCD", "#f80", "#FF8800", "rgb(255 136 0)", "hsl(32, 100%, 50%)",
]

#: Text no rule is meant to match, much of it wide or tricky in some encoding.
FILLER_TEXT = [
    "value", "count", "x1", "item", "_TODO", "TODO_", "TODOS", "e\u0301", "cafe\u0301", "🇫🇷",
    "日本語だ", "語", "Ωmega", "ß", "İstanbul", "ﬁle", "—", "…", "a-1", "A-", "0x1F", "→",
    "\u200b", "mañana", "Привет", "שלום", "한국어", "🧪", "∑", "x\u0308\u0301",
]

SEPARATORS = [" ", " ", " ", "  ", "\t", ", ", "; ", ""]

#: The rules a workspace picks from (a random subset in a random order, each listed or not).
RULE_POOL = [
    {"name": "ticket", "regex": r"\b[A-Z]{2,}-[0-9]+\b"},
    {"name": "versioned", "regex": r"[A-Z]{2,}-[0-9]+(\.[0-9]+)?"},
    {"name": "work", "words": ["TODO", "FIXME"], "scope": "comments"},
    {"name": "owned", "regex": r"TODO\([a-z]+\)", "files": ["**/*.js", "!**/*.min.js"]},
    {"name": "quoted", "words": ["café", "naïve"], "caseSensitive": False, "wholeWord": True, "scope": "strings"},
    {"name": "old-api", "words": ["deprecated_api"], "scope": "code", "languages": ["python", "javascript", "rust"]},
    {"name": "unsafe-block", "regex": r"unsafe\s*\{", "languages": ["rust"]},
    {"name": "src-note", "words": ["NOTE"], "files": ["src/**"]},
    {"name": "elsewhere", "words": ["NOTE", "INFO"], "files": ["!src/**"]},
    {"name": "cjk", "words": ["日本語", "日本"]},
    {"name": "emoji", "words": ["👍", "🎉", "👨\u200d👩\u200d👧"]},
    {"name": "begin-end", "regex": r"BEGIN\s+END"},
    {"name": "prose", "words": ["INFO", "REVIEW"], "languages": ["markdown", "plaintext"], "scope": ["comments", "code"]},
    {"name": "any-hack", "words": ["hack"], "caseSensitive": False, "wholeWord": True},
    {"name": "astral", "regex": r"𝒳+[0-9]*"},
    {"name": "tabbed", "regex": r"\t[A-Z]{3,}"},
    {"name": "rest-of-line", "regex": r"TODO:.*", "scope": ["comments", "strings"]},
    {"name": "todo", "words": ["TODO"], "scope": ["comments", "strings"]},
    {"name": "note", "words": ["NOTE", "INFO"], "files": ["docs/**", "notes/*.txt", "!**/*.log"]},
    {"name": "marks", "words": ["e\u0301", "cafe\u0301"]},
]

#: The built-in rules and whether they are listed (ConfigLayer+BuiltIn.swift, as the README says).
BUILT_IN_LISTED = {"fixme": True, "todo": True, "hack": True, "note": False, "review": False, "deprecated": False}


@dataclass
class GeneratedWorkspace:
    """A workspace written to disk, and what the tests need to know about it."""

    seed: int
    root: Path
    config: dict
    listed_config_path: Path
    #: Relative path -> the file's bytes.
    files: dict[str, bytes] = field(default_factory=dict)

    def language(self, relative_path: str) -> str:
        """The language id `list` guesses for the file ("" when its extension is unknown)."""
        return LANGUAGE_BY_EXTENSION.get(Path(relative_path).suffix, "")

    def uri(self, relative_path: str) -> str:
        """The file's URI."""
        return (self.root / relative_path).as_uri()


def phrase(rng: random.Random, count: int) -> str:
    """`count` pieces of rule text and filler joined by random separators."""
    pieces = [rng.choice(RULE_TEXT) if rng.random() < 0.35 else rng.choice(FILLER_TEXT) for _ in range(count)]
    out = pieces[0]
    for piece in pieces[1:]:
        out += rng.choice(SEPARATORS) + piece
    return out


def long_phrase(rng: random.Random, target_bytes: int) -> str:
    """A phrase of at least `target_bytes` UTF-8 bytes, with rule text all along it."""
    out = phrase(rng, 8)
    while len(out.encode("utf-8")) < target_bytes:
        out += rng.choice(SEPARATORS) + phrase(rng, 8)
    return out


def text_piece(rng: random.Random, allow_long: bool) -> str:
    """The text inside a comment, a string or a prose line: usually short, sometimes long."""
    roll = rng.random()
    if allow_long and roll < 0.08:
        return long_phrase(rng, rng.randint(2000, 8000))
    if allow_long and roll < 0.22:
        return long_phrase(rng, rng.randint(420, 1200))
    if allow_long and roll < 0.26:
        return "\t" * rng.randint(401, 450) + phrase(rng, 3)
    return phrase(rng, rng.randint(1, 6))


def identifier(rng: random.Random) -> str:
    """A name for code: plain, or one a rule matches when it applies to code."""
    return rng.choice(["value", "count", "deprecated_api", "item_2", "TODO", "naïve", "café", "hack", "x"])


def source_lines(kind: str, rng: random.Random) -> list[str]:
    """The lines (without line ends) of one file of `kind`."""
    allow_long = kind not in ("short-python",)
    lines: list[str] = []
    target = rng.randint(15, 45)
    if kind == "minified":
        body = ""
        size = rng.randint(3000, 9000)
        snippets = [
            "var a={n};", "function f(){{return '{t}'}}", "/*{t}*/", "if(a){{b('{t}')}}", "x.y=\"{t}\";",
            "c({n});", "let s=`{t}`;",
        ]
        while len(body.encode("utf-8")) < size:
            body += rng.choice(snippets).format(n=rng.randint(0, 999), t=phrase(rng, rng.randint(1, 4)))
        return [body]
    while len(lines) < target:
        text = text_piece(rng, allow_long)
        name = identifier(rng)
        if rng.random() < 0.05:
            # Something `BEGIN\s+END` matches across a line end.
            lines.extend([f"{phrase(rng, 2)} BEGIN", f"{rng.choice(['', ' ', chr(9)])}END {phrase(rng, 2)}"])
            continue
        if kind in ("python", "short-python"):
            choice = rng.randrange(7)
            if choice == 0:
                lines.append(f"{name} = {rng.randint(0, 99)}")
            elif choice == 1:
                lines.append(f"# {text}")
            elif choice == 2:
                lines.append(f"{name} = {rng.randint(0, 9)}  # {text}")
            elif choice == 3:
                lines.append(f'{name} = "{text}"')
            elif choice == 4:
                lines.append(f"{name} = '{text}'  # {phrase(rng, 2)}")
            elif choice == 5:
                lines.extend(['doc = """', text, phrase(rng, 3), '"""'])
            else:
                lines.append(f"def {name}():\treturn {name}  # {phrase(rng, 2)}")
        elif kind == "c":
            choice = rng.randrange(6)
            if choice == 0:
                lines.append(f"int {name} = {rng.randint(0, 99)}; // {text}")
            elif choice == 1:
                lines.append(f"/* {text} */ {name}();")
            elif choice == 2:
                lines.extend(["/*", f" * {text}", f" * {phrase(rng, 3)}", " */"])
            elif choice == 3:
                lines.append(f'const char *s = "{text}";')
            elif choice == 4:
                lines.append(f"#define {name.upper()} \"{phrase(rng, 2)}\" // {phrase(rng, 2)}")
            else:
                lines.append(f"\t{name}({rng.randint(0, 9)});")
        elif kind == "rust":
            choice = rng.randrange(6)
            if choice == 0:
                lines.append(f"let {name} = {rng.randint(0, 99)}; // {text}")
            elif choice == 1:
                lines.append(f"/// {text}")
            elif choice == 2:
                lines.append(f'let s = "{text}";')
            elif choice == 3:
                lines.extend([f"unsafe {{ // {phrase(rng, 2)}", f"    {name}.read()", "}"])
            elif choice == 4:
                lines.extend(["/* outer /* inner */", f"   {text} */"])
            else:
                lines.append(f"unsafe{{ {name}() }} /* {phrase(rng, 2)} */")
        elif kind == "javascript":
            choice = rng.randrange(6)
            if choice == 0:
                lines.append(f"const {name} = '{text}';")
            elif choice == 1:
                lines.append(f"// {text}")
            elif choice == 2:
                lines.extend([f"let t = `{phrase(rng, 2)}", f"{text}`;"])
            elif choice == 3:
                lines.append(f"/* {text} */ {name}(deprecated_api);")
            elif choice == 4:
                lines.append(f"{name}(); // TODO({rng.choice(['alice', 'bob'])}) {phrase(rng, 2)}")
            else:
                lines.append(f'const s = "{text}"; // {phrase(rng, 2)}')
        elif kind == "markdown":
            choice = rng.randrange(6)
            if choice == 0:
                lines.append(f"# {text}")
            elif choice == 1:
                lines.append(f"- {text}")
            elif choice == 2:
                lines.append(f"<!-- {text} -->")
            elif choice == 3:
                lines.extend(["```python", f"x = '{phrase(rng, 2)}'  # {phrase(rng, 2)}", "```"])
            elif choice == 4:
                lines.append(f"> {text}")
            else:
                lines.append(text)
        else:  # plaintext, log, unknown
            if kind == "log" and rng.random() < 0.5:
                lines.append(f"2026-11-25T01:0{rng.randint(0, 9)}:00Z WARN {text}")
            else:
                lines.append(text)
    if kind == "short-python":
        # Always something listed to delete: a ticket, which every workspace has as a listed rule.
        lines.insert(rng.randrange(len(lines) + 1), f"# tracked as XY-{rng.randint(1, 999)}")
    return lines


def join_lines(lines: list[str], style: str, rng: random.Random) -> str:
    """The lines joined by `style` line ends ("mixed": each one picked at random)."""
    ends = ["\n", "\r\n", "\r"]
    out = ""
    for index, line in enumerate(lines):
        out += line
        if index < len(lines) - 1 or rng.random() < 0.6:
            out += rng.choice(ends) if style == "mixed" else style
    return out


def generate_config(rng: random.Random) -> tuple[dict, dict]:
    """A `.highlights.json` and the same rules with every unlisted rule switched off."""
    rules = [dict(rule) for rule in RULE_POOL if rule["name"] != "ticket" and rng.random() < 0.7]
    # `ticket` is always there, listed and unrestricted: the unsaved-edit test adds one.
    rules.append(dict(RULE_POOL[0]))
    rng.shuffle(rules)
    for rule in rules:
        rule["list"] = rule["name"] == "ticket" or rng.random() < 0.75
    config: dict = {"rules": rules}
    defaults = rng.random() < 0.75
    if not defaults:
        config["defaults"] = False
    # The built-in `color` rule (colour literals) is not listed: the listed configuration leaves it out.
    if rng.random() < 0.4:
        config["colors"] = True

    listed_rules = [rule if rule["list"] else {"name": rule["name"], "enabled": False} for rule in rules]
    names = {rule["name"] for rule in rules}
    if defaults:
        listed_rules += [
            {"name": name, "enabled": False}
            for name, listed in BUILT_IN_LISTED.items()
            if not listed and name not in names
        ]
    listed = {"rules": listed_rules}
    if not defaults:
        listed["defaults"] = False
    return config, listed


def generate_workspace(seed: int, parent: Path) -> GeneratedWorkspace:
    """Writes the workspace of `seed` under `parent`."""
    rng = random.Random(seed)
    root = parent / "workspace"
    root.mkdir(parents=True)
    config, listed = generate_config(rng)
    (root / ".highlights.json").write_text(json.dumps(config, ensure_ascii=False, indent=1), encoding="utf-8")
    listed_path = parent / "listed-rules.json"
    listed_path.write_text(json.dumps(listed, ensure_ascii=False, indent=1), encoding="utf-8")
    workspace = GeneratedWorkspace(seed=seed, root=root, config=config, listed_config_path=listed_path)

    # Every line end style appears in every workspace.
    styles = ["\n", "\r\n", "\r", "mixed"] * 3
    rng.shuffle(styles)
    for (relative_path, kind), style in zip(FILES, styles):
        if kind == "short-python":
            style = "mixed"
        text = join_lines(source_lines(kind, rng), style, rng)
        data = text.encode("utf-8")
        workspace.files[relative_path] = data
        path = root / relative_path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return workspace


# --- What each path reports ----------------------------------------------------------------

#: A match's part on one line: (file, rule, line, start character, end character), zero-based.
Segment = tuple[str, str, int, int, int]


class FileText:
    """A file's text with conversions from UTF-8 offsets to positions, done with Python's codecs."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.document = Document(data.decode("utf-8"))
        # UTF-8 offset of a character boundary -> code point offset, and UTF-16 offset.
        self.code_point_at: dict[int, int] = {}
        self.utf16_at: dict[int, int] = {}
        offset = 0
        utf16 = 0
        for index, scalar in enumerate(self.document.text):
            self.code_point_at[offset] = index
            self.utf16_at[offset] = utf16
            offset += len(scalar.encode("utf-8"))
            utf16 += len(scalar.encode("utf-16-le")) // 2
        self.code_point_at[offset] = len(self.document.text)
        self.utf16_at[offset] = utf16

    def position(self, utf8_offset: int, encoding: str) -> tuple[int, int]:
        """The position of a UTF-8 offset; an offset between CR and LF is the end of the CR's line."""
        if utf8_offset not in self.code_point_at:
            raise AssertionError(f"UTF-8 offset {utf8_offset} is not a character boundary")
        cp = self.code_point_at[utf8_offset]
        text = self.document.text
        if 0 < cp < len(text) and text[cp - 1] == "\r" and text[cp] == "\n":
            cp -= 1
        return self.document.position(cp, encoding)

    def segments(self, utf8_range: tuple[int, int], encoding: str) -> list[tuple[int, int, int]]:
        """The non-empty (line, start, end) parts of a UTF-8 range, one per line it touches."""
        start_line, start = self.position(utf8_range[0], encoding)
        end_line, end = self.position(utf8_range[1], encoding)
        out = []
        for line in range(start_line, end_line + 1):
            first = start if line == start_line else 0
            last = end if line == end_line else units(self.document.line(line), encoding)
            if last > first:
                out.append((line, first, last))
        return out

    def lsp_range(self, utf8_range: tuple[int, int], encoding: str) -> tuple[int, int, int, int]:
        """A UTF-8 range as (line, start, end line, end)."""
        return (*self.position(utf8_range[0], encoding), *self.position(utf8_range[1], encoding))


@dataclass(frozen=True)
class ListedMatch:
    """One line of `list --json`."""

    path: str
    rule: str
    utf8: tuple[int, int]
    text: str
    line: int
    column: int
    utf16: tuple[int, int]
    #: Code point offsets, when `list` writes them.
    utf32: tuple[int, int] | None = None


def run_list(cwd: Path, arguments: list[str]) -> list[ListedMatch]:
    """Runs `highlight-ls list --json ARGUMENTS` in `cwd` and parses its lines."""
    completed = subprocess.run(
        [server_path(), "list", "--json", *arguments], cwd=cwd, capture_output=True, timeout=120
    )
    assert completed.returncode == 0, (
        f"list --json {' '.join(arguments)} exited with {completed.returncode}\n{completed.stderr.decode('utf-8', 'replace')}"
    )
    matches = []
    for line in completed.stdout.decode("utf-8").splitlines():
        entry = json.loads(line)
        path = entry["path"]
        while path.startswith("./"):
            path = path[2:]
        matches.append(
            ListedMatch(
                path=path, rule=entry["rule"], utf8=tuple(entry["utf8"]), text=entry["text"],
                line=entry["line"], column=entry["column"], utf16=tuple(entry["utf16"]),
                utf32=tuple(entry["utf32"]) if "utf32" in entry else None,
            )
        )
    return matches


def check_listed_fields(matches: list[ListedMatch], files: dict[str, FileText]) -> list[str]:
    """Whether each line of `list --json` agrees with its own `utf8` offsets; the problems found."""
    problems = []
    for match in matches:
        if match.path not in files:
            problems.append(f"list --json names a file that is not in the workspace: {match.path!r}")
            continue
        text = files[match.path]
        start, end = match.utf8
        if not (0 <= start < end <= len(text.data)):
            problems.append(f"{match.path}: utf8 {match.utf8} is outside the file ({len(text.data)} bytes)")
            continue
        if start not in text.code_point_at or end not in text.code_point_at:
            problems.append(f"{match.path}: utf8 {match.utf8} cuts a character")
            continue
        if text.data[start:end].decode("utf-8", "replace") != match.text:
            problems.append(f"{match.path}: utf8 {match.utf8} is {text.data[start:end]!r}, text says {match.text!r}")
        line, character = text.position(start, "utf-8")
        if (match.line, match.column) != (line + 1, character + 1):
            problems.append(
                f"{match.path}: {match.rule} {match.text!r} at utf8 {start}: line:column {match.line}:{match.column}, "
                f"expected {line + 1}:{character + 1}"
            )
        utf16 = (text.utf16_at[start], text.utf16_at[end])
        if match.utf16 != utf16:
            problems.append(f"{match.path}: {match.rule} {match.text!r}: utf16 {match.utf16}, expected {utf16}")
        utf32 = (text.code_point_at[start], text.code_point_at[end])
        if match.utf32 is not None and match.utf32 != utf32:
            problems.append(f"{match.path}: {match.rule} {match.text!r}: utf32 {match.utf32}, expected {utf32}")
    return problems


def expected_segments(matches: list[ListedMatch], files: dict[str, FileText], encoding: str) -> list[Segment]:
    """Every match as its line segments in `encoding`."""
    out = []
    for match in matches:
        for line, start, end in files[match.path].segments(match.utf8, encoding):
            out.append((match.path, match.rule, line, start, end))
    return out


def expected_symbols(matches: list[ListedMatch], files: dict[str, FileText], encoding: str) -> list[tuple]:
    """Every match as (file, rule, line, start, end line, end): its whole range, as docs/PROTOCOL.md says."""
    return [(m.path, m.rule, *files[m.path].lsp_range(m.utf8, encoding)) for m in matches]


def relative_path(workspace: GeneratedWorkspace, uri: str) -> str:
    """The path of a file URI relative to the workspace (whatever the URI's percent-encoding)."""
    parsed = urllib.parse.urlparse(uri)
    path = Path(urllib.parse.unquote(parsed.path))
    try:
        return path.relative_to(workspace.root).as_posix()
    except ValueError:
        return f"<outside the workspace: {uri}>"


async def workspace_symbols(session: Session, workspace: GeneratedWorkspace) -> list[tuple]:
    """`workspace/symbol` with an empty query, as (file, rule, line, start, end line, end)."""
    result = await session.request(session.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")))
    out = []
    for symbol in result or []:
        location = symbol.location
        assert isinstance(location, types.Location), f"a symbol without a range: {symbol!r}"
        r = location.range
        out.append((
            relative_path(workspace, location.uri), symbol.container_name or "",
            r.start.line, r.start.character, r.end.line, r.end.character,
        ))
    return out


def open_file(session: Session, workspace: GeneratedWorkspace, relative: str, text: str, version: int = 1) -> None:
    """`didOpen` with the language `list` guesses for the file."""
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=workspace.uri(relative), language_id=workspace.language(relative), version=version, text=text
            )
        )
    )


# --- Reports ---------------------------------------------------------------------------------


def show_range(item: tuple) -> str:
    """A range (line, start, end line, end) as `line:start-line:end` (zero-based, in the encoding's units)."""
    line, start, end_line, end = item
    return f"{line}:{start}-{end_line}:{end}"


@dataclass
class Column:
    """What one path reported: (file, rule, line, ...) items, each a segment or a symbol range."""

    name: str
    items: list[tuple]


def range_of(item: tuple) -> str:
    """The range of a segment (file, rule, line, start, end) or a symbol (file, rule, line, start, end line, end)."""
    if len(item) == 5:
        return show_range((item[2], item[3], item[2], item[4]))
    return show_range(item[2:])


def disagreements(reference: Column, others: list[Column], describe, context=None) -> list[str]:
    """One line per item of `reference` that some other column lacks, then one per item only another column has.

    Within a (file, rule, line), an item another column lacks is paired, in order, with an item
    only that column has, so that a wrong range is shown next to the right one. `describe(item)`
    says which match an item is; `context(item)` adds what a further path says about it.
    """
    expected = Counter(reference.items)
    missing: dict[str, dict[tuple, list[tuple]]] = {}
    paired: dict[str, dict[tuple, tuple]] = {}
    unpaired: list[str] = []
    for other in others:
        actual = Counter(other.items)
        lacking = sorted((expected - actual).elements())
        extra = sorted((actual - expected).elements())
        by_key: dict[tuple, list[tuple]] = defaultdict(list)
        for item in extra:
            by_key[item[:3]].append(item)
        missing[other.name] = defaultdict(list)
        paired[other.name] = {}
        for item in lacking:
            candidates = by_key.get(item[:3], [])
            partner = candidates.pop(0) if candidates else None
            missing[other.name][item].append(partner)
        for leftover in (item for items in by_key.values() for item in items):
            unpaired.append(
                f"  {leftover[0]}  rule {leftover[1]}  line {leftover[2]}: only in {other.name}: {range_of(leftover)}"
            )
    rows = []
    for item in sorted(set(reference.items)):
        if not any(item in missing[other.name] for other in others):
            continue
        row = [f"  {describe(item)}", f"      {reference.name:<30} {range_of(item)}"]
        for other in others:
            partners = missing[other.name].get(item)
            if partners is None:
                shown = range_of(item)
            else:
                shown = ", ".join(range_of(p) if p is not None else "none" for p in partners)
            row.append(f"      {other.name:<30} {shown}")
        if context is not None:
            row.append(context(item))
        rows.append("\n".join(row))
    return rows + unpaired


def match_describer(matches: list[ListedMatch], files: dict[str, FileText], encoding: str):
    """A function naming the match of a segment or symbol item: its text and byte column."""
    names: dict[tuple, str] = {}
    for match in matches:
        text = files[match.path]
        line, byte = text.position(match.utf8[0], "utf-8")
        width = len(text.document.line(line).encode("utf-8"))
        end = byte + match.utf8[1] - match.utf8[0]
        name = f"{match.path}  rule {match.rule}  {match.text[:40]!r}, bytes {byte}-{end} of a {width}-byte line {line}"
        for segment in text.segments(match.utf8, encoding):
            names.setdefault((match.path, match.rule, *segment), name)
        names.setdefault((match.path, match.rule, *text.lsp_range(match.utf8, encoding)), name)

    def describe(item: tuple) -> str:
        return names.get(item, f"{item[0]}  rule {item[1]}  line {item[2]}")

    return describe


def replay_hint(seed: int, encoding: str) -> str:
    """How to run one failing case again."""
    return (
        f"seed {seed}, {encoding} (replay: HIGHLIGHT_SEED={seed} Tests/client/run.sh test_differential.py "
        f"-k 'seed-{seed} and {encoding}')"
    )


# --- Seeds and what each seed's tests share -------------------------------------------------

FIXED_SEEDS = (17, 20261125)


def fresh_seed() -> int:
    """``$HIGHLIGHT_SEED`` if set, else a new seed for this run."""
    return int(os.environ.get("HIGHLIGHT_SEED", str(time.time_ns() % 1_000_000_007)))


SEEDS = [pytest.param(seed, id=f"seed-{seed}") for seed in dict.fromkeys((*FIXED_SEEDS, fresh_seed()))]


@dataclass
class UnsavedEdit:
    """An edit of `EDITED_FILE` that deletes one listed match and adds a ticket, and list's answers before and after."""

    deleted: ListedMatch
    #: The edit as code point ranges, each applied to the text the ones before it left.
    changes: list[tuple[int, int, str]]
    before: FileText
    after: FileText
    listed_before: list[ListedMatch]
    listed_after: list[ListedMatch]
    #: Every rule's matches in the edited text, for its semantic tokens.
    everything_after: list[ListedMatch]
    added: ListedMatch


@dataclass
class Prepared:
    """A seed's workspace and what `list --json` says about it, shared by the tests of every encoding."""

    workspace: GeneratedWorkspace
    files: dict[str, FileText]
    #: `list --json .` with the workspace's configuration: every rule.
    everything: list[ListedMatch]
    #: `list --json .` with every rule not marked `list` switched off.
    listed: list[ListedMatch]
    edit: UnsavedEdit


def plan_unsaved_edit(seed: int, workspace: GeneratedWorkspace, parent: Path, listed: list[ListedMatch]) -> UnsavedEdit:
    """Deletes a listed single-line match of `EDITED_FILE` and puts a ticket at the start of a line.

    What `list` says about the edited text comes from a copy of the file, saved at the same
    relative path in a folder of its own.
    """
    rng = random.Random(seed ^ 0x5EED)
    before = FileText(workspace.files[EDITED_FILE])
    assert all(len(before.document.line(i).encode("utf-8")) < 400 for i in range(before.document.line_count))
    listed_before = [m for m in listed if m.path == EDITED_FILE]
    single_line = [m for m in listed_before if len(before.segments(m.utf8, "utf-8")) == 1]
    assert single_line, f"seed {seed}: {EDITED_FILE} has no listed single-line match to delete"
    deleted = rng.choice(single_line)

    document = before.document
    changes = [(before.code_point_at[deleted.utf8[0]], before.code_point_at[deleted.utf8[1]], "")]
    document = document.replace(*changes[0])
    # At a line start after LF (or the file's start): no rule's `.` runs into it from the line before.
    starts = [start for start in document.line_starts if start == 0 or document.text[start - 1] == "\n"]
    insert_at = rng.choice(starts)
    changes.append((insert_at, insert_at, "ZZ-4242 "))
    document = document.replace(*changes[1])

    edited_root = parent / "edited"
    (edited_root / EDITED_FILE).parent.mkdir(parents=True)
    data = document.text.encode("utf-8")
    (edited_root / EDITED_FILE).write_bytes(data)
    after = FileText(data)
    listed_after = run_list(edited_root, ["--config", str(workspace.listed_config_path), EDITED_FILE])
    everything_after = run_list(edited_root, ["--config", str(workspace.root / ".highlights.json"), EDITED_FILE])
    problems = check_listed_fields(listed_after + everything_after, {EDITED_FILE: after})
    assert not problems, f"seed {seed}: list --json contradicts its own offsets:\n" + "\n".join(problems)
    added = [m for m in listed_after if m.text.startswith("ZZ-4242")]
    assert added, f"seed {seed}: the edit adds no listed match (the test's edit is wrong)"
    return UnsavedEdit(deleted, changes, before, after, listed_before, listed_after, everything_after, added[0])


def prepare(seed: int, parent: Path) -> Prepared:
    """Generates the workspace of `seed` and runs `list --json` on it."""
    workspace = generate_workspace(seed, parent / "disk")
    files = {path: FileText(data) for path, data in workspace.files.items()}
    everything = run_list(workspace.root, ["."])
    listed = run_list(workspace.root, ["--config", str(workspace.listed_config_path), "."])
    problems = check_listed_fields(everything, files) + check_listed_fields(listed, files)
    assert not problems, f"seed {seed}: list --json contradicts its own offsets:\n" + "\n".join(problems)
    # A workspace where nothing listed is past byte 400 of its line, or where some file has no
    # match at all, would prove little.
    assert any(files[m.path].position(m.utf8[0], "utf-8")[1] > 400 for m in listed), "no listed match past byte 400"
    assert {m.path for m in everything} == set(files), f"files without matches: {set(files) - {m.path for m in everything}}"
    # workspace/symbol answers at most 10,000 symbols (docs/PROTOCOL.md).
    assert len(listed) < 10_000, f"seed {seed}: {len(listed)} listed matches, more than workspace/symbol returns"
    edit = plan_unsaved_edit(seed, workspace, parent, listed)
    return Prepared(workspace, files, everything, listed, edit)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """`prepared(seed)`: the seed's `Prepared`, made once per test run."""
    cache: dict[int, Prepared] = {}

    def get(seed: int) -> Prepared:
        if seed not in cache:
            cache[seed] = prepare(seed, tmp_path_factory.mktemp(f"seed-{seed}"))
        return cache[seed]

    return get


# --- 1. The three paths agree ----------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_list_tokens_and_symbols_agree(prepared, seed: int, encoding: str) -> None:
    """`list --json`, semantic tokens after didOpen and workspace/symbol report the same (file, range, rule)."""
    print(f"differential workspace: {replay_hint(seed, encoding)}")
    state = prepared(seed)
    workspace, files = state.workspace, state.files
    expected_tokens = expected_segments(state.everything, files, encoding)
    expected_listed = expected_symbols(state.listed, files, encoding)
    observed: dict[str, list[tuple]] = {}

    async def scenario(session: Session) -> None:
        assert session.encoding == encoding, f"offered only {encoding}, the server chose {session.encoding}"
        observed["closed"] = await workspace_symbols(session, workspace)
        tokens: list[Segment] = []
        for path, text in files.items():
            open_file(session, workspace, path, text.document.text)
            full = await session.full(workspace.uri(path))
            for token in decode_tokens(full.data, session.legend, text.document, encoding):
                tokens.append((path, token.rule, token.line, token.start, token.start + token.length))
        observed["tokens"] = tokens
        observed["open"] = await workspace_symbols(session, workspace)

    run_session(workspace.root, [encoding], scenario)

    describe = match_describer(state.everything + state.listed, files, encoding)
    tokens_at: dict[tuple, list[tuple]] = defaultdict(list)
    for token in observed["tokens"]:
        tokens_at[token[:4]].append(token)

    def tokens_there(symbol: tuple) -> str:
        found = ", ".join(range_of(token) for token in tokens_at.get(symbol[:4], [])) or "none (another rule wins when all apply)"
        return f"      {'semanticTokens/full':<30} {found}"

    token_rows = disagreements(
        Column("list --json", expected_tokens), [Column("semanticTokens/full", observed["tokens"])], describe
    )
    symbol_rows = disagreements(
        Column("list --json (listed rules)", expected_listed),
        [Column("workspace/symbol (none open)", observed["closed"]), Column("workspace/symbol (all open)", observed["open"])],
        describe, tokens_there,
    )
    shown = 40
    report = []
    for title, rows in (("semantic tokens", token_rows), ("workspace symbols", symbol_rows)):
        if rows:
            report.append(f" {len(rows)} {title} disagree with list --json:")
            report += rows[:shown] + ([f"  ... and {len(rows) - shown} more"] if len(rows) > shown else [])
    if report:
        pytest.fail(
            f"{replay_hint(seed, encoding)}: the three paths disagree ({len(expected_tokens)} line segments, "
            f"{len(expected_listed)} listed matches in {len(files)} files). Ranges are line:character, zero-based, "
            f"in {encoding}; those of list --json are converted here from its utf8 offsets.\n" + "\n".join(report),
            pytrace=False,
        )


# --- 2. workspace/symbol reads the editor's text ---------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_workspace_symbol_follows_unsaved_edits(prepared, seed: int, encoding: str) -> None:
    """An unsaved edit that deletes one listed match and adds another shows in workspace/symbol; didClose goes back to the disk."""
    print(f"differential workspace: {replay_hint(seed, encoding)}")
    state = prepared(seed)
    workspace, edit = state.workspace, state.edit
    expected_before = sorted(expected_symbols(edit.listed_before, {EDITED_FILE: edit.before}, encoding))
    expected_after = sorted(expected_symbols(edit.listed_after, {EDITED_FILE: edit.after}, encoding))
    assert expected_after != expected_before

    # The changes in the negotiated encoding, each on the text the ones before it left.
    wire_changes = []
    document = edit.before.document
    for start, end, new_text in edit.changes:
        wire_changes.append((document.position(start, encoding), document.position(end, encoding), new_text))
        document = document.replace(start, end, new_text)
    assert document.text == edit.after.document.text
    uri = workspace.uri(EDITED_FILE)
    observed: dict[str, list[tuple]] = {}

    async def scenario(session: Session) -> None:
        assert session.encoding == encoding
        open_file(session, workspace, EDITED_FILE, edit.before.document.text)
        session.change(uri, 2, wire_changes)
        full = await session.full(uri)
        observed["tokens"] = [
            (EDITED_FILE, t.rule, t.line, t.start, t.start + t.length)
            for t in decode_tokens(full.data, session.legend, document, encoding)
        ]
        observed["edited"] = sorted(s for s in await workspace_symbols(session, workspace) if s[0] == EDITED_FILE)
        session.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        observed["closed"] = sorted(s for s in await workspace_symbols(session, workspace) if s[0] == EDITED_FILE)

    run_session(workspace.root, [encoding], scenario)

    added_range = edit.after.lsp_range(edit.added.utf8, encoding)
    deleted_range = edit.before.lsp_range(edit.deleted.utf8, encoding)
    what = (
        f"{replay_hint(seed, encoding)}: in {EDITED_FILE}, unsaved, {edit.deleted.rule} {edit.deleted.text!r} at "
        f"{show_range(deleted_range)} deleted and {edit.added.rule} 'ZZ-4242' added at {show_range(added_range)}"
    )
    # The semantic tokens show that the server has the edited text.
    expected_tokens = expected_segments(edit.everything_after, {EDITED_FILE: edit.after}, encoding)
    token_rows = disagreements(
        Column("list --json (edited text)", expected_tokens), [Column("semanticTokens/full", observed["tokens"])],
        match_describer(edit.everything_after, {EDITED_FILE: edit.after}, encoding),
    )
    assert not token_rows, f"{what}: the semantic tokens differ from list --json on the edited text:\n" + "\n".join(token_rows)

    def difference(expected: list[tuple], actual: list[tuple]) -> str:
        missing = ", ".join(f"{s[1]} {range_of(s)}" for s in sorted((Counter(expected) - Counter(actual)).elements())) or "-"
        extra = ", ".join(f"{s[1]} {range_of(s)}" for s in sorted((Counter(actual) - Counter(expected)).elements())) or "-"
        return f"missing: {missing}; unexpected: {extra}"

    if observed["edited"] != expected_after:
        diagnosis = (
            "it lists the file on disk, not the editor's text"
            if observed["edited"] == expected_before
            else "it lists neither the editor's text nor the disk's"
        )
        pytest.fail(
            f"{what}: workspace/symbol does not reflect the edit ({diagnosis}); "
            f"{difference(expected_after, observed['edited'])}",
            pytrace=False,
        )
    assert observed["closed"] == expected_before, (
        f"{what}: after didClose, workspace/symbol does not list the file on disk again; "
        f"{difference(expected_before, observed['closed'])}"
    )
