"""The clients the conformance run plays: what each announces and how it answers the server.

* ``vscode-like`` announces nearly everything (code action literals, link tooltips, Markdown,
  hierarchical symbols, server-created progress, every refresh, diagnostic versions and code
  descriptions, dynamic registration), UTF-16 only, two workspace folders and a verbose trace.
* ``neovim-0.11-like`` announces what Neovim 0.11's ``make_client_capabilities()`` does: UTF-8,
  UTF-16 and UTF-32 offered (so UTF-8 is chosen), code action literals, no ``documentLink`` at
  all (so no tooltips), no ``versionSupport`` or ``codeDescriptionSupport``, pull diagnostics,
  semantic tokens refresh, no dynamic registration of semantic tokens or file watchers. With the
  plugin's decorations (UTF-8 columns, deltas).
* ``minimal`` sends ``capabilities: {}``: nothing announced, UTF-16, plain text, pushed
  diagnostics, bare commands, flat symbols; the workspace named by ``rootUri``.
* ``sparse-utf32`` offers UTF-32 only and says ``false`` explicitly where the others say
  nothing; no code action literals but ``workspace/applyEdit`` (so the rule is written through
  a command and an edit the server sends); decorations through the experimental capability in
  UTF-16; the workspace named by ``rootPath``.

A client answers a server request it implements (the capability announced, or a method it
always handles) with a proper result, and any other with MethodNotFound.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field

from checker import SERVER_REQUEST_CAPABILITY, capability

#: The standard semantic token types and modifiers of LSP 3.17.
TOKEN_TYPES = [
    "namespace", "type", "class", "enum", "interface", "struct", "typeParameter", "parameter",
    "variable", "property", "enumMember", "event", "function", "method", "macro", "keyword",
    "modifier", "comment", "string", "number", "regexp", "operator", "decorator",
]
TOKEN_MODIFIERS = [
    "declaration", "definition", "readonly", "static", "deprecated", "abstract", "async",
    "modification", "documentation", "defaultLibrary",
]
SYMBOL_KINDS = {"valueSet": list(range(1, 27))}
CODE_ACTION_KINDS = ["", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite",
                     "source", "source.organizeImports"]


@dataclass(frozen=True)
class Profile:
    """One client: its capabilities, its initialize parameters, and its answers."""

    name: str
    capabilities: dict
    initialization_options: dict | None = None
    #: How `initialize` names the workspace: "workspaceFolders", "rootUri" or "rootPath".
    workspace_by: str = "workspaceFolders"
    #: Whether a second workspace folder, without a `.highlights.json`, is opened too.
    second_folder: bool = False
    trace: str = "off"
    #: What `workspace/configuration` answers for the `highlight` section.
    settings: typing.Any = None
    #: Server requests the client handles whatever it announced.
    handles: frozenset[str] = field(default_factory=frozenset)
    #: Whether its requests carry a `workDoneToken`.
    sends_work_done_token: bool = False

    def announces(self, dotted: str) -> typing.Any:
        return capability(self.capabilities, dotted)

    def answer(self, method: str, params: typing.Any) -> dict:
        """The response body (``result`` or ``error``) this client gives a server request."""
        needed = SERVER_REQUEST_CAPABILITY.get(method, "")
        if not (method in self.handles or (needed and self.announces(needed))):
            return {"error": {"code": -32601, "message": f"{method} is not supported"}}
        if method == "workspace/configuration":
            return {"result": [self.settings for _ in (params or {}).get("items", [])]}
        if method == "workspace/applyEdit":
            return {"result": {"applied": False, "failureReason": "the conformance client applies no edits"}}
        if method == "window/showDocument":
            return {"result": {"success": False}}
        return {"result": None}


_REGISTERING = frozenset({"client/registerCapability", "client/unregisterCapability", "window/showMessageRequest"})

VSCODE_LIKE = Profile(
    name="vscode-like",
    capabilities={
        "general": {
            "positionEncodings": ["utf-16"],
            "markdown": {"parser": "marked", "version": "1.1.0"},
            "staleRequestSupport": {"cancel": True, "retryOnContentModified": ["textDocument/semanticTokens/full"]},
        },
        "window": {"workDoneProgress": True, "showMessage": {"messageActionItem": {"additionalPropertiesSupport": True}},
                   "showDocument": {"support": True}},
        "workspace": {
            "applyEdit": True,
            "workspaceEdit": {"documentChanges": True, "resourceOperations": ["create", "rename", "delete"],
                              "failureHandling": "textOnlyTransactional", "normalizesLineEndings": True,
                              "changeAnnotationSupport": {"groupsOnLabel": True}},
            "didChangeConfiguration": {"dynamicRegistration": True},
            "didChangeWatchedFiles": {"dynamicRegistration": True, "relativePatternSupport": True},
            "symbol": {"dynamicRegistration": True, "symbolKind": SYMBOL_KINDS, "tagSupport": {"valueSet": [1]},
                       "resolveSupport": {"properties": ["location.range"]}},
            "executeCommand": {"dynamicRegistration": True},
            "configuration": True,
            "workspaceFolders": True,
            "semanticTokens": {"refreshSupport": True},
            "codeLens": {"refreshSupport": True},
            "inlayHint": {"refreshSupport": True},
            "inlineValue": {"refreshSupport": True},
            "diagnostics": {"refreshSupport": True},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": True, "willSave": True, "willSaveWaitUntil": True, "didSave": True},
            "hover": {"dynamicRegistration": True, "contentFormat": ["markdown", "plaintext"]},
            "documentSymbol": {"dynamicRegistration": True, "symbolKind": SYMBOL_KINDS,
                               "hierarchicalDocumentSymbolSupport": True, "tagSupport": {"valueSet": [1]}, "labelSupport": True},
            "codeAction": {"dynamicRegistration": True, "isPreferredSupport": True, "disabledSupport": True, "dataSupport": True,
                           "resolveSupport": {"properties": ["edit"]}, "honorsChangeAnnotations": False,
                           "codeActionLiteralSupport": {"codeActionKind": {"valueSet": CODE_ACTION_KINDS}}},
            "documentLink": {"dynamicRegistration": True, "tooltipSupport": True},
            "colorProvider": {"dynamicRegistration": True},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True, "tagSupport": {"valueSet": [1, 2]},
                                   "codeDescriptionSupport": True, "dataSupport": True},
            "diagnostic": {"dynamicRegistration": True, "relatedDocumentSupport": False},
            "semanticTokens": {"dynamicRegistration": True, "tokenTypes": TOKEN_TYPES, "tokenModifiers": TOKEN_MODIFIERS,
                               "formats": ["relative"], "requests": {"range": True, "full": {"delta": True}},
                               "multilineTokenSupport": False, "overlappingTokenSupport": False,
                               "serverCancelSupport": True, "augmentsSyntaxTokens": True},
        },
    },
    initialization_options={"decorations": True, "highlight": {"rules": [{"name": "initopt", "words": ["INITOPT"]}]}},
    second_folder=True,
    trace="verbose",
    settings={},
    handles=_REGISTERING,
    sends_work_done_token=True,
)

NEOVIM_0_11_LIKE = Profile(
    name="neovim-0.11-like",
    capabilities={
        "general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]},
        "window": {"workDoneProgress": True, "showMessage": {"messageActionItem": {"additionalPropertiesSupport": True}},
                   "showDocument": {"support": True}},
        "workspace": {
            "configuration": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "workspaceFolders": True,
            "applyEdit": True,
            "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
            "symbol": {"dynamicRegistration": False, "symbolKind": SYMBOL_KINDS},
            "didChangeWatchedFiles": {"dynamicRegistration": False, "relativePatternSupport": True},
            "inlayHint": {"refreshSupport": True},
            "semanticTokens": {"refreshSupport": True},
        },
        "textDocument": {
            "synchronization": {"dynamicRegistration": False, "willSave": True, "willSaveWaitUntil": True, "didSave": True},
            "codeAction": {"dynamicRegistration": True, "isPreferredSupport": True, "dataSupport": True,
                           "resolveSupport": {"properties": ["edit", "command"]},
                           "codeActionLiteralSupport": {"codeActionKind": {"valueSet": CODE_ACTION_KINDS}}},
            "codeLens": {"dynamicRegistration": False, "resolveSupport": {"properties": ["command"]}},
            "diagnostic": {"dynamicRegistration": False, "tagSupport": {"valueSet": [1, 2]}},
            "publishDiagnostics": {"relatedInformation": True, "dataSupport": True, "tagSupport": {"valueSet": [1, 2]}},
            "documentSymbol": {"dynamicRegistration": False, "symbolKind": SYMBOL_KINDS, "hierarchicalDocumentSymbolSupport": True},
            "hover": {"dynamicRegistration": True, "contentFormat": ["markdown", "plaintext"]},
            "inlayHint": {"dynamicRegistration": True,
                          "resolveSupport": {"properties": ["textEdits", "tooltip", "location", "command"]}},
            "rename": {"dynamicRegistration": True, "prepareSupport": True},
            "references": {"dynamicRegistration": False},
            "documentHighlight": {"dynamicRegistration": False},
            "definition": {"dynamicRegistration": True, "linkSupport": True},
            "formatting": {"dynamicRegistration": True},
            "rangeFormatting": {"dynamicRegistration": True, "rangesSupport": True},
            "semanticTokens": {"dynamicRegistration": False, "tokenTypes": TOKEN_TYPES, "tokenModifiers": TOKEN_MODIFIERS,
                               "formats": ["relative"], "requests": {"range": False, "full": {"delta": True}},
                               "overlappingTokenSupport": True, "multilineTokenSupport": False,
                               "serverCancelSupport": False, "augmentsSyntaxTokens": True},
        },
    },
    initialization_options={"decorations": {"positionEncoding": "utf-8", "delta": True}},
    workspace_by="workspaceFolders",
    settings=None,
    handles=_REGISTERING,
)

MINIMAL = Profile(name="minimal", capabilities={}, workspace_by="rootUri")

SPARSE_UTF32 = Profile(
    name="sparse-utf32",
    capabilities={
        "general": {"positionEncodings": ["utf-32"]},
        "window": {"workDoneProgress": False},
        "workspace": {"configuration": True, "applyEdit": True, "workspaceEdit": {"documentChanges": True},
                      "didChangeWatchedFiles": {"dynamicRegistration": False}, "semanticTokens": {"refreshSupport": False}},
        "textDocument": {
            "synchronization": {"didSave": True},
            "hover": {"contentFormat": ["plaintext"]},
            "documentLink": {"tooltipSupport": False},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": False},
            "codeAction": {"isPreferredSupport": False},
            "publishDiagnostics": {"versionSupport": True, "codeDescriptionSupport": False, "relatedInformation": False},
            "semanticTokens": {"dynamicRegistration": False, "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"],
                               "requests": {"range": True, "full": {"delta": True}},
                               "multilineTokenSupport": False, "overlappingTokenSupport": False},
        },
        "experimental": {"highlightDecorations": {"positionEncoding": "utf-16"}},
    },
    workspace_by="rootPath",
    settings={"rules": [{"name": "fromsettings", "words": ["SETTING"]}]},
)

PROFILES = [VSCODE_LIKE, NEOVIM_0_11_LIKE, MINIMAL, SPARSE_UTF32]
