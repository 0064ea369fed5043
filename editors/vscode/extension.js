// highlight-ls for VS Code: finds and checks the server binary, starts it for every file, and
// draws the exact style of every highlight with TextEditorDecorationTypes, updated on
// `highlight/publishDecorations`.
//
// Plain JavaScript, so there is no build step. The pure parts live in their own modules, tested
// with `node --test` without VS Code: the decoration mapping (decorations.js), the settings
// (settings.js) and the binary lookup (serverBinary.js). vscode-languageclient is used only in
// languageClient.js.
'use strict';

const vscode = require('vscode');
const { createServerClient } = require('./languageClient');
const { planDecorations, isStale } = require('./decorations');
const { namespace, serverSectionName, serverSection, configuredServerPath } = require('./settings');
const { findServer, checkServerVersion, problemMessage } = require('./serverBinary');
const { createFindView } = require('./findView');

const decorationsMethod = 'highlight/publishDecorations';
const decorationsRequest = 'highlight/decorations';

/** What one activation owns; undefined while inactive. */
let state;

function newState(context) {
  return {
    context,
    output: vscode.window.createOutputChannel('highlight-ls'),
    /** The running client, or undefined (not started, or the binary was unusable). */
    client: undefined,
    /** One decoration type per distinct style, shared by all editors: style key -> type. */
    decorationTypes: new Map(),
    /** The latest payload of each document, by the URI string the server knows. */
    latestByUri: new Map(),
    /** Serialises starts and stops, so a burst of setting changes cannot start two servers. */
    queue: Promise.resolve(),
  };
}

function log(message) {
  if (state) state.output.appendLine(message);
}

function protocolUri(uri) {
  return state && state.client ? state.client.protocolUri(uri) : uri.toString();
}

/** A decoration type's options with the `vscode` values its plan names: a Uri, a lane. */
function typeOptions(options) {
  const result = { ...options };
  if (typeof options.gutterIconPath === 'string') result.gutterIconPath = vscode.Uri.parse(options.gutterIconPath);
  if (typeof options.overviewRulerLane === 'string') {
    result.overviewRulerLane = vscode.OverviewRulerLane[options.overviewRulerLane] || vscode.OverviewRulerLane.Center;
  }
  return result;
}

function decorationType(entry) {
  let type = state.decorationTypes.get(entry.key);
  if (!type) {
    type = vscode.window.createTextEditorDecorationType(entry.kind ? typeOptions(entry.options) : {
      ...typeOptions(entry.options),
      // A highlight covers the text it matched: typing at its edge must not stretch it until
      // the server's next answer.
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    });
    state.decorationTypes.set(entry.key, type);
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
    if (entry.kind) {
      // A line mark is set on its line's text.
      const lines = entry.lines.filter((line) => line < document.lineCount);
      if (lines.length === 0) continue;
      used.add(entry.key);
      editor.setDecorations(decorationType(entry), lines.map((line) => document.lineAt(line).range));
      continue;
    }
    // A style that draws nothing on its ranges (line marks only) needs no type.
    if (entry.ranges.length === 0 || Object.keys(entry.options).length === 0) continue;
    used.add(entry.key);
    const ranges = entry.ranges.map((range) => new vscode.Range(range.line, range.startCharacter, range.line, range.endCharacter));
    editor.setDecorations(decorationType(entry), ranges);
  }
  for (const [key, type] of state.decorationTypes) {
    if (!used.has(key)) editor.setDecorations(type, []);
  }
}

function onDecorations(payload) {
  const uri = payload && payload.textDocument && payload.textDocument.uri;
  if (!state || typeof uri !== 'string') return;
  // Keep the newest payload: a late answer to a refresh must not replace a newer notification.
  const known = state.latestByUri.get(uri);
  if (known && isStale(payload, known.textDocument.version)) return;
  state.latestByUri.set(uri, payload);
  for (const editor of vscode.window.visibleTextEditors) {
    if (protocolUri(editor.document.uri) === uri) draw(editor, payload);
  }
}

function redrawVisibleEditors() {
  if (!state) return;
  for (const editor of vscode.window.visibleTextEditors) {
    const payload = state.latestByUri.get(protocolUri(editor.document.uri));
    if (payload) draw(editor, payload);
  }
}

/** The `highlight` section for workspace/configuration, for a scope (a folder or document URI). */
function sectionFor(scopeUri) {
  const scope = scopeUri ? vscode.Uri.parse(scopeUri) : undefined;
  const configuration = vscode.workspace.getConfiguration(namespace, scope);
  return serverSection((key) => configuration.inspect(key));
}

function clientOptions(decorations) {
  return {
    documentSelector: [{ scheme: 'file' }, { scheme: 'untitled' }],
    outputChannel: state.output,
    // VS Code columns are UTF-16 code units, the protocol's default.
    initializationOptions: decorations ? { decorations: { positionEncoding: 'utf-16' } } : {},
    middleware: {
      workspace: {
        // Answer the server's section from the `highlightLs` settings, with the keys the user set
        // only (see settings.js), instead of the whole section with its defaults.
        configuration: (params, _token, _next) =>
          params.items.map((item) => (item.section === serverSectionName ? sectionFor(item.scopeUri) : null)),
      },
    },
  };
}

/** Tells the user about a binary that cannot be used, with buttons for the fix. */
async function reportProblem(message) {
  log(message);
  const openSettings = 'Open Settings';
  const showOutput = 'Show Output';
  const choice = await vscode.window.showErrorMessage(message, openSettings, showOutput);
  if (choice === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', `${namespace}.path`);
  if (choice === showOutput) state && state.output.show(true);
}

/** Finds and checks the binary, then starts the client; on a problem, tells the user and starts nothing. */
async function start() {
  const configuration = vscode.workspace.getConfiguration(namespace);
  const trusted = vscode.workspace.isTrusted !== false;
  const found = findServer({
    extensionPath: state.context.extensionPath,
    configuredPath: configuredServerPath((key) => configuration.inspect(key), trusted),
    pathVariable: process.env.PATH,
  });
  if (found.problem) {
    void reportProblem(problemMessage(found));
    return;
  }
  const checked = await checkServerVersion(found.path);
  if (checked.problem) {
    void reportProblem(problemMessage(checked, found.path));
    return;
  }
  log(`highlight-ls ${checked.version}: ${found.path} (${found.source})`);
  if (!state) return;
  const client = createServerClient(found.path, clientOptions(configuration.get('decorations') !== false));
  client.onNotification(decorationsMethod, onDecorations);
  state.client = client;
  try {
    await client.start();
    if (state && state.findView) void state.findView.refresh();
  } catch (error) {
    state.client = undefined;
    void reportProblem(`highlight-ls: ${found.path} did not start: ${error && error.message ? error.message : error}`);
  }
}

async function stop() {
  const old = state && state.client;
  if (!old) return;
  state.client = undefined;
  try {
    await old.stop();
  } catch (error) {
    log(`stopping the server: ${error && error.message ? error.message : error}`);
  }
}

/** Forgets every payload and disposes every decoration type of an activation. */
function clearAll(owner = state) {
  if (!owner) return;
  owner.latestByUri.clear();
  for (const type of owner.decorationTypes.values()) type.dispose();
  owner.decorationTypes.clear();
}

/** Runs `work` after every start or stop queued before it. */
function enqueue(work) {
  const current = state;
  current.queue = current.queue.then(work, work);
  return current.queue;
}

function restart() {
  return enqueue(async () => {
    await stop();
    clearAll();
    await start();
  });
}

/** Asks the server for the active editor's decorations and draws them. */
async function refresh() {
  const editor = vscode.window.activeTextEditor;
  if (!state || !state.client || !editor) return;
  const payload = await state.client.sendRequest(decorationsRequest, { textDocument: { uri: protocolUri(editor.document.uri) } });
  if (payload) onDecorations(payload);
}

async function onConfigurationChanged(event) {
  if (event.affectsConfiguration(`${namespace}.path`) || event.affectsConfiguration(`${namespace}.decorations`)) {
    await restart();
  } else if (event.affectsConfiguration(namespace) && state && state.client) {
    // No settings in the notification: the server asks with workspace/configuration,
    // which the middleware above answers per folder.
    await state.client.notifyConfigurationChanged();
  }
}

async function activate(context) {
  state = newState(context);
  const owner = state;
  context.subscriptions.push(
    state.output,
    vscode.window.onDidChangeVisibleTextEditors(redrawVisibleEditors),
    vscode.workspace.onDidCloseTextDocument((document) => state && state.latestByUri.delete(protocolUri(document.uri))),
    vscode.workspace.onDidChangeConfiguration(onConfigurationChanged),
    // Trusting the workspace may bring its highlightLs.path into play.
    vscode.workspace.onDidGrantWorkspaceTrust(restart),
    vscode.commands.registerCommand(`${namespace}.restart`, restart),
    vscode.commands.registerCommand(`${namespace}.refresh`, refresh),
    vscode.commands.registerCommand(`${namespace}.showOutput`, () => state && state.output.show(true)),
    { dispose: () => clearAll(owner) },
  );
  // The Highlights view, its status bar counts, and Next/Previous Highlight (findView.js).
  state.findView = createFindView({
    request: () => (owner.client ? (method, params) => owner.client.sendRequest(method, params) : undefined),
    protocolUri,
    log,
  });
  context.subscriptions.push(state.findView);
  await enqueue(start);
}

async function deactivate() {
  if (!state) return;
  await enqueue(stop);
  state = undefined;
}

module.exports = { activate, deactivate };
