"""Drives one LSP session with the server binary over stdio, as one client profile.

The session uses every feature the server has, in the order an editor would: initialize with
a workspace whose ``.highlights.json`` has a regex rule, a blocking rule, links, messages,
severities, styled groups, colour literals and a deliberate mistake; documents with emoji, CJK,
``\\r\\n`` and a lone ``\\r``, and the configuration file itself, opened and edited
incrementally; semantic tokens full, delta and range; decorations and matches; hover, links,
outline, colours; pull diagnostics; marks through code actions and commands, and the rule
written into ``.highlights.json`` through a workspace edit; configuration changes through
settings, a save and a watched file; ``workspace/symbol`` with partial results, superseded and
cancelled; then shutdown and exit. Every message both ways goes through the ``Checker`` in the
order it was written or read.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlparse

from checker import Checker
from profiles import Profile
from text import Text, read_file

#: Seconds any one request may take.
REQUEST_TIMEOUT = 20.0
#: Seconds without a message after which the server is taken to have nothing more to say.
QUIET = 0.25
CONTENT_MODIFIED = -32801

CONFIG = """{
  // The conformance workspace: a regex with a styled group, a blocking rule, links and messages.
  "colors": true,
  "styles": { "alarm": { "color": "#fff", "backgroundColor": "#d32f2f", "gutter": "!", "wholeLine": true } },
  "rules": [
    { "name": "todo", "words": ["TODO"], "wholeWord": true, "list": true, "severity": "information", "message": "to do: $0" },
    { "name": "ticket", "regex": "\\\\b(?P<project>[A-Z]{2,})-[0-9]+\\\\b", "severity": "hint",
      "message": "ticket $0 of ${project}", "link": "https://tracker.example/browse/$0",
      "groups": { "project": { "bold": true } } },
    { "name": "nomerge", "words": ["DO NOT MERGE"], "blocking": true, "severity": "error", "style": "alarm" },
    { "name": "manual", "words": ["RTFM"], "link": "https://docs.example/$0" },
    { "name": "cafe", "words": ["café"], "caseSensitive": false, "wholeWord": true },
    { "name": "broken", "words": ["日本語 🎌"], "casesensitive": false },
  ],
}
"""

NOTES = (
    "# Notes 🎉 for ABC-123\n"
    "TODO: fix the parser — 日本語のテキスト TODO again\r\n"
    "Ticket XYZ-9 👩‍👩‍👧 DO NOT MERGE, see RTFM\n"
    "Colours: #ff0000, rgb(0 128 255 / 50%), hsl(120, 100%, 50%)\r"
    "FIXME: café CAFÉ 𝄞 HACK ☕ TODO\n"
    "plain words only\n"
)

APP = (
    "# TODO(owner): 🚀 launch the ABC-77 thing\n"
    "def main():\n"
    "    return \"FIXME in a string\"  # HACK: 中文 and RTFM\n"
)

OTHER = "A second folder with no configuration: mark WORD here, TODO too.\n"

#: Files of the workspace-wide list: enough for a scan that takes a while and for server-created progress.
GENERATED_FILES = 1200


@dataclass
class Workspace:
    """The folders of one session, written fresh for it."""

    root: Path
    folder: Path
    other: Path

    @property
    def config(self) -> Path:
        return self.folder / ".highlights.json"


def make_workspace(base: Path) -> Workspace:
    """Writes the workspace folder (a repository root, so nothing above it is read) and a second one."""
    folder, other = base / "ws", base / "other"
    for path in (folder / ".git", folder / "src", folder / "gen", other / ".git"):
        path.mkdir(parents=True)
    (folder / ".highlights.json").write_text(CONFIG, encoding="utf-8")
    (folder / "notes.md").write_text(NOTES, encoding="utf-8", newline="")
    (folder / "src" / "app.py").write_text(APP, encoding="utf-8")
    for index in range(GENERATED_FILES):
        (folder / "gen" / f"f{index:04}.txt").write_text(
            f"line one\n  TODO item {index} ✓ 🍕 done\nend ABC-{index}\n", encoding="utf-8")
    (other / "readme.txt").write_text(OTHER, encoding="utf-8")
    return Workspace(base, folder, other)


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def path_of(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def last_first(edits: list[dict]) -> list[dict]:
    """TextEdits of one text, the last first, so that each applies to the text the others leave."""
    return sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True)


class Connection:
    """The server process, with Content-Length framing, and every message through the checker."""

    def __init__(self, binary: str, profile: Profile, checker: Checker) -> None:
        self.binary = binary
        self.profile = profile
        self.checker = checker
        self.transcript: list[tuple[str, dict]] = []
        self.pending: dict[int, asyncio.Future] = {}
        self.next_id = 1
        self.stderr = bytearray()
        self.last_message = 0.0
        self.process: asyncio.subprocess.Process | None = None
        self._progress_seen: dict[str, asyncio.Event] = {}
        #: Applies a `workspace/applyEdit` the client accepts, before it answers (set by the session).
        self.apply_edit = lambda edit: None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            self.binary, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, limit=1 << 26)
        self.last_message = asyncio.get_running_loop().time()
        self._reader = asyncio.create_task(self._read())
        self._stderr = asyncio.create_task(self._drain_stderr())

    def _write(self, message: dict) -> None:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        self.last_message = asyncio.get_running_loop().time()
        self.transcript.append(("out", message))
        self.checker.outgoing(message)
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, method: str, params: dict | None = None) -> tuple[int, asyncio.Future]:
        """Sends a request; its id and the future of its response message."""
        request_id = self.next_id
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)
        return request_id, future

    async def request(self, method: str, params: dict | None = None) -> dict:
        """Sends a request and waits for its response message."""
        _, future = self.send(method, params)
        return await asyncio.wait_for(future, REQUEST_TIMEOUT)

    def notify(self, method: str, params: dict | None = None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)

    def progress_seen(self, token: str) -> asyncio.Event:
        return self._progress_seen.setdefault(token, asyncio.Event())

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        stdout = self.process.stdout
        loop = asyncio.get_running_loop()
        while True:
            length = None
            while True:
                line = await stdout.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = await stdout.readexactly(length or 0)
            message = json.loads(body)
            self.last_message = loop.time()
            self.transcript.append(("in", message))
            self.checker.incoming(message)
            self._dispatch(message)

    def _dispatch(self, message: dict) -> None:
        if "method" in message and "id" in message:
            answer = self.profile.answer(message["method"], message.get("params"))
            if message["method"] == "workspace/applyEdit" and "result" in answer:
                self.apply_edit(((message.get("params") or {}).get("edit")) or {})
            self._write({"jsonrpc": "2.0", "id": message["id"], **answer})
        elif "method" in message:
            if message["method"] == "$/progress":
                self.progress_seen(json.dumps((message.get("params") or {}).get("token"))).set()
        else:
            future = self.pending.pop(message.get("id"), None)
            if future is not None and not future.done():
                future.set_result(message)

    async def _drain_stderr(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(65536):
            self.stderr += chunk

    async def settle(self, limit: float = 10.0) -> None:
        """Waits until every request is answered and the server has been quiet for a moment."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while loop.time() < deadline:
            if not self.pending and loop.time() - self.last_message >= QUIET:
                return
            await asyncio.sleep(0.05)

    async def finish(self) -> int | None:
        """Waits for the process to exit after `exit`; its exit code (None if it did not)."""
        assert self.process is not None
        try:
            code = await asyncio.wait_for(self.process.wait(), 10)
        except asyncio.TimeoutError:
            self.process.kill()
            await self.process.wait()
            code = None
        await asyncio.gather(self._reader, self._stderr, return_exceptions=True)
        return code


@dataclass
class Document:
    """A document the client holds open: its text in the client's hands, and its version."""

    uri: str
    language: str
    text: Text
    version: int = 1
    token_result: str | None = None


@dataclass
class Session:
    """One profile's session: the connection, the workspace and the open documents."""

    connection: Connection
    workspace: Workspace
    profile: Profile
    encoding: str = "utf-16"
    documents: dict[str, Document] = field(default_factory=dict)
    #: What the session could not exercise (the checks would then prove less).
    gaps: list[str] = field(default_factory=list)

    # -- documents -------------------------------------------------------------------------------

    def open(self, path: Path, language: str) -> Document:
        text = read_file(path) if path.exists() else ""
        document = Document(uri_of(path), language, Text(text))
        self.documents[document.uri] = document
        self.connection.notify("textDocument/didOpen", {"textDocument": {
            "uri": document.uri, "languageId": language, "version": 1, "text": text}})
        return document

    def change(self, document: Document, *edits: tuple[int, int, str]) -> None:
        """One didChange of incremental changes, each (start, end, new text) in the text it applies to."""
        changes = []
        for start, end, new_text in edits:
            change_range = {"start": document.text.position(start, self.encoding),
                            "end": document.text.position(end, self.encoding)}
            changes.append({"range": change_range, "text": new_text})
            document.text = document.text.replaced(change_range, new_text, self.encoding)
        document.version += 1
        self.connection.notify("textDocument/didChange", {
            "textDocument": {"uri": document.uri, "version": document.version}, "contentChanges": changes})

    def apply_edits(self, document: Document, edits: list[dict]) -> None:
        """Applies a server's TextEdits (all on the same text) as one didChange, last edit first."""
        changes = []
        for edit in last_first(edits):
            changes.append({"range": edit["range"], "text": edit["newText"]})
            document.text = document.text.replaced(edit["range"], edit["newText"], self.encoding)
        document.version += 1
        self.connection.notify("textDocument/didChange", {
            "textDocument": {"uri": document.uri, "version": document.version}, "contentChanges": changes})

    def close(self, document: Document) -> None:
        self.documents.pop(document.uri, None)
        self.connection.notify("textDocument/didClose", {"textDocument": {"uri": document.uri}})

    async def call(self, method: str, params: dict | None = None, *, expect_result: bool = True) -> object:
        """A request's result; a missing result is noted as a gap (the server's error is checked anyway).

        A ContentModified answer (a configuration reload overtook the request) is retried, as editors do.
        """
        for _ in range(3):
            response = await self.connection.request(method, params)
            if (response.get("error") or {}).get("code") != CONTENT_MODIFIED:
                break
        if expect_result and "result" not in response:
            self.gaps.append(f"{method} answered {response.get('error')}")
        return response.get("result")

    def at(self, document: Document, needle: str, shift: int = 0, occurrence: int = 0) -> dict:
        return {"textDocument": {"uri": document.uri}, "position": document.text.find(needle, self.encoding, occurrence, shift)}

    # -- the script ------------------------------------------------------------------------------

    async def run(self) -> int | None:
        """The whole session; returns the server's exit code."""
        connection, workspace, profile = self.connection, self.workspace, self.profile
        await connection.start()
        initialize = await self.call("initialize", self.initialize_params())
        self.encoding = (initialize or {}).get("capabilities", {}).get("positionEncoding", "utf-16")
        connection.notify("initialized", {})
        await connection.settle()

        notes = self.open(workspace.folder / "notes.md", "markdown")
        app = self.open(workspace.folder / "src" / "app.py", "python")
        config = self.open(workspace.config, "json")
        other = self.open(workspace.other / "readme.txt", "plaintext") if profile.second_folder else None
        await connection.settle()

        await self.read_everything([notes, app, config])
        await self.marks(notes)
        await self.rule_into_config(notes, config, other)
        await self.edits(notes)
        await self.configuration_changes(config)
        await self.workspace_symbols()
        await self.read_everything([notes, app])

        connection.notify("textDocument/didSave", {"textDocument": {"uri": notes.uri}})
        for document in list(self.documents.values()):
            self.close(document)
        await connection.settle()
        await self.call("shutdown", expect_result=False)
        connection.notify("exit")
        return await connection.finish()

    def initialize_params(self) -> dict:
        profile, folder = self.profile, self.workspace.folder
        params: dict = {"processId": os.getpid(), "clientInfo": {"name": f"conformance ({profile.name})", "version": "1"},
                        "capabilities": profile.capabilities, "trace": profile.trace}
        if profile.workspace_by == "workspaceFolders":
            folders = [folder] + ([self.workspace.other] if profile.second_folder else [])
            params["workspaceFolders"] = [{"uri": uri_of(path), "name": path.name} for path in folders]
            params["rootUri"] = uri_of(folder)
        elif profile.workspace_by == "rootUri":
            params["rootUri"] = uri_of(folder)
        else:
            params["rootPath"] = str(folder)
        if profile.initialization_options is not None:
            params["initializationOptions"] = profile.initialization_options
        return params

    async def read_everything(self, documents: list[Document]) -> None:
        """Every request that reads a document, on each of them."""
        for document in documents:
            identifier = {"textDocument": {"uri": document.uri}}
            tokens = await self.call("textDocument/semanticTokens/full", identifier)
            document.token_result = (tokens or {}).get("resultId")
            last = max(0, document.text.line_count - 2)
            await self.call("textDocument/semanticTokens/range", {**identifier, "range": {
                "start": {"line": 1, "character": 0}, "end": {"line": last, "character": 0}}})
            await self.call("highlight/decorations", identifier)
            await self.call("highlight/matches", identifier)
            await self.call("textDocument/documentLink", identifier)
            await self.call("textDocument/documentSymbol", identifier)
            colors = await self.call("textDocument/documentColor", identifier)
            for color in (colors or [])[:2]:
                await self.call("textDocument/colorPresentation", {**identifier, **color})
            report = await self.call("textDocument/diagnostic", identifier)
            await self.call("textDocument/diagnostic", {**identifier, "previousResultId": (report or {}).get("resultId", "")})
            for needle in ("TODO", "ABC-", "#ff0000", "RTFM", "👩", "café", "only", "launch"):
                if needle in document.text.text:
                    await self.call("textDocument/hover", self.at(document, needle, shift=1), expect_result=False)

    async def code_actions(self, document: Document, needle: str, *, length: int = 0, shift: int = 1,
                           only: list[str] | None = None) -> list[dict]:
        start = document.text.find(needle, self.encoding, shift=shift if not length else 0)
        end = document.text.find(needle, self.encoding, shift=length) if length else start
        context: dict = {"diagnostics": [], "triggerKind": 1}
        if only is not None:
            context["only"] = only
        result = await self.call("textDocument/codeAction", {
            "textDocument": {"uri": document.uri}, "range": {"start": start, "end": end}, "context": context})
        return result if isinstance(result, list) else []

    async def run_command(self, action: dict) -> None:
        command = action["command"] if isinstance(action.get("command"), dict) else action
        await self.call("workspace/executeCommand", {"command": command["command"], "arguments": command.get("arguments", [])},
                        expect_result=False)
        await self.connection.settle()

    async def marks(self, notes: Document) -> None:
        """Marks a word, offers its removal, removes it, marks a selection, clears every mark."""
        actions = await self.code_actions(notes, "parser")
        mark = next((a for a in actions if a["title"].startswith("Highlight «parser»") and "command" in a), None)
        if mark is None:
            self.gaps.append(f"no 'Highlight «parser»' action: {[a.get('title') for a in actions]}")
            return
        await self.run_command(mark)
        actions = await self.code_actions(notes, "parser")
        remove = next((a for a in actions if a["title"].startswith("Remove highlight")), None)
        if remove is None:
            self.gaps.append("no 'Remove highlight' action after marking")
        else:
            await self.run_command(remove)
        selection = await self.code_actions(notes, "日本語", length=3)
        if selection:
            await self.run_command(selection[0])
        actions = await self.code_actions(notes, "the")
        clear = next((a for a in actions if a["title"] == "Remove all highlights"), None)
        if clear is None:
            self.gaps.append("no 'Remove all highlights' action")
        else:
            await self.run_command(clear)
        await self.code_actions(notes, "parser", only=["quickfix"])
        await self.connection.request("workspace/executeCommand", {"command": "highlight.nosuchcommand", "arguments": []})

    async def rule_into_config(self, notes: Document, config: Document, other: Document | None) -> None:
        """Takes 'Highlight «word» in .highlights.json' and applies its edit as the editor would."""
        actions = await self.code_actions(notes, "parser")
        into = next((a for a in actions if ".highlights.json" in a["title"]), None)
        if into is None:
            # Without literals the rule is written through workspace/applyEdit, so a client without that gets no action.
            if self.profile.announces("textDocument.codeAction.codeActionLiteralSupport") or self.profile.announces("workspace.applyEdit"):
                self.gaps.append(f"no action writing into .highlights.json: {[a.get('title') for a in actions]}")
        elif isinstance(into.get("edit"), dict):
            self.apply_workspace_edit(into["edit"])
        else:
            await self.run_command(into)  # the server sends the edit through workspace/applyEdit
        self.connection.notify("textDocument/didSave", {"textDocument": {"uri": config.uri}})
        await self.connection.settle()
        if other is not None:
            actions = await self.code_actions(other, "WORD")
            create = next((a for a in actions if ".highlights.json" in a["title"]), None)
            if create is None:
                self.gaps.append("no edit creating the second folder's .highlights.json")
            elif isinstance(create.get("edit"), dict):
                self.apply_workspace_edit(create["edit"])
            else:
                await self.run_command(create)
            await self.connection.settle()

    def apply_workspace_edit(self, edit: dict) -> None:
        """Applies a WorkspaceEdit: open documents through didChange, files on disk and a watcher event."""
        events = []
        by_uri: list[tuple[str, list[dict]]] = list((edit.get("changes") or {}).items())
        for change in edit.get("documentChanges") or []:
            if change.get("kind") == "create":
                path = path_of(change["uri"])
                if not path.exists():
                    path.write_text("", encoding="utf-8")
                    events.append({"uri": change["uri"], "type": 1})
            elif "textDocument" in change:
                by_uri.append((change["textDocument"]["uri"], change.get("edits", [])))
        for uri, edits in by_uri:
            if uri in self.documents:
                self.apply_edits(self.documents[uri], edits)
                continue
            path = path_of(uri)
            text = Text(read_file(path) if path.exists() else "")
            for text_edit in last_first(edits):
                text = text.replaced(text_edit["range"], text_edit["newText"], self.encoding)
            path.write_text(text.text, encoding="utf-8", newline="")
            if not any(event["uri"] == uri for event in events):
                events.append({"uri": uri, "type": 2})
        if events:
            self.connection.notify("workspace/didChangeWatchedFiles", {"changes": events})

    async def edits(self, notes: Document) -> None:
        """Incremental edits around emoji, CJK and line ends, each followed by a tokens delta."""
        after_emoji = notes.text.text.index("🎉") + 2
        self.change(notes, (after_emoji, after_emoji, "TODO 🚀 new "))
        await self.delta(notes)
        # Two changes in one notification, the second in the text the first leaves.
        cjk = notes.text.text.index("日本語")
        fixme = notes.text.text.index("FIXME")
        self.change(notes, (cjk, cjk + 3, "中文字"), (fixme + 1, fixme + 1, "ZZ-42 "))
        await self.delta(notes)
        joint = notes.text.text.index("again") + len("again")
        self.change(notes, (joint, joint + 3, " "))  # "\r\nTi" becomes " ": two lines join
        await self.delta(notes)
        end = len(notes.text.text)
        self.change(notes, (end, end, "TODO: 𝄞 appended ☕ XYZ-77\n"))
        await self.delta(notes)
        identifier = {"textDocument": {"uri": notes.uri}}
        await self.call("textDocument/semanticTokens/range", {**identifier, "range": {
            "start": {"line": 0, "character": 0}, "end": {"line": notes.text.line_count - 1, "character": 0}}})
        await self.call("textDocument/hover", self.at(notes, "🚀", shift=1), expect_result=False)
        await self.call("textDocument/documentLink", identifier)
        await self.call("textDocument/diagnostic", identifier)
        await self.connection.settle()

    async def delta(self, document: Document) -> None:
        result = await self.call("textDocument/semanticTokens/full/delta", {
            "textDocument": {"uri": document.uri}, "previousResultId": document.token_result or ""})
        document.token_result = (result or {}).get("resultId", document.token_result)

    async def configuration_changes(self, config: Document) -> None:
        """Settings pushed, then pulled; the configuration file closed, changed on disk and watched."""
        connection = self.connection
        connection.notify("workspace/didChangeConfiguration", {"settings": {"highlight": {"rules": [
            {"name": "settingsrule", "words": ["plain"], "severity": "warning", "link": "https://docs.example/$0",
             "message": "a plain word"}]}}})
        await connection.settle()
        connection.notify("workspace/didChangeConfiguration", {"settings": None})
        await connection.settle()
        self.close(config)
        await connection.settle()
        path = self.workspace.config
        path.write_text(read_file(path).replace(
            '"rules": [', '"rules": [\n    { "name": "extra", "words": ["words"], "severity": "hint" },', 1), encoding="utf-8")
        connection.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri_of(path), "type": 2}]})
        await connection.settle()

    async def workspace_symbols(self) -> None:
        """The workspace list: in partial results, superseded by a newer request, and cancelled."""
        connection = self.connection
        def params(query: str, name: str | None) -> dict:
            result: dict = {"query": query}
            if name is not None:
                result["partialResultToken"] = f"partial-{name}"
                if self.profile.sends_work_done_token:
                    result["workDoneToken"] = f"work-{name}"
            return result

        await self.call("workspace/symbol", params("", "all"))
        # The same search counted per rule, for status lines.
        await self.call("highlight/counts", {})
        # A configuration change makes the next search scan every file again, so it is still running when superseded.
        await self.call("workspace/executeCommand", {"command": "highlight.mark", "arguments": [{"text": "plain", "wholeWord": True}]},
                        expect_result=False)
        _, superseded = connection.send("workspace/symbol", params("item", "superseded"))
        _, superseding = connection.send("workspace/symbol", params("todo:", "superseding"))
        await asyncio.wait_for(asyncio.gather(superseded, superseding), REQUEST_TIMEOUT)
        await self.call("workspace/executeCommand", {"command": "highlight.clearMarks", "arguments": []}, expect_result=False)
        cancelled_id, cancelled = connection.send("workspace/symbol", params("", "cancelled"))
        try:
            await asyncio.wait_for(connection.progress_seen(json.dumps("partial-cancelled")).wait(), 5)
        except asyncio.TimeoutError:
            self.gaps.append("no partial result before the $/cancelRequest")
        connection.notify("$/cancelRequest", {"id": cancelled_id})
        await asyncio.wait_for(cancelled, REQUEST_TIMEOUT)
        await self.call("workspace/symbol", params("ABC", None))
        await connection.settle()


async def run_session(binary: str, profile: Profile, base: Path) -> tuple[Checker, Session, int | None]:
    """Runs one profile's session in a fresh workspace under ``base``; the checker holds the verdict."""
    workspace = make_workspace(base)
    checker = Checker(roots=[workspace.folder, workspace.other])
    connection = Connection(binary, profile, checker)
    session = Session(connection, workspace, profile)
    connection.apply_edit = session.apply_workspace_edit
    try:
        code = await session.run()
    finally:
        if connection.process is not None and connection.process.returncode is None:
            connection.process.kill()
            await connection.process.wait()
    checker.finish(code)
    return checker, session, code
