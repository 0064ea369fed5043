// The one place that uses `vscode-languageclient`, the client library of VS Code's LSP
// extensions: everything else talks to the small interface below, so that the rest of the
// extension is plain code and the tests can stand in for the library.
'use strict';

const { LanguageClient, TransportKind, DidChangeConfigurationNotification } = require('vscode-languageclient/node');

/** The client id; vscode-languageclient reads the setting `<id>.trace.server`. */
const clientId = 'highlightLs';

/**
 * Creates (does not start) a client for the server at `command`, over stdio.
 * `clientOptions` are vscode-languageclient's `LanguageClientOptions`.
 */
function createServerClient(command, clientOptions) {
  const serverOptions = { command, args: [], transport: TransportKind.stdio };
  const client = new LanguageClient(clientId, 'highlight-ls', serverOptions, clientOptions);
  return {
    start: () => client.start(),
    stop: () => client.stop(),
    onNotification: (method, handler) => client.onNotification(method, handler),
    sendRequest: (method, params) => client.sendRequest(method, params),
    /** Tells the server its settings changed; it asks again with workspace/configuration. */
    notifyConfigurationChanged: () => client.sendNotification(DidChangeConfigurationNotification.type, { settings: null }),
    /** The URI string of a `vscode.Uri` as the server knows it. */
    protocolUri: (uri) => client.code2ProtocolConverter.asUri(uri),
  };
}

module.exports = { clientId, createServerClient };
