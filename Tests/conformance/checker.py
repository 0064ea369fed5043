"""Checks every message a language server sends against LSP 3.17 and the client's capabilities.

A ``Checker`` reads one session's transcript in order: each message the client sent
(``outgoing``) and each one the server sent (``incoming``). Every incoming message is checked
twice.

**The meta model.** The message is structured with lsprotocol's converter into the class the
meta model gives its method (a response into the method's response class, a notification or a
server request into its message class, a ``$/progress`` value into the partial result of its
request or into a work-done progress value), then unstructured again. A value that cannot be
structured, a key the round trip drops (a field the type does not have, or an explicit ``null``
for a field that is not nullable), a key it adds (a required field missing) or a value it
changes is a violation. Primitives are structured strictly (cattrs would turn ``5`` into
``"5"``), and a ``Command | CodeAction`` is told apart by the type of its ``command`` field, as
the specification does (lsprotocol 2023.0.1 takes any object with a ``command`` key for a
``Command``). Custom ``highlight/*`` methods and ``experimental`` payloads are outside the meta
model: they are recorded and only their positions are checked.

**The client's capabilities and the session's state.** Each rule below has an id, which the
report shows.

| rule | message | what must hold | what the client announces |
|---|---|---|---|
| `lifecycle.beforeInitialize` | any | before the `initialize` response only `window/showMessage`, `window/logMessage`, `telemetry/event`, `window/showMessageRequest` | - |
| `response.*` | responses | one response per request (`missing`, `duplicate`, `unknownId`), `result` xor `error` (`shape`) | - |
| `encoding.negotiated` | `initialize` | `positionEncoding` is one the client offered, else `utf-16` | `general.positionEncodings` |
| `position` | every range and position of a document the client opened or a file of the workspace | the line exists; the character is a character boundary of the line, not past its end, in the negotiated encoding; start <= end | `general.positionEncodings` |
| `documentLink.tooltip` | `textDocument/documentLink` | no `tooltip` | `textDocument.documentLink.tooltipSupport` |
| `codeAction.literal` | `textDocument/codeAction` | bare `Command`s only (`command` a string), no `CodeAction` literals | `textDocument.codeAction.codeActionLiteralSupport` |
| `codeAction.isPreferred` / `.disabled` / `.data` | `textDocument/codeAction` | no such field | `…codeAction.isPreferredSupport` / `disabledSupport` / `dataSupport` |
| `workspaceEdit.documentChanges` | code action edits, `workspace/applyEdit` | `changes` only | `workspace.workspaceEdit.documentChanges` |
| `workspaceEdit.resourceOperations` | the same | `create` / `rename` / `delete` only when listed | `workspace.workspaceEdit.resourceOperations` |
| `workspaceEdit.changeAnnotations` | the same | no `changeAnnotations`, no `annotationId` | `workspace.workspaceEdit.changeAnnotationSupport` |
| `workspaceEdit.version` | the same | a `TextDocumentEdit` of an open document names its current version | - |
| `diagnostics.version` | `textDocument/publishDiagnostics` | no `version` | `textDocument.publishDiagnostics.versionSupport` |
| `diagnostics.codeDescription` | the same | no `codeDescription` | `…publishDiagnostics.codeDescriptionSupport` |
| `diagnostics.tags` | the same | `tags` only from `tagSupport.valueSet` | `…publishDiagnostics.tagSupport` |
| `diagnostics.relatedInformation` | the same | no `relatedInformation` | `…publishDiagnostics.relatedInformation` |
| `diagnostics.data` | the same | no `data` | `…publishDiagnostics.dataSupport` |
| `diagnostics.relatedDocuments` | `textDocument/diagnostic` | no `relatedDocuments` | `textDocument.diagnostic.relatedDocumentSupport` |
| `hover.markdown` | `textDocument/hover` | `MarkupContent` of kind `markdown` only when listed | `textDocument.hover.contentFormat` |
| `documentSymbol.hierarchical` | `textDocument/documentSymbol` | `SymbolInformation[]`, not `DocumentSymbol[]` | `textDocument.documentSymbol.hierarchicalDocumentSymbolSupport` |
| `documentSymbol.containment` | the same | `selectionRange` inside `range`, children inside their parent | - |
| `symbol.kind` | `documentSymbol`, `workspace/symbol` | `kind` in `symbolKind.valueSet` (File..Array when absent) | `….symbolKind` |
| `symbol.tags` | the same | `tags` only from `tagSupport.valueSet` | `….tagSupport` |
| `workspaceSymbol.resolve` | `workspace/symbol` | every `location` has a `range` | `workspace.symbol.resolveSupport` |
| `semanticTokens.legend` | `textDocument/semanticTokens/*` | type and modifier indices inside the legend announced (in `initialize` or the latest registration) | - |
| `semanticTokens.order` | the same | tokens sorted (no negative delta) | - |
| `semanticTokens.multiline` | the same | a token ends on its line | `textDocument.semanticTokens.multilineTokenSupport` |
| `semanticTokens.overlap` | the same | tokens do not overlap | `textDocument.semanticTokens.overlappingTokenSupport` |
| `semanticTokens.delta` | `…/full/delta` | edits of a result the client holds, inside it | - |
| `progress.partialAfterResponse` | `$/progress` | no partial result for a request after its response (a result or an error, -32800 included) | - |
| `progress.workDoneAfterResponse` | `$/progress` | no work done progress on a request's `workDoneToken` after its response (the token is valid only until then) | - |
| `progress.partialThenResult` | responses | after partial results the response's result is empty | - |
| `progress.unknownToken` | `$/progress` | the token is a request's `workDoneToken`/`partialResultToken` or one the client created | - |
| `progress.notCreated` | `$/progress` | a server token is used only after the client answered its `create` with success | - |
| `progress.workDone` | `window/workDoneProgress/create`, `$/progress` with a server token | - | `window.workDoneProgress` |
| `progress.sequence` | `$/progress` (work done) | `begin` once first, `end` last, nothing after `end`; a server token's `begin` ended by the session's end | - |
| `request.<method>` | server requests | `workspace/semanticTokens/refresh`, `…/inlayHint/refresh`, `…/inlineValue/refresh`, `…/codeLens/refresh`, `…/foldingRange/refresh`, `workspace/diagnostic/refresh`, `workspace/configuration`, `workspace/workspaceFolders`, `window/showDocument`, `workspace/applyEdit` only when announced | the `refreshSupport`, `workspace.configuration`, `workspace.workspaceFolders`, `window.showDocument.support`, `workspace.applyEdit` |
| `register.dynamic` | `client/registerCapability` | each registration's capability allows dynamic registration | `<capability>.dynamicRegistration` |
| `register.unknown` | `client/unregisterCapability` | each id was registered and not unregistered | - |
| `decorations.optIn` | `highlight/publishDecorations` | sent only to a client that opted in | `initializationOptions.decorations` or `experimental.highlightDecorations` |
| `decorations.position` / `.style` | `highlight/publishDecorations`, `highlight/decorations` | ranges and lines inside the document version named, in the payload's encoding; style indices inside `styles`; a delta's ranges inside its lines | - |
| `matches.range` | `highlight/matches` | `range` is `utf8Range` in the negotiated encoding | - |
| `counts.shape` | `highlight/counts` | `counts` of `{rule, count}` with counts above 0, largest first then by rule; `total` their sum; `files` at most `total` | - |
| `meta-model` | every message of a standard method | see above; an unknown method is one too | - |

A violation is counted once per message, rule and field (array indices folded into ``[]``),
with how many times it occurs there.
"""

from __future__ import annotations

import enum
import json
import re
import typing
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import attrs
import cattrs
from lsprotocol import converters, types

from text import Text, read_file

# ---------------------------------------------------------------------------------------------
# The meta model, through lsprotocol.

METHOD_TO_TYPES = types.METHOD_TO_TYPES

#: Methods of this server's own namespace, outside the meta model.
CUSTOM_PREFIX = "highlight/"


def _strict_primitive(value: typing.Any, wanted: type) -> typing.Any:
    """Structures ``str``, ``int``, ``float``, ``bool`` and their enums without coercion."""
    for base in (bool, int, float, str):
        if issubclass(wanted, base):
            break
    ok = {
        bool: isinstance(value, bool),
        int: isinstance(value, int) and not isinstance(value, bool),
        float: isinstance(value, (int, float)) and not isinstance(value, bool),
        str: isinstance(value, str),
    }[base]
    if not ok:
        raise TypeError(f"expected {base.__name__}, found {type(value).__name__}")
    if issubclass(wanted, enum.Enum):
        return wanted(value)
    return float(value) if base is float else value


def make_converter() -> cattrs.Converter:
    """lsprotocol's converter, with strict primitives and the two unions it cannot tell apart."""
    converter = cattrs.Converter()
    for primitive in (str, int, float, bool):
        converter.register_structure_hook(primitive, _strict_primitive)
    converter = converters.get_converter(converter)

    def command_or_code_action(value: typing.Any, _: type) -> typing.Any:
        # The specification's own test: a Command's `command` is a string, a CodeAction's an object.
        if isinstance(value, dict) and isinstance(value.get("command"), str):
            return converter.structure(value, types.Command)
        return converter.structure(value, types.CodeAction)

    def glob_pattern(value: typing.Any, _: type) -> typing.Any:
        if isinstance(value, str):
            return value
        return converter.structure(value, types.RelativePattern)

    converter.register_structure_hook(typing.Union[types.Command, types.CodeAction], command_or_code_action)
    converter.register_structure_hook(typing.Union[str, types.RelativePattern], glob_pattern)
    return converter


CONVERTER = make_converter()


def meta_problems(value: typing.Any, cls: typing.Any, root: str = "") -> list[tuple[str, str]]:
    """(field, why) for each way ``value`` does not fit ``cls`` by a round trip through it."""
    try:
        structured = CONVERTER.structure(value, cls)
    except Exception as error:  # noqa: BLE001 - cattrs raises many kinds; each is a finding
        problems = []
        for line in cattrs.transform_error(error):
            why, _, where = line.rpartition(" @ ")
            path = where.lstrip("$").lstrip(".")
            problems.append((".".join(part for part in (root, path) if part), why or line))
        return problems
    try:
        back = CONVERTER.unstructure(structured, unstructure_as=cls)
    except Exception as error:  # noqa: BLE001
        return [(root, f"checker error: cannot unstructure {cls}: {error!r}")]
    problems: list[tuple[str, str]] = []
    _diff(value, back, root, problems)
    return problems


def _same_scalar(a: typing.Any, b: typing.Any) -> bool:
    a, b = (x.value if isinstance(x, enum.Enum) else x for x in (a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _diff(original: typing.Any, back: typing.Any, path: str, out: list[tuple[str, str]]) -> None:
    if isinstance(original, dict) and isinstance(back, dict):
        for key, value in original.items():
            where = f"{path}.{key}" if path else key
            if key not in back:
                why = "explicit null for a field that is not nullable" if value is None else "field not in the meta model type"
                out.append((where, why))
            else:
                _diff(value, back[key], where, out)
        for key in back.keys() - original.keys():
            out.append((f"{path}.{key}" if path else key, "required field missing"))
    elif isinstance(original, list) and isinstance(back, list):
        if len(original) != len(back):
            out.append((path, f"array of {len(original)} read as {len(back)} items"))
        for index, (a, b) in enumerate(zip(original, back)):
            _diff(a, b, f"{path}[{index}]", out)
    elif not _same_scalar(original, back):
        out.append((path, f"value {_short(original)} does not fit its type (read as {_short(back)})"))


def _short(value: typing.Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def result_type(method: str) -> typing.Any:
    """The type of a request's ``result`` (also the type of its partial results)."""
    response = METHOD_TO_TYPES[method][1]
    return attrs.fields_dict(response)["result"].type


# ---------------------------------------------------------------------------------------------
# Capabilities.


def capability(capabilities: dict, dotted: str) -> typing.Any:
    """The value at a dotted path of the client's capabilities, or None."""
    value: typing.Any = capabilities
    for key in dotted.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


#: Server-to-client requests and the client capability each needs (None: always allowed).
SERVER_REQUEST_CAPABILITY: dict[str, str | None] = {
    "workspace/semanticTokens/refresh": "workspace.semanticTokens.refreshSupport",
    "workspace/inlayHint/refresh": "workspace.inlayHint.refreshSupport",
    "workspace/inlineValue/refresh": "workspace.inlineValue.refreshSupport",
    "workspace/codeLens/refresh": "workspace.codeLens.refreshSupport",
    "workspace/foldingRange/refresh": "workspace.foldingRange.refreshSupport",
    "workspace/diagnostic/refresh": "workspace.diagnostics.refreshSupport",
    "workspace/configuration": "workspace.configuration",
    "workspace/workspaceFolders": "workspace.workspaceFolders",
    "window/showDocument": "window.showDocument.support",
    "workspace/applyEdit": "workspace.applyEdit",
    "window/workDoneProgress/create": "window.workDoneProgress",
    "window/showMessageRequest": None,
    "client/registerCapability": None,  # checked per registration
    "client/unregisterCapability": None,
}

_REGISTRATION_CAPABILITY = {
    "textDocument/didOpen": "textDocument.synchronization",
    "textDocument/didChange": "textDocument.synchronization",
    "textDocument/didClose": "textDocument.synchronization",
    "textDocument/didSave": "textDocument.synchronization",
    "textDocument/willSave": "textDocument.synchronization",
    "textDocument/willSaveWaitUntil": "textDocument.synchronization",
    "textDocument/semanticTokens": "textDocument.semanticTokens",
    "textDocument/prepareCallHierarchy": "textDocument.callHierarchy",
    "textDocument/prepareTypeHierarchy": "textDocument.typeHierarchy",
    "workspace/didChangeWatchedFiles": "workspace.didChangeWatchedFiles",
    "workspace/didChangeConfiguration": "workspace.didChangeConfiguration",
    "workspace/symbol": "workspace.symbol",
    "workspace/executeCommand": "workspace.executeCommand",
    "notebookDocument/sync": "notebookDocument.synchronization",
}


def registration_capability(method: str) -> str:
    """The client capability whose ``dynamicRegistration`` allows registering ``method``."""
    if method in _REGISTRATION_CAPABILITY:
        return _REGISTRATION_CAPABILITY[method]
    if method.startswith("textDocument/semanticTokens"):
        return "textDocument.semanticTokens"
    if method.startswith("workspace/") and "Files" in method:
        return "workspace.fileOperations"
    head, _, tail = method.partition("/")
    return f"{head}.{tail.split('/')[0]}"


def _registration_options_type(method: str) -> typing.Any:
    if method == "textDocument/semanticTokens":
        return types.SemanticTokensRegistrationOptions
    entry = METHOD_TO_TYPES.get(method)
    return entry[3] if entry else None


def _opted_in_to_decorations(initialize_params: dict) -> bool:
    options = initialize_params.get("initializationOptions")
    sources = [
        options.get("decorations") if isinstance(options, dict) else None,
        capability(initialize_params.get("capabilities") or {}, "experimental.highlightDecorations"),
    ]
    return any(source is True or isinstance(source, dict) for source in sources)


# ---------------------------------------------------------------------------------------------
# The transcript checker.


@dataclass(frozen=True)
class Violation:
    """One rule broken by one message, in one field (indices folded), ``count`` times."""

    seq: int
    method: str
    rule: str
    field: str
    why: str
    count: int = 1


@dataclass
class Request:
    """A client request: what the checks of its response need."""

    id: typing.Any
    method: str
    params: dict
    texts: dict[str, Text]
    versions: dict[str, int]
    partial_results: int = 0


_ALLOWED_BEFORE_INITIALIZE = {"window/showMessage", "window/logMessage", "telemetry/event", "window/showMessageRequest"}

#: Symbol kinds a client supports when it does not say (File..Array).
_DEFAULT_SYMBOL_KINDS = set(range(1, 19))


def _key(request_id: typing.Any) -> str:
    return json.dumps(request_id)


def _is_position(value: typing.Any) -> bool:
    """A Position with integer fields (anything else is the meta model check's to report)."""
    return (isinstance(value, dict) and type(value.get("line")) is int and type(value.get("character")) is int)


def _is_range(value: typing.Any) -> bool:
    return isinstance(value, dict) and _is_position(value.get("start")) and _is_position(value.get("end"))


def _is_natural(value: typing.Any) -> bool:
    """An integer (not a boolean) of 0 or more."""
    return type(value) is int and value >= 0


def _before(a: dict, b: dict) -> bool:
    return (a["line"], a["character"]) <= (b["line"], b["character"])


def _inside(inner: dict, outer: dict) -> bool:
    return _before(outer["start"], inner["start"]) and _before(inner["end"], outer["end"])


class Checker:
    """Reads one session's messages in order and collects every violation of the rules above."""

    def __init__(self, roots: typing.Iterable[Path] = ()) -> None:
        #: Folders whose files may be read from disk to check positions in files not open.
        self.roots = [Path(root).resolve() for root in roots]
        self.initialize_params: dict = {}
        self.capabilities: dict = {}
        self.encoding = "utf-16"
        self.initialized = False
        self.legend: tuple[list, list] | None = None
        self.documents: dict[str, Text] = {}
        self.document_versions: dict[str, int] = {}
        self.history: dict[str, dict[int, Text]] = {}
        self.requests: dict[str, Request] = {}
        self.answered: set[str] = set()
        self.server_requests: dict[str, tuple[str, typing.Any]] = {}
        self.partial_open: dict[str, Request] = {}
        self.partial_closed: dict[str, tuple[Request, str]] = {}
        self.client_work_open: dict[str, Request] = {}
        self.client_work_closed: dict[str, tuple[Request, str]] = {}
        self.server_tokens: dict[str, str] = {}  # token -> "asked" | "created" | "refused"
        self.progress_state: dict[str, str] = {}  # token -> "begun" | "ended"
        self.registrations: dict[str, str] = {}
        self.token_results: dict[str, dict[str, list[int]]] = {}
        self.violations: list[Violation] = []
        #: Messages checked, by kind, and by method; positions, tokens and decoration ranges checked.
        self.kinds: Counter[str] = Counter()
        self.methods: Counter[str] = Counter()
        self.items: Counter[str] = Counter()
        self.seq = 0
        self._disk_cache: dict[Path, tuple[tuple[int, int], Text]] = {}
        self._problems: list[tuple[str, str, str]] = []

    # -- the client's side ---------------------------------------------------------------------

    def outgoing(self, message: dict) -> None:
        """A message the client sent: requests to answer, documents to follow, tokens created."""
        method = message.get("method")
        params = message.get("params") or {}
        if method is not None and "id" in message:
            key = _key(message["id"])
            request = Request(message["id"], method, params, dict(self.documents), dict(self.document_versions))
            self.requests[key] = request
            if method == "initialize":
                self.initialize_params = params
                self.capabilities = params.get("capabilities") or {}
            if isinstance(params, dict) and "partialResultToken" in params:
                self.partial_open[_key(params["partialResultToken"])] = request
            if isinstance(params, dict) and "workDoneToken" in params:
                self.client_work_open[_key(params["workDoneToken"])] = request
        elif method is not None:
            self._follow_document(method, params)
        elif "id" in message:
            server_request = self.server_requests.pop(_key(message["id"]), None)
            if server_request and server_request[0] == "window/workDoneProgress/create":
                token = _key((server_request[1] or {}).get("token"))
                self.server_tokens[token] = "created" if "result" in message else "refused"

    def _follow_document(self, method: str, params: dict) -> None:
        document = params.get("textDocument") or {}
        uri = document.get("uri")
        if method == "textDocument/didOpen":
            self.history[uri] = {}
            self._set_text(uri, document.get("version", 0), Text(document.get("text", "")))
        elif method == "textDocument/didChange" and uri in self.documents:
            text = self.documents[uri]
            for change in params.get("contentChanges", []):
                text = text.replaced(change.get("range"), change.get("text", ""), self.encoding)
            self._set_text(uri, document.get("version", self.document_versions[uri]), text)
        elif method == "textDocument/didClose":
            self.documents.pop(uri, None)
            self.document_versions.pop(uri, None)

    def _set_text(self, uri: str, version: int, text: Text) -> None:
        self.documents[uri] = text
        self.document_versions[uri] = version
        self.history.setdefault(uri, {})[version] = text

    # -- the server's side ---------------------------------------------------------------------

    def incoming(self, message: typing.Any) -> None:
        """A message the server sent: checked now, against the state the transcript reached."""
        self.seq += 1
        self._problems = []
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.problem("meta-model", "jsonrpc", "not a JSON-RPC 2.0 message")
            self._fold("-")
            return
        if "method" in message:
            method = str(message["method"])
            kind, check = ("request", self._server_request) if "id" in message else ("notification", self._notification)
            self._before_initialize(method)
        elif "id" in message:
            request = self.requests.get(_key(message["id"]))
            method = request.method if request else "(unknown request)"
            kind, check = "response", self._response
        else:
            method, kind, check = "-", "other", None
            self.problem("meta-model", "", "neither a request, a notification nor a response")
        self.kinds[kind] += 1
        self.methods[method] += 1
        try:
            if check is not None:
                check(message)
        except Exception as error:  # noqa: BLE001 - a message the rules cannot read is reported, not fatal
            self.problem("checker.error", "", f"the checks could not read the message: {error!r}")
        self._fold(method)

    def problem(self, rule: str, where: str, why: str) -> None:
        """Notes a violation of ``rule`` at field ``where`` of the message being checked."""
        self._problems.append((rule, where, why))

    def _fold(self, method: str) -> None:
        """One violation per rule and field of the message, with the number of occurrences."""
        folded: dict[tuple[str, str], list] = {}
        for rule, where, why in self._problems:
            key = (rule, re.sub(r"\[\d+\]", "[]", where))
            if key in folded:
                folded[key][1] += 1
            else:
                folded[key] = [why, 1]
        for (rule, where), (why, count) in folded.items():
            self.violations.append(Violation(self.seq, method, rule, where, why, count))
        self._problems = []

    def _before_initialize(self, method: str) -> None:
        if self.initialized or method in _ALLOWED_BEFORE_INITIALIZE:
            return
        self.problem("lifecycle.beforeInitialize", "method", f"{method} sent before the initialize response")

    def _meta(self, value: typing.Any, cls: typing.Any, root: str = "") -> None:
        for where, why in meta_problems(value, cls, root):
            self.problem("meta-model", where, why)

    def _in_meta_model(self, message: dict, method: str) -> bool:
        """Checks `message` against the meta model's type for `method`; False for a custom method
        (not in the meta model, so not checked there) and for an unknown one (a problem)."""
        if method.startswith(CUSTOM_PREFIX):
            return False
        if method not in METHOD_TO_TYPES:
            self.problem("meta-model", "method", f"{method} is not a method of the meta model")
            return False
        self._meta(message, METHOD_TO_TYPES[method][0])
        return True

    def _server_request(self, message: dict) -> None:
        method, params = message["method"], message.get("params")
        self.server_requests[_key(message["id"])] = (method, params)
        if not self._in_meta_model(message, method):
            return
        needed = SERVER_REQUEST_CAPABILITY.get(method, "")
        if needed == "":
            self.problem("meta-model", "method", f"{method} is not a server-to-client request")
        elif needed and not capability(self.capabilities, needed):
            self.problem(f"request.{method}", "method", f"sent, but the client did not announce {needed}")
        params = params if isinstance(params, dict) else {}
        if method == "window/workDoneProgress/create":
            self.server_tokens[_key(params.get("token"))] = "asked"
        elif method == "client/registerCapability":
            self._registrations(params.get("registrations") or [])
        elif method == "client/unregisterCapability":
            for index, registration in enumerate(params.get("unregisterations") or []):
                if self.registrations.pop(registration.get("id"), None) is None:
                    self.problem("register.unknown", f"params.unregisterations[{index}].id",
                                 f"{registration.get('id')!r} was not registered")
        elif method == "workspace/applyEdit":
            self._workspace_edit(params.get("edit") or {}, "params.edit", self.documents, self.document_versions)

    def _registrations(self, registrations: list) -> None:
        for index, registration in enumerate(registrations):
            method = registration.get("method", "")
            where = f"params.registrations[{index}]"
            needed = registration_capability(method) + ".dynamicRegistration"
            if not capability(self.capabilities, needed):
                self.problem("register.dynamic", f"{where}.method", f"{method} registered, but the client did not announce {needed}")
            options_type = _registration_options_type(method)
            options = registration.get("registerOptions")
            if options_type is not None and options is not None:
                self._meta(options, options_type, f"{where}.registerOptions")
            self.registrations[registration.get("id")] = method
            if method == "textDocument/semanticTokens" and isinstance(options, dict):
                legend = options.get("legend") or {}
                self.legend = (legend.get("tokenTypes") or [], legend.get("tokenModifiers") or [])

    def _notification(self, message: dict) -> None:
        method, params = message["method"], message.get("params") or {}
        if method == "highlight/publishDecorations":
            if not _opted_in_to_decorations(self.initialize_params):
                self.problem("decorations.optIn", "method", "sent to a client that did not opt in")
            uri = (params.get("textDocument") or {}).get("uri")
            version = (params.get("textDocument") or {}).get("version")
            self._decorations(params, self._version_text(uri, version), "params")
            return
        if not self._in_meta_model(message, method):
            return
        if method == "textDocument/publishDiagnostics":
            self._published_diagnostics(params)
        elif method == "$/progress":
            self._progress(params)

    def _response(self, message: dict) -> None:
        key = _key(message["id"])
        request = self.requests.pop(key, None)
        if request is None:
            why = "a second response to the request" if key in self.answered else "no request has this id"
            rule = "response.duplicate" if key in self.answered else "response.unknownId"
            self.problem(rule, "id", why)
            return
        self.answered.add(key)
        has_result, has_error = "result" in message, "error" in message
        if has_result == has_error:
            self.problem("response.shape", "result", "a response carries exactly one of result and error")
        if has_error:
            self._meta(message, types.ResponseErrorMessage)
            outcome = f"error {(message.get('error') or {}).get('code')}"
        else:
            outcome = "result"
            if not request.method.startswith(CUSTOM_PREFIX) and request.method in METHOD_TO_TYPES:
                self._meta(message, METHOD_TO_TYPES[request.method][1])
            self._result(request, message.get("result"))
        params = request.params if isinstance(request.params, dict) else {}
        if "workDoneToken" in params:
            self.client_work_open.pop(_key(params["workDoneToken"]), None)
            self.client_work_closed[_key(params["workDoneToken"])] = (request, outcome)
        token = params.get("partialResultToken")
        if token is not None:
            self.partial_open.pop(_key(token), None)
            self.partial_closed[_key(token)] = (request, outcome)
            if request.partial_results and has_result and message.get("result"):
                self.problem("progress.partialThenResult", "result", "partial results were sent, so the result must be empty")
        if request.method == "initialize":
            self.initialized = True

    # -- results ---------------------------------------------------------------------------------

    def _result(self, request: Request, result: typing.Any) -> None:
        method, params = request.method, request.params if isinstance(request.params, dict) else {}
        uri = (params.get("textDocument") or {}).get("uri")
        texts = request.texts
        if method == "initialize":
            self._initialize_result(result or {})
        elif method.startswith("textDocument/semanticTokens/"):
            self._semantic_tokens(request, uri, result)
        elif method == "textDocument/codeAction":
            self._code_actions(result or [], texts, request.versions)
        elif method == "highlight/decorations":
            self._decorations(result, texts.get(uri), "result")
        elif method == "highlight/matches":
            self._matches(result or [], texts.get(uri))
        elif method == "highlight/counts":
            self._counts(result)
        else:
            if method == "textDocument/documentLink":
                self._links(result or [])
            elif method == "textDocument/hover":
                self._hover(result)
            elif method == "textDocument/documentSymbol":
                self._document_symbols(result or [])
            elif method == "workspace/symbol":
                self._workspace_symbols(result or [], "result")
            elif method == "textDocument/diagnostic" and isinstance(result, dict) and "relatedDocuments" in result:
                if not capability(self.capabilities, "textDocument.diagnostic.relatedDocumentSupport"):
                    self.problem("diagnostics.relatedDocuments", "result.relatedDocuments", "not announced")
            self._positions(result, uri, texts, "result")

    def _links(self, result: list) -> None:
        if capability(self.capabilities, "textDocument.documentLink.tooltipSupport"):
            return
        for index, link in enumerate(result):
            if isinstance(link, dict) and "tooltip" in link:
                self.problem("documentLink.tooltip", f"result[{index}].tooltip",
                             "tooltip sent, but the client did not announce textDocument.documentLink.tooltipSupport")

    def _initialize_result(self, result: dict) -> None:
        server = result.get("capabilities") or {}
        offered = capability(self.capabilities, "general.positionEncodings") or []
        chosen = server.get("positionEncoding", "utf-16")
        if chosen not in offered and chosen != "utf-16":
            self.problem("encoding.negotiated", "result.capabilities.positionEncoding",
                         f"{chosen!r} is not one the client offered ({offered})")
        self.encoding = chosen
        provider = server.get("semanticTokensProvider")
        if isinstance(provider, dict):
            legend = provider.get("legend") or {}
            self.legend = (legend.get("tokenTypes") or [], legend.get("tokenModifiers") or [])

    def _hover(self, result: typing.Any) -> None:
        contents = result.get("contents") if isinstance(result, dict) else None
        formats = capability(self.capabilities, "textDocument.hover.contentFormat") or []
        if isinstance(contents, dict) and contents.get("kind") == "markdown" and "markdown" not in formats:
            self.problem("hover.markdown", "result.contents.kind",
                         f"markdown sent, but textDocument.hover.contentFormat is {formats or 'absent'}")

    def _symbol_kind_and_tags(self, symbol: dict, where: str, capability_root: str) -> None:
        kinds = capability(self.capabilities, f"{capability_root}.symbolKind.valueSet")
        allowed = set(kinds) if kinds else _DEFAULT_SYMBOL_KINDS
        if symbol.get("kind") not in allowed:
            self.problem("symbol.kind", f"{where}.kind", f"kind {symbol.get('kind')} is not in the client's symbolKind.valueSet")
        if "tags" in symbol:
            tags = capability(self.capabilities, f"{capability_root}.tagSupport.valueSet")
            if tags is None:
                self.problem("symbol.tags", f"{where}.tags", f"tags sent, but the client did not announce {capability_root}.tagSupport")
            elif any(tag not in tags for tag in symbol["tags"] or []):
                self.problem("symbol.tags", f"{where}.tags", f"tags {symbol['tags']} outside {tags}")

    def _document_symbols(self, result: list) -> None:
        hierarchical = capability(self.capabilities, "textDocument.documentSymbol.hierarchicalDocumentSymbolSupport")

        def visit(symbol: dict, where: str, parent: dict | None) -> None:
            self._symbol_kind_and_tags(symbol, where, "textDocument.documentSymbol")
            if _is_range(symbol.get("range")) and _is_range(symbol.get("selectionRange")):
                if not _inside(symbol["selectionRange"], symbol["range"]):
                    self.problem("documentSymbol.containment", f"{where}.selectionRange", "selectionRange is not inside range")
                if parent is not None and not _inside(symbol["range"], parent["range"]):
                    self.problem("documentSymbol.containment", f"{where}.range", "a child's range is not inside its parent's")
            for index, child in enumerate(symbol.get("children") or []):
                visit(child, f"{where}.children[{index}]", symbol)

        for index, symbol in enumerate(result):
            if not isinstance(symbol, dict):
                continue
            if "selectionRange" in symbol and not hierarchical:
                self.problem("documentSymbol.hierarchical", f"result[{index}]",
                             "DocumentSymbol sent, but the client did not announce hierarchicalDocumentSymbolSupport")
            visit(symbol, f"result[{index}]", None)

    def _workspace_symbols(self, result: typing.Any, root: str) -> None:
        for index, symbol in enumerate(result if isinstance(result, list) else []):
            if not isinstance(symbol, dict):
                continue
            where = f"{root}[{index}]"
            self._symbol_kind_and_tags(symbol, where, "workspace.symbol")
            location = symbol.get("location")
            if isinstance(location, dict) and "range" not in location and not capability(self.capabilities, "workspace.symbol.resolveSupport"):
                self.problem("workspaceSymbol.resolve", f"{where}.location",
                             "a location without range, but the client did not announce workspace.symbol.resolveSupport")

    def _code_actions(self, result: list, texts: dict[str, Text], versions: dict[str, int]) -> None:
        literals = capability(self.capabilities, "textDocument.codeAction.codeActionLiteralSupport")
        for index, item in enumerate(result):
            if not isinstance(item, dict) or isinstance(item.get("command"), str):
                continue
            where = f"result[{index}]"
            if not literals:
                present = [key for key in ("kind", "edit", "command", "diagnostics", "isPreferred", "disabled", "data") if key in item]
                self.problem("codeAction.literal", where,
                             f"a CodeAction ({', '.join(present)}) sent, but the client did not announce codeActionLiteralSupport")
            for key, support in (("isPreferred", "isPreferredSupport"), ("disabled", "disabledSupport"), ("data", "dataSupport")):
                if key in item and not capability(self.capabilities, f"textDocument.codeAction.{support}"):
                    self.problem(f"codeAction.{key}", f"{where}.{key}", f"sent, but the client did not announce {support}")
            if isinstance(item.get("edit"), dict):
                self._workspace_edit(item["edit"], f"{where}.edit", texts, versions)

    def _workspace_edit(self, edit: dict, where: str, texts: dict[str, Text], versions: dict[str, int]) -> None:
        support = capability(self.capabilities, "workspace.workspaceEdit") or {}
        texts = dict(texts)
        if "changeAnnotations" in edit and not support.get("changeAnnotationSupport"):
            self.problem("workspaceEdit.changeAnnotations", f"{where}.changeAnnotations", "not announced")
        if "documentChanges" in edit and not support.get("documentChanges"):
            self.problem("workspaceEdit.documentChanges", f"{where}.documentChanges",
                         "sent, but the client did not announce workspace.workspaceEdit.documentChanges")
        for index, change in enumerate(edit.get("documentChanges") or []):
            at = f"{where}.documentChanges[{index}]"
            kind = change.get("kind")
            if kind in ("create", "rename", "delete"):
                if kind not in (support.get("resourceOperations") or []):
                    self.problem("workspaceEdit.resourceOperations", f"{at}.kind",
                                 f"{kind} sent, but resourceOperations is {support.get('resourceOperations')}")
                if kind == "create":
                    texts[change.get("uri")] = Text("")
                continue
            document = change.get("textDocument") or {}
            uri = document.get("uri")
            if uri in versions and document.get("version") != versions[uri]:
                self.problem("workspaceEdit.version", f"{at}.textDocument.version",
                             f"version {document.get('version')} of an open document at version {versions[uri]}")
            for edit_index, text_edit in enumerate(change.get("edits") or []):
                if "annotationId" in text_edit and not support.get("changeAnnotationSupport"):
                    self.problem("workspaceEdit.changeAnnotations", f"{at}.edits[{edit_index}].annotationId", "not announced")
            self._positions(change.get("edits"), uri, texts, f"{at}.edits")
        for uri, edits in (edit.get("changes") or {}).items():
            self._positions(edits, uri, texts, f"{where}.changes[{uri}]")

    # -- diagnostics and progress ----------------------------------------------------------------

    def _published_diagnostics(self, params: dict) -> None:
        support = capability(self.capabilities, "textDocument.publishDiagnostics") or {}
        uri = params.get("uri")
        if "version" in params and not support.get("versionSupport"):
            self.problem("diagnostics.version", "params.version",
                         "version sent, but the client did not announce publishDiagnostics.versionSupport")
        for index, diagnostic in enumerate(params.get("diagnostics") or []):
            where = f"params.diagnostics[{index}]"
            if "codeDescription" in diagnostic and not support.get("codeDescriptionSupport"):
                self.problem("diagnostics.codeDescription", f"{where}.codeDescription",
                             "codeDescription sent, but the client did not announce publishDiagnostics.codeDescriptionSupport")
            if "relatedInformation" in diagnostic and not support.get("relatedInformation"):
                self.problem("diagnostics.relatedInformation", f"{where}.relatedInformation", "not announced")
            if "data" in diagnostic and not support.get("dataSupport"):
                self.problem("diagnostics.data", f"{where}.data", "not announced")
            if "tags" in diagnostic:
                allowed = capability(support, "tagSupport.valueSet")
                if allowed is None or any(tag not in allowed for tag in diagnostic["tags"] or []):
                    self.problem("diagnostics.tags", f"{where}.tags", f"tags {diagnostic['tags']} not in tagSupport {allowed}")
        if "version" in params or uri not in self.documents:
            text = self._version_text(uri, params.get("version"))
            self._positions(params.get("diagnostics"), uri, {uri: text} if text else {}, "params.diagnostics")
            return
        # Without a version the diagnostics may be of any version the client sent: positions that fit
        # none of them are wrong (reported against the latest), those that fit an older one are only late.
        trials = [self._trial(lambda text=text: self._positions(params.get("diagnostics"), uri, {uri: text}, "params.diagnostics"))
                  for text in reversed(list(self.history[uri].values()))]
        if all(trials):
            self._problems.extend(trials[0])

    def _trial(self, check: typing.Callable[[], None]) -> list[tuple[str, str, str]]:
        """The problems ``check`` notes, kept apart from the message's."""
        kept, self._problems = self._problems, []
        try:
            check()
            return self._problems
        finally:
            self._problems = kept

    def _progress(self, params: dict) -> None:
        token = _key(params.get("token"))
        value = params.get("value")
        if token in self.partial_open:
            request = self.partial_open[token]
            request.partial_results += 1
            wrapped = {"jsonrpc": "2.0", "id": 0, "result": value}
            for where, why in meta_problems(wrapped, METHOD_TO_TYPES[request.method][1]):
                self.problem("meta-model", "params.value" + where[len("result"):] if where.startswith("result") else where, why)
            if request.method == "workspace/symbol":
                self._workspace_symbols(value, "params.value")
            self._positions(value, None, request.texts, "params.value")
        elif token in self.partial_closed:
            request, outcome = self.partial_closed[token]
            self.problem("progress.partialAfterResponse", "params.token",
                         f"partial result for request {request.id} ({request.method}) after its response ({outcome})")
        elif token in self.client_work_open:
            self._work_done(token, value)
        elif token in self.client_work_closed:
            request, outcome = self.client_work_closed[token]
            self.problem("progress.workDoneAfterResponse", "params.token",
                         f"work done progress for request {request.id} ({request.method}) after its response ({outcome})")
        elif token in self.server_tokens:
            if self.server_tokens[token] != "created":
                self.problem("progress.notCreated", "params.token",
                             f"token used before the client answered its creation with success ({self.server_tokens[token]})")
            if not capability(self.capabilities, "window.workDoneProgress"):
                self.problem("progress.workDone", "params.token", "work done progress, but the client did not announce window.workDoneProgress")
            self._work_done(token, value)
        else:
            self.problem("progress.unknownToken", "params.token", f"token {token} was never given nor created")

    def _work_done(self, token: str, value: typing.Any) -> None:
        kinds = {"begin": types.WorkDoneProgressBegin, "report": types.WorkDoneProgressReport, "end": types.WorkDoneProgressEnd}
        kind = value.get("kind") if isinstance(value, dict) else None
        if kind not in kinds:
            self.problem("meta-model", "params.value.kind", f"work done progress of kind {kind!r}")
            return
        self._meta(value, kinds[kind], "params.value")
        state = self.progress_state.get(token)
        if (kind == "begin" and state is not None) or (kind != "begin" and state != "begun"):
            self.problem("progress.sequence", "params.value.kind", f"{kind} after {state or 'nothing'}")
        self.progress_state[token] = "ended" if kind == "end" else "begun"

    # -- semantic tokens ----------------------------------------------------------------------

    def _semantic_tokens(self, request: Request, uri: str, result: typing.Any) -> None:
        if not isinstance(result, dict):
            return
        text = request.texts.get(uri)
        held = self.token_results.setdefault(uri, {})
        if "edits" in result:
            base = held.get((request.params or {}).get("previousResultId"))
            if base is None:
                self.problem("semanticTokens.delta", "result.edits", "a delta on a result the client does not hold")
                return
            data = list(base)
            for index, edit in sorted(enumerate(result["edits"]), key=lambda item: -item[1].get("start", 0)):
                start, count = edit.get("start", 0), edit.get("deleteCount", 0)
                if start + count > len(data):
                    self.problem("semanticTokens.delta", f"result.edits[{index}]", f"edit {start}+{count} past the {len(data)} integers held")
                data[start:start + count] = edit.get("data") or []
        else:
            data = result.get("data") or []
        if "resultId" in result and request.method != "textDocument/semanticTokens/range":
            held[result["resultId"]] = data
        if text is not None:
            self._tokens(data, text, "result.data" if "data" in result else "result.edits")

    def _tokens(self, data: list, text: Text, where: str) -> None:
        if self.legend is None:
            self.problem("semanticTokens.legend", where, "tokens sent, but no legend was announced")
            return
        token_types, modifiers = self.legend
        support = capability(self.capabilities, "textDocument.semanticTokens") or {}
        if len(data) % 5:
            self.problem("semanticTokens.order", where, f"{len(data)} integers is not a multiple of 5")
        line = start = 0
        previous_end: tuple[int, int] | None = None
        for index in range(0, len(data) - 4, 5):
            self.items["tokens"] += 1
            delta_line, delta_start, length, token_type, token_modifiers = data[index:index + 5]
            at = f"{where}[{index // 5}]"
            if delta_line < 0 or (delta_line == 0 and delta_start < 0):
                self.problem("semanticTokens.order", at, "tokens are not sorted")
            line += delta_line
            start = delta_start if delta_line else start + delta_start
            if not 0 <= token_type < len(token_types):
                self.problem("semanticTokens.legend", at, f"type {token_type} outside the legend's {len(token_types)} types")
            if token_modifiers < 0 or token_modifiers >> len(modifiers):
                self.problem("semanticTokens.legend", at, f"modifiers {token_modifiers:#x} outside the legend's {len(modifiers)}")
            position = {"line": line, "character": start}
            problem = text.problem(position, self.encoding)
            if problem:
                self.problem("position", at, problem)
                continue
            end = start + length
            if not support.get("multilineTokenSupport"):
                if end > text.line_length(line, self.encoding):
                    self.problem("semanticTokens.multiline", at, f"token {line}:{start}+{length} runs past its line")
                elif text.problem({"line": line, "character": end}, self.encoding):
                    self.problem("position", at, text.problem({"line": line, "character": end}, self.encoding))
            if not support.get("overlappingTokenSupport") and previous_end and previous_end[0] == line and start < previous_end[1]:
                self.problem("semanticTokens.overlap", at, f"token at {line}:{start} overlaps the one before")
            previous_end = (line, end)

    # -- this server's extensions --------------------------------------------------------------

    def _decorations(self, payload: dict, text: Text | None, where: str) -> None:
        if not isinstance(payload, dict) or text is None:
            return
        encoding = payload.get("positionEncoding", self.encoding)
        styles = payload.get("styles") or []
        edit = payload.get("edit")
        lines_allowed = range(edit.get("startLine", 0), edit.get("endLine", 0)) if isinstance(edit, dict) else range(text.line_count)
        source = edit if isinstance(edit, dict) else payload
        root = f"{where}.edit" if isinstance(edit, dict) else where
        ranges = source.get("ranges") or []
        for index in range(0, len(ranges) - 3, 4):
            line, first, last, style = ranges[index:index + 4]
            self.items["decoration ranges"] += 1
            at = f"{root}.ranges[{index // 4}]"
            for character in (first, last):
                problem = text.problem({"line": line, "character": character}, encoding)
                if problem:
                    self.problem("decorations.position", at, problem)
            if first > last or line not in lines_allowed:
                self.problem("decorations.position", at, f"range {line}:{first}-{last} outside lines {lines_allowed}")
            if not 0 <= style < len(styles):
                self.problem("decorations.style", at, f"style {style} outside the {len(styles)} styles")
        marks = source.get("lines") or []
        for index in range(0, len(marks) - 2, 3):
            line, sign, whole = marks[index:index + 3]
            at = f"{root}.lines[{index // 3}]"
            if line not in lines_allowed or line >= text.line_count:
                self.problem("decorations.position", at, f"line {line} outside the document or the edit")
            if any(not -1 <= style < len(styles) for style in (sign, whole)):
                self.problem("decorations.style", at, f"styles {sign}, {whole} outside the {len(styles)} styles")

    def _matches(self, result: list, text: Text | None) -> None:
        for index, match in enumerate(result):
            where = f"result[{index}]"
            if text is None or not isinstance(match, dict):
                continue
            self._range(match.get("range"), text, f"{where}.range")
            utf8 = match.get("utf8Range") or []
            expected = [text.position_of_utf8(offset, self.encoding) for offset in utf8]
            actual = [match["range"]["start"], match["range"]["end"]] if _is_range(match.get("range")) else None
            if actual != expected:
                self.problem("matches.range", f"{where}.range", f"range {match.get('range')} is not utf8Range {utf8} ({expected})")

    def _counts(self, result: typing.Any) -> None:
        if not isinstance(result, dict) or not isinstance(result.get("counts"), list):
            self.problem("counts.shape", "result", f"not an object with a counts array: {result!r}")
            return
        entries = result["counts"]
        valid = True
        for index, entry in enumerate(entries):
            if not (isinstance(entry, dict) and isinstance(entry.get("rule"), str) and _is_natural(entry.get("count"))
                    and entry["count"] > 0):
                self.problem("counts.shape", f"result.counts[{index}]", f"not a rule with a count above 0: {entry!r}")
                valid = False
        if not valid:
            return
        order = sorted(entries, key=lambda entry: (-entry["count"], entry["rule"]))
        if order != entries:
            self.problem("counts.shape", "result.counts", "not sorted by count (largest first), then by rule")
        total = sum(entry["count"] for entry in entries)
        if result.get("total") != total:
            self.problem("counts.shape", "result.total", f"total {result.get('total')!r} is not the sum {total}")
        files = result.get("files")
        if not _is_natural(files) or files > total:
            self.problem("counts.shape", "result.files", f"files {files!r} is not between 0 and the total {total}")

    # -- positions ---------------------------------------------------------------------------------

    def _version_text(self, uri: str | None, version: typing.Any) -> Text | None:
        if uri is None:
            return None
        if isinstance(version, int) and version in self.history.get(uri, {}):
            return self.history[uri][version]
        return self.documents.get(uri) or self._disk_text(uri)

    def _disk_text(self, uri: str) -> Text | None:
        """A file of the workspace, read from disk; None for anything else."""
        parsed = urlparse(uri)
        if parsed.scheme != "file":
            return None
        path = Path(unquote(parsed.path))
        if not any(path == root or root in path.parents for root in self.roots) or not path.is_file():
            return None
        stat = path.stat()
        cached = self._disk_cache.get(path)
        if cached and cached[0] == (stat.st_mtime_ns, stat.st_size):
            return cached[1]
        try:
            text = Text(read_file(path))
        except UnicodeDecodeError:
            return None
        self._disk_cache[path] = ((stat.st_mtime_ns, stat.st_size), text)
        return text

    def _text(self, uri: str | None, texts: dict[str, Text]) -> Text | None:
        if uri is None:
            return None
        return texts.get(uri) or (None if uri in self.documents else self._disk_text(uri))

    def _positions(self, value: typing.Any, uri: str | None, texts: dict[str, Text], where: str) -> None:
        """Checks every range and position in ``value``; locations name their own document."""
        if isinstance(value, list):
            for index, item in enumerate(value):
                self._positions(item, uri, texts, f"{where}[{index}]")
            return
        if not isinstance(value, dict):
            return
        if isinstance(value.get("uri"), str) and _is_range(value.get("range")):
            self._range(value["range"], self._text(value["uri"], texts), f"{where}.range")
            return
        if _is_range(value):
            self._range(value, self._text(uri, texts), where)
            return
        if _is_position(value):
            text = self._text(uri, texts)
            self.items["positions"] += text is not None
            problem = text.problem(value, self.encoding) if text else None
            if problem:
                self.problem("position", where, problem)
            return
        for key, item in value.items():
            if key in ("edit", "command", "data", "arguments"):
                continue  # workspace edits are checked with their own documents; the rest holds none
            self._positions(item, uri, texts, f"{where}.{key}")

    def _range(self, value: typing.Any, text: Text | None, where: str) -> None:
        if text is None or not _is_range(value):
            return
        self.items["positions"] += 2
        for end in ("start", "end"):
            problem = text.problem(value[end], self.encoding)
            if problem:
                self.problem("position", f"{where}.{end}", problem)
        if not _before(value["start"], value["end"]):
            self.problem("position", where, "range ends before it starts")

    # -- the end -----------------------------------------------------------------------------------

    def finish(self, exit_code: int | None = 0) -> None:
        """At the end of the session: every request answered, every progress ended, exit code 0."""
        self.seq += 1
        self._problems = []
        if exit_code != 0:
            self.problem("lifecycle.exit", "exit", f"the server exited with {exit_code} after shutdown and exit")
        for request in self.requests.values():
            self.problem("response.missing", f"id {request.id}", f"{request.method} was never answered")
        for token, state in self.progress_state.items():
            if state == "begun" and token in self.server_tokens:
                self.problem("progress.sequence", f"token {token}", "work done progress begun and never ended")
        self._fold("(end of session)")

    def summary(self) -> dict[tuple[str, str, str], tuple[int, int]]:
        """(messages, occurrences) of the violations, by method, rule and field."""
        table: dict[tuple[str, str, str], tuple[int, int]] = {}
        for violation in self.violations:
            key = (violation.method, violation.rule, violation.field)
            messages, occurrences = table.get(key, (0, 0))
            table[key] = (messages + 1, occurrences + violation.count)
        return table
