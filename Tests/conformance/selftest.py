"""The checker's own test: a recorded valid session passes, and each broken copy of it is caught.

``RECORDED`` is a short session of the server with a client that announced nothing (recorded
from the real server, its legend shortened): one document with an emoji before a ticket, and
the answers to links, a code action, hover, tokens, the outline and a workspace list in partial
results. Each mutation breaks one message the way a server could (a field the client did not
announce, a field the meta model does not have, a position in the wrong encoding, a partial
result after the response, a request the client cannot take, ...) and names the rule that must
catch it. The check cannot pass vacuously: if a rule stopped firing, its mutation would fail.
"""

from __future__ import annotations

import copy
import typing

from checker import Checker

URI = "file:///selftest/a.txt"
RANGE_TODO = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 4}}
#: "AB-12" after "TODO 🎉 fix ": the emoji is two UTF-16 units, so the ticket starts at 12.
RANGE_TICKET = {"start": {"line": 0, "character": 12}, "end": {"line": 0, "character": 17}}
SYMBOL = {"containerName": "todo", "kind": 15, "location": {"range": RANGE_TODO, "uri": URI}, "name": "TODO 🎉 fix AB-12"}

RECORDED: list[tuple[str, dict]] = [
    ("out", {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": "file:///selftest", "capabilities": {}}}),
    ("in", {"id": 1, "jsonrpc": "2.0", "result": {"capabilities": {
        "codeActionProvider": True, "colorProvider": True,
        "diagnosticProvider": {"identifier": "highlight-ls", "interFileDependencies": False, "workspaceDiagnostics": False},
        "documentLinkProvider": {"resolveProvider": False}, "documentSymbolProvider": {"label": "highlight-ls"},
        "executeCommandProvider": {"commands": ["highlight.mark", "highlight.unmark", "highlight.clearMarks"]},
        "experimental": {"highlightDecorations": {"method": "highlight/publishDecorations"}, "countsProvider": True},
        "hoverProvider": True,
        "positionEncoding": "utf-16",
        "semanticTokensProvider": {"full": {"delta": True}, "range": True,
                                   "legend": {"tokenModifiers": [], "tokenTypes": ["todo", "ticket", "highlight"]}},
        "textDocumentSync": {"change": 2, "openClose": True, "save": {"includeText": False}},
        "workspace": {"workspaceFolders": {"changeNotifications": True, "supported": True}},
        "workspaceSymbolProvider": {"workDoneProgress": True}},
        "serverInfo": {"name": "highlight-ls", "version": "0.1.0"}}}),
    ("out", {"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ("out", {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": URI, "languageId": "plaintext", "version": 1, "text": "TODO 🎉 fix AB-12\n"}}}),
    ("in", {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {"uri": URI, "diagnostics": [
        {"code": "todo", "message": "todo: TODO", "range": RANGE_TODO, "severity": 3, "source": "highlight-ls"},
        {"code": "ticket", "message": "ticket AB-12", "range": RANGE_TICKET, "severity": 4, "source": "highlight-ls"}]}}),
    ("out", {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentLink", "params": {"textDocument": {"uri": URI}}}),
    ("in", {"id": 2, "jsonrpc": "2.0", "result": [{"range": RANGE_TICKET, "target": "https://tracker.example/AB-12"}]}),
    ("out", {"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction", "params": {
        "textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 9}},
        "context": {"diagnostics": []}}}),
    ("in", {"id": 3, "jsonrpc": "2.0", "result": [
        {"arguments": [{"text": "fix", "wholeWord": True}], "command": "highlight.mark", "title": "Highlight «fix»"}]}),
    ("out", {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": URI}, "position": {"line": 0, "character": 14}}}),
    ("in", {"id": 4, "jsonrpc": "2.0", "result": {
        "contents": {"kind": "plaintext", "value": "ticket (hint)\n\nticket AB-12\n\nhttps://tracker.example/AB-12"},
        "range": RANGE_TICKET}}),
    ("out", {"jsonrpc": "2.0", "id": 5, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": URI}}}),
    ("in", {"id": 5, "jsonrpc": "2.0", "result": {"data": [0, 0, 4, 0, 0, 0, 12, 5, 1, 0], "resultId": "1"}}),
    ("out", {"jsonrpc": "2.0", "id": 6, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": URI}}}),
    ("in", {"id": 6, "jsonrpc": "2.0", "result": [SYMBOL]}),
    ("out", {"jsonrpc": "2.0", "id": 7, "method": "workspace/symbol", "params": {"query": "", "partialResultToken": "p1"}}),
    ("in", {"jsonrpc": "2.0", "method": "$/progress", "params": {"token": "p1", "value": [SYMBOL]}}),
    ("in", {"id": 7, "jsonrpc": "2.0", "result": []}),
    ("out", {"jsonrpc": "2.0", "id": 9, "method": "highlight/counts", "params": {}}),
    ("in", {"id": 9, "jsonrpc": "2.0", "result": {"counts": [{"rule": "todo", "count": 1}], "total": 1, "files": 1}}),
    ("out", {"jsonrpc": "2.0", "id": 8, "method": "shutdown"}),
    ("in", {"id": 8, "jsonrpc": "2.0", "result": None}),
    ("out", {"jsonrpc": "2.0", "method": "exit"}),
]

Transcript = list[tuple[str, dict]]


def _response(transcript: Transcript, request_id: int) -> dict:
    return next(m for d, m in transcript if d == "in" and m.get("id") == request_id and "method" not in m)


def _index(transcript: Transcript, predicate: typing.Callable[[str, dict], bool]) -> int:
    return next(i for i, (d, m) in enumerate(transcript) if predicate(d, m))


def _diagnostics(transcript: Transcript) -> dict:
    return next(m for d, m in transcript if m.get("method") == "textDocument/publishDiagnostics")["params"]


def _server_request(method: str, params: typing.Any = None) -> typing.Callable[[Transcript], None]:
    def insert(transcript: Transcript) -> None:
        message = {"jsonrpc": "2.0", "id": "s1", "method": method}
        if params is not None:
            message["params"] = params
        transcript.insert(_index(transcript, lambda d, m: m.get("method") == "shutdown"), ("in", message))
    return insert


def _server_request_with_apply_edit(edit: dict, document_changes: bool = False) -> typing.Callable[[Transcript], None]:
    """`workspace/applyEdit` to a client that announced it (and, if asked, documentChanges but no resource operations)."""
    def insert(transcript: Transcript) -> None:
        workspace = {"applyEdit": True, **({"workspaceEdit": {"documentChanges": True}} if document_changes else {})}
        transcript[0][1]["params"]["capabilities"] = {"workspace": workspace}
        _server_request("workspace/applyEdit", {"edit": edit})(transcript)
    return insert


def _token_data(data: list[int]) -> typing.Callable[[Transcript], None]:
    return lambda t: _response(t, 5)["result"].update(data=data)


def _partial_after_response(transcript: Transcript) -> None:
    at = _index(transcript, lambda d, m: m.get("method") == "$/progress")
    transcript.insert(at + 2, transcript.pop(at))


def _work_done_after_response(transcript: Transcript) -> None:
    request = next(m for d, m in transcript if m.get("method") == "workspace/symbol")
    request["params"]["workDoneToken"] = "w1"
    at = _index(transcript, lambda d, m: m.get("id") == 7 and "method" not in m)
    transcript.insert(at + 1, ("in", {"jsonrpc": "2.0", "method": "$/progress", "params": {"token": "w1", "value": {"kind": "end"}}}))


def _utf32_client_and_server(transcript: Transcript) -> None:
    transcript[0][1]["params"]["capabilities"] = {"general": {"positionEncodings": ["utf-32"]}}
    _response(transcript, 1)["result"]["capabilities"]["positionEncoding"] = "utf-32"  # positions stay UTF-16


def _created_token_used(transcript: Transcript) -> None:
    _server_request("window/workDoneProgress/create", {"token": "t1"})(transcript)
    at = _index(transcript, lambda d, m: m.get("method") == "shutdown")
    transcript.insert(at, ("out", {"jsonrpc": "2.0", "id": "s1", "error": {"code": -32601, "message": "no"}}))
    transcript.insert(at + 1, ("in", {"jsonrpc": "2.0", "method": "$/progress",
                                      "params": {"token": "t1", "value": {"kind": "begin", "title": "scan"}}}))


#: (what is broken, the rule that must catch it, how).
MUTATION_LIST: list[tuple[str, str, typing.Callable[[Transcript], None]]] = [
    ("documentLink tooltip without tooltipSupport", "documentLink.tooltip",
     lambda t: _response(t, 2)["result"][0].update(tooltip="ticket AB-12")),
    ("a field the meta model's DocumentLink does not have", "meta-model",
     lambda t: _response(t, 2)["result"][0].update(tooltips="x")),
    ("a required field missing (DocumentLink.range)", "meta-model", lambda t: _response(t, 2)["result"][0].pop("range")),
    ("a string where the meta model has an integer", "meta-model",
     lambda t: _response(t, 2)["result"][0].update(range={"start": {"line": 0, "character": "12"}, "end": RANGE_TICKET["end"]})),
    ("an explicit null for an optional field", "meta-model", lambda t: _response(t, 4)["result"].update(range=None)),
    ("a position inside the emoji's surrogate pair", "position",
     lambda t: _response(t, 2)["result"][0].update(range={"start": {"line": 0, "character": 6}, "end": RANGE_TICKET["end"]})),
    ("a position past the end of the line", "position",
     lambda t: _response(t, 4)["result"].update(range={"start": RANGE_TICKET["start"], "end": {"line": 0, "character": 30}})),
    ("UTF-16 positions after negotiating UTF-32 (the ticket ends past the line)", "position", _utf32_client_and_server),
    ("positionEncoding the client did not offer", "encoding.negotiated",
     lambda t: _response(t, 1)["result"]["capabilities"].update(positionEncoding="utf-32")),
    ("a CodeAction literal without codeActionLiteralSupport", "codeAction.literal",
     lambda t: _response(t, 3).update(result=[{"title": "Highlight «fix»", "kind": "refactor.highlight", "command": {
         "title": "Highlight «fix»", "command": "highlight.mark", "arguments": [{"text": "fix", "wholeWord": True}]}}])),
    ("publishDiagnostics version without versionSupport", "diagnostics.version", lambda t: _diagnostics(t).update(version=1)),
    ("codeDescription without codeDescriptionSupport", "diagnostics.codeDescription",
     lambda t: _diagnostics(t)["diagnostics"][1].update(codeDescription={"href": "https://tracker.example/AB-12"})),
    ("diagnostic tags without tagSupport", "diagnostics.tags", lambda t: _diagnostics(t)["diagnostics"][0].update(tags=[1])),
    ("relatedInformation without support", "diagnostics.relatedInformation",
     lambda t: _diagnostics(t)["diagnostics"][0].update(relatedInformation=[
         {"location": {"uri": URI, "range": RANGE_TODO}, "message": "here"}])),
    ("markdown hover for a client without contentFormat", "hover.markdown",
     lambda t: _response(t, 4)["result"]["contents"].update(kind="markdown")),
    ("DocumentSymbol without hierarchicalDocumentSymbolSupport", "documentSymbol.hierarchical",
     lambda t: _response(t, 6).update(result=[{"name": "todo", "kind": 3, "range": RANGE_TODO, "selectionRange": RANGE_TODO}])),
    ("a symbol kind outside File..Array", "symbol.kind", lambda t: _response(t, 6)["result"][0].update(kind=26)),
    ("a DocumentSymbol whose selectionRange is outside its range", "documentSymbol.containment",
     lambda t: (t[0][1]["params"]["capabilities"].update(textDocument={"documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}),
                _response(t, 6).update(result=[{"name": "todo", "kind": 3, "range": RANGE_TODO, "selectionRange": RANGE_TICKET}]))),
    ("documentChanges without workspaceEdit.documentChanges", "workspaceEdit.documentChanges",
     _server_request_with_apply_edit({"documentChanges": [{"textDocument": {"uri": URI, "version": 1}, "edits": []}]})),
    ("a CreateFile without the create resource operation", "workspaceEdit.resourceOperations",
     _server_request_with_apply_edit({"documentChanges": [{"kind": "create", "uri": "file:///selftest/b.json"}]}, document_changes=True)),
    ("a TextDocumentEdit naming an old version of an open document", "workspaceEdit.version",
     _server_request_with_apply_edit({"documentChanges": [{"textDocument": {"uri": URI, "version": 0}, "edits": []}]},
                                     document_changes=True)),
    ("a WorkspaceSymbol without range and without resolveSupport", "workspaceSymbol.resolve",
     lambda t: next(m for d, m in t if m.get("method") == "$/progress")["params"].update(
         value=[{"name": "TODO", "kind": 15, "location": {"uri": URI}}])),
    ("a token type outside the legend", "semanticTokens.legend", _token_data([0, 0, 4, 3, 0])),
    ("a token running past its line", "semanticTokens.multiline", _token_data([0, 12, 9, 1, 0])),
    ("overlapping tokens", "semanticTokens.overlap", _token_data([0, 0, 4, 0, 0, 0, 2, 4, 1, 0])),
    ("a partial result after the response", "progress.partialAfterResponse", _partial_after_response),
    ("partial results, then a result that is not empty", "progress.partialThenResult",
     lambda t: _response(t, 7).update(result=[SYMBOL])),
    ("work done progress on the request's token after its response", "progress.workDoneAfterResponse", _work_done_after_response),
    ("$/progress with a token nobody gave", "progress.unknownToken",
     lambda t: next(m for d, m in t if m.get("method") == "$/progress")["params"].update(token="p2")),
    ("a refused progress token used", "progress.notCreated", _created_token_used),
    ("workDoneProgress/create without window.workDoneProgress", "request.window/workDoneProgress/create",
     _server_request("window/workDoneProgress/create", {"token": "t1"})),
    ("semanticTokens/refresh without refreshSupport", "request.workspace/semanticTokens/refresh",
     _server_request("workspace/semanticTokens/refresh")),
    ("inlayHint/refresh without refreshSupport", "request.workspace/inlayHint/refresh", _server_request("workspace/inlayHint/refresh")),
    ("codeLens/refresh without refreshSupport", "request.workspace/codeLens/refresh", _server_request("workspace/codeLens/refresh")),
    ("diagnostic/refresh without refreshSupport", "request.workspace/diagnostic/refresh", _server_request("workspace/diagnostic/refresh")),
    ("workspace/configuration without workspace.configuration", "request.workspace/configuration",
     _server_request("workspace/configuration", {"items": [{"section": "highlight"}]})),
    ("window/showDocument without support", "request.window/showDocument",
     _server_request("window/showDocument", {"uri": "https://tracker.example/AB-12", "external": True})),
    ("workspace/applyEdit without workspace.applyEdit", "request.workspace/applyEdit",
     _server_request("workspace/applyEdit", {"edit": {"changes": {}}})),
    ("registerCapability without dynamicRegistration", "register.dynamic",
     _server_request("client/registerCapability", {"registrations": [{"id": "r1", "method": "workspace/didChangeWatchedFiles",
                                                                      "registerOptions": {"watchers": [{"globPattern": "**/x"}]}}]})),
    ("decorations to a client that did not opt in", "decorations.optIn",
     lambda t: t.insert(5, ("in", {"jsonrpc": "2.0", "method": "highlight/publishDecorations", "params": {
         "textDocument": {"uri": URI, "version": 1}, "positionEncoding": "utf-16", "styles": [], "ranges": []}}))),
    ("a notification before the initialize response", "lifecycle.beforeInitialize",
     lambda t: t.insert(1, t.pop(_index(t, lambda d, m: m.get("method") == "textDocument/publishDiagnostics")))),
    ("counts out of order", "counts.shape",
     lambda t: _response(t, 9).update(result={"counts": [{"rule": "todo", "count": 1}, {"rule": "fixme", "count": 2}],
                                               "total": 3, "files": 1})),
    ("a total that is not the counts' sum", "counts.shape", lambda t: _response(t, 9)["result"].update(total=2)),
    ("a request never answered", "response.missing", lambda t: t.remove(("in", _response(t, 6)))),
]

VALID_MESSAGES = sum(1 for direction, _ in RECORDED if direction == "in")
MUTATIONS = len(MUTATION_LIST)


def check(transcript: Transcript) -> Checker:
    checker = Checker()
    for direction, message in transcript:
        if direction == "out":
            checker.outgoing(message)
        else:
            checker.incoming(message)
    checker.finish()
    return checker


def run() -> list[str]:
    """What failed: the recorded session flagged, or a broken copy not caught."""
    failures = []
    baseline = check(copy.deepcopy(RECORDED))
    for violation in baseline.violations:
        failures.append(f"the recorded valid session is flagged: {violation}")
    for what, rule, mutate in MUTATION_LIST:
        transcript = copy.deepcopy(RECORDED)
        mutate(transcript)
        found = {violation.rule for violation in check(transcript).violations}
        if rule not in found:
            failures.append(f"{what}: expected [{rule}], found {sorted(found) or 'nothing'}")
    return failures


if __name__ == "__main__":
    import sys

    problems = run()
    print("\n".join(problems) or f"ok: {VALID_MESSAGES} valid messages pass, {MUTATIONS} broken ones are caught")
    sys.exit(1 if problems else 0)
