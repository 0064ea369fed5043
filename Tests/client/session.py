"""A complete LSP session with the server binary, driven by pygls's ``LanguageClient``.

pygls frames and parses every message; this module only starts the process,
puts a timeout on every request, collects what the server logs, and makes sure
the process is gone at the end.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

#: Seconds any single request may take before the test fails.
REQUEST_TIMEOUT = 10.0

#: Seconds the server may take to exit after ``exit``.
EXIT_TIMEOUT = 10.0


def server_path() -> str:
    """The server binary: ``$HIGHLIGHT_LS``, or the debug build of this checkout."""
    default = Path(__file__).resolve().parents[2] / ".build" / "debug" / "highlight-ls"
    return os.environ.get("HIGHLIGHT_LS", str(default))


class Session:
    """One server process and the pygls client talking to it over stdio."""

    def __init__(self, root: Path, offered_encodings: list[str] | None) -> None:
        self.root = root
        self.offered_encodings = offered_encodings
        self.client = LanguageClient("highlight-ls-client-tests", "1")
        self.encoding = ""
        self.legend: list[str] = []
        self.log_messages: list[str] = []
        self.protocol_errors: list[str] = []
        self._stderr = bytearray()
        self._stderr_task: asyncio.Task | None = None
        self.exit_code: int | None = None

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def _log(params: types.LogMessageParams) -> None:
            self.log_messages.append(params.message)

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def _show(params: types.ShowMessageParams) -> None:
            self.log_messages.append(params.message)

        def _report(error, source) -> None:
            self.protocol_errors.append(f"{source.__name__}: {error!r}")

        self.client.report_server_error = _report

    @property
    def server_log(self) -> str:
        """What the server wrote to stderr and ``window/logMessage`` so far."""
        return self._stderr.decode("utf-8", "replace") + "\n".join(self.log_messages)

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        # pygls pipes stderr; reading it keeps a chatty server from blocking on a full pipe.
        while chunk := await stream.read(65536):
            self._stderr += chunk

    async def start(self) -> types.InitializeResult:
        """Starts the server, sends ``initialize`` and ``initialized``, and records the legend."""
        binary = server_path()
        if not os.access(binary, os.X_OK):
            raise AssertionError(f"no server binary at {binary}; build it or set HIGHLIGHT_LS")
        await self.client.start_io(binary)
        process = self.client._server
        if process is not None and process.stderr is not None:
            self._stderr_task = asyncio.create_task(self._drain_stderr(process.stderr))

        general = None
        if self.offered_encodings is not None:
            general = types.GeneralClientCapabilities(position_encodings=self.offered_encodings)
        capabilities = types.ClientCapabilities(
            general=general,
            text_document=types.TextDocumentClientCapabilities(
                synchronization=types.TextDocumentSyncClientCapabilities(),
                semantic_tokens=types.SemanticTokensClientCapabilities(
                    requests=types.ClientSemanticTokensRequestOptions(
                        range=True, full=types.ClientSemanticTokensRequestFullDelta(delta=True)
                    ),
                    token_types=[],
                    token_modifiers=[],
                    formats=[types.TokenFormat.Relative],
                    overlapping_token_support=False,
                    multiline_token_support=False,
                ),
            ),
        )
        result = await self.request(
            self.client.initialize_async(
                types.InitializeParams(
                    process_id=os.getpid(),
                    root_uri=self.root.as_uri(),
                    workspace_folders=[types.WorkspaceFolder(uri=self.root.as_uri(), name=self.root.name)],
                    capabilities=capabilities,
                )
            )
        )
        provider = result.capabilities.semantic_tokens_provider
        assert provider is not None, "the server offers no semantic tokens"
        self.legend = list(provider.legend.token_types)
        self.encoding = str(result.capabilities.position_encoding or "utf-16")
        self.client.initialized(types.InitializedParams())
        return result

    async def request(self, awaitable):
        """Awaits one request's response, failing after ``REQUEST_TIMEOUT`` seconds."""
        try:
            return await asyncio.wait_for(awaitable, REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            raise AssertionError(f"no response within {REQUEST_TIMEOUT} s\n{self.server_log}") from None

    async def finish(self) -> int:
        """Sends ``shutdown`` and ``exit`` and returns the process's exit code."""
        await self.request(self.client.shutdown_async(None))
        self.client.exit(None)
        process = self.client._server
        assert process is not None
        try:
            self.exit_code = await asyncio.wait_for(process.wait(), EXIT_TIMEOUT)
        except asyncio.TimeoutError:
            raise AssertionError(f"the server did not exit within {EXIT_TIMEOUT} s after exit") from None
        return self.exit_code

    async def close(self) -> None:
        """Kills the server if it is still running and stops the client's tasks."""
        process = self.client._server
        if process is not None and process.returncode is None:
            process.kill()
            try:
                await asyncio.wait_for(process.wait(), EXIT_TIMEOUT)
            except (asyncio.TimeoutError, ProcessLookupError):
                pass
        try:
            await asyncio.wait_for(self.client.stop(), EXIT_TIMEOUT)
        except asyncio.TimeoutError:
            pass
        if self._stderr_task is not None:
            try:
                await asyncio.wait_for(self._stderr_task, EXIT_TIMEOUT)
            except asyncio.TimeoutError:
                self._stderr_task.cancel()

    # --- Documents and semantic tokens ---------------------------------------------------

    def open(self, uri: str, text: str, version: int = 1) -> None:
        """Sends ``textDocument/didOpen``."""
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="plaintext", version=version, text=text)
            )
        )

    def change(self, uri: str, version: int, changes: list[tuple[tuple[int, int], tuple[int, int], str]]) -> None:
        """Sends ``textDocument/didChange`` with incremental changes ``(start, end, text)``."""
        content_changes = [
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=start[0], character=start[1]),
                    end=types.Position(line=end[0], character=end[1]),
                ),
                text=text,
            )
            for start, end, text in changes
        ]
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=content_changes,
            )
        )

    async def full(self, uri: str) -> types.SemanticTokens:
        """``textDocument/semanticTokens/full``."""
        result = await self.request(
            self.client.text_document_semantic_tokens_full_async(
                types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
        )
        assert isinstance(result, types.SemanticTokens), f"full answered {result!r}"
        return result

    async def delta(self, uri: str, previous_result_id: str):
        """``textDocument/semanticTokens/full/delta``: a ``SemanticTokensDelta`` or ``SemanticTokens``."""
        result = await self.request(
            self.client.text_document_semantic_tokens_full_delta_async(
                types.SemanticTokensDeltaParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous_result_id
                )
            )
        )
        assert isinstance(result, (types.SemanticTokens, types.SemanticTokensDelta)), f"delta answered {result!r}"
        return result

    async def range(self, uri: str, start: tuple[int, int], end: tuple[int, int]) -> types.SemanticTokens:
        """``textDocument/semanticTokens/range``."""
        result = await self.request(
            self.client.text_document_semantic_tokens_range_async(
                types.SemanticTokensRangeParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=types.Range(
                        start=types.Position(line=start[0], character=start[1]),
                        end=types.Position(line=end[0], character=end[1]),
                    ),
                )
            )
        )
        assert isinstance(result, types.SemanticTokens), f"range answered {result!r}"
        return result


def run_session(root: Path, offered_encodings: list[str] | None, scenario, timeout: float = 120.0) -> Session:
    """Runs ``scenario(session)`` between ``initialize`` and ``exit``; asserts exit code 0.

    The server is killed whatever happens.
    """

    async def main() -> Session:
        session = Session(root, offered_encodings)
        try:
            await session.start()
            await scenario(session)
            exit_code = await session.finish()
        finally:
            await session.close()
        assert not session.protocol_errors, f"protocol errors: {session.protocol_errors}"
        assert exit_code == 0, f"exit code {exit_code}\n{session.server_log}"
        return session

    return asyncio.run(asyncio.wait_for(main(), timeout))

