// highlight-ls for VS Code: starts the server for every file and draws the exact style of every
// highlight with TextEditorDecorationTypes, updated on `highlight/publishDecorations`.
//
// Plain JavaScript, so there is no build step. The mapping from the server's payload to
// decorations lives in decorations.js, and the settings section in settings.js; both are
// tested with `node --test` without VS Code.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind, DidChangeConfigurationNotification } = require('vscode-languageclient/node');
const { planDecorations, isStale } = require('./decorations');
const { serverSection } = require('./settings');

const decorationsMethod = 'highlight/publishDecorations';
const decorationsRequest = 'highlight/decorations';

/** The running client, or undefined. */
let client;
/** One decoration type per distinct style, shared by all editors: style key -> type. */
const decorationTypes = new Map();
/** The latest payload of each document, by the URI string the server knows: drawn again when an editor shows up. */
const latestByUri = new Map();

function protocolUri(uri) {
  return client ? client.code2ProtocolConverter.asUri(uri) : uri.toString();
}

function decorationType(entry) {
  let type = decorationTypes.get(entry.key);
  if (!type) {
    const options = { ...entry.options };
    if (options.overviewRulerColor) options.overviewRulerLane = vscode.OverviewRulerLane.Right;
    type = vscode.window.createTextEditorDecorationType(options);
    decorationTypes.set(entry.key, type);
  }
  return type;
}

/** Draws a payload in one editor: every type not used by it is cleared there. */
function draw(editor, payload) {
  const document = editor.document;
  if (isStale(payload, document.version)) return;
  const plan = planDecorations(payload, (line) => (line < document.lineCount ? document.lineAt(line).text : undefined));
  const used = new Set();
  for (const entry of plan) {
    if (entry.ranges.length === 0) continue;
    used.add(entry.key);
    const ranges = entry.ranges.map((range) => new vscode.Range(range.line, range.startCharacter, range.line, range.endCharacter));
    editor.setDecorations(decorationType(entry), ranges);
  }
  for (const [key, type] of decorationTypes) {
    if (!used.has(key)) editor.setDecorations(type, []);
  }
}

function onDecorations(payload) {
  const uri = payload && payload.textDocument && payload.textDocument.uri;
  if (typeof uri !== 'string') return;
  latestByUri.set(uri, payload);
  for (const editor of vscode.window.visibleTextEditors) {
    if (protocolUri(editor.document.uri) === uri) draw(editor, payload);
  }
}

function redrawVisibleEditors() {
  for (const editor of vscode.window.visibleTextEditors) {
    const payload = latestByUri.get(protocolUri(editor.document.uri));
    if (payload) draw(editor, payload);
  }
}

/** The `highlight` section for workspace/configuration, for a scope (a folder or document URI). */
function sectionFor(scopeUri) {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  const configuration = vscode.workspace.getConfiguration('highlight', scope);
  return serverSection((key) => configuration.inspect(key));
}

function createClient() {
  const configuration = vscode.workspace.getConfiguration('highlight');
  const command = configuration.get('path') || 'highlight-ls';
  const decorations = configuration.get('decorations') !== false;
  const serverOptions = { command, args: [], transport: TransportKind.stdio };
  const clientOptions = {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    // VS Code columns are UTF-16 code units, the protocol's default.
    initializationOptions: decorations ? { decorations: { positionEncoding: 'utf-16' } } : {},
    middleware: {
      workspace: {
        // Answer with the keys the user set only (see settings.js), instead of the whole
        // section with its defaults and the extension's own keys.
        configuration: (params, _token, _next) =>
          params.items.map((item) => (item.section === 'highlight' ? sectionFor(item.scopeUri) : null)),
      },
    },
  };
  const languageClient = new LanguageClient('highlight-ls', 'highlight-ls', serverOptions, clientOptions);
  languageClient.onNotification(decorationsMethod, onDecorations);
  return languageClient;
}

async function start() {
  client = createClient();
  await client.start();
}

async function restart() {
  const old = client;
  client = undefined;
  if (old) await old.stop();
  clearAll();
  await start();
}

function clearAll() {
  latestByUri.clear();
  for (const type of decorationTypes.values()) type.dispose();
  decorationTypes.clear();
}

/** Asks the server for the active editor's decorations and draws them. */
async function refresh() {
  const editor = vscode.window.activeTextEditor;
  if (!client || !editor) return;
  const payload = await client.sendRequest(decorationsRequest, { textDocument: { uri: protocolUri(editor.document.uri) } });
  if (payload) onDecorations(payload);
}

async function activate(context) {
  context.subscriptions.push(
    vscode.window.onDidChangeVisibleTextEditors(redrawVisibleEditors),
    vscode.workspace.onDidCloseTextDocument((document) => latestByUri.delete(protocolUri(document.uri))),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('highlight.path') || event.affectsConfiguration('highlight.decorations')) {
        await restart();
      } else if (event.affectsConfiguration('highlight') && client) {
        // No settings in the notification: the server asks with workspace/configuration,
        // which the middleware above answers per folder.
        await client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      }
    }),
    vscode.commands.registerCommand('highlight.restart', restart),
    vscode.commands.registerCommand('highlight.refresh', refresh),
    { dispose: clearAll },
  );
  await start();
}

async function deactivate() {
  const old = client;
  client = undefined;
  if (old) await old.stop();
}

module.exports = { activate, deactivate };
