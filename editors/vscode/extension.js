// highlight-ls for VS Code: finds and checks the server binary, starts it for every file, and
// draws the exact style of every highlight with TextEditorDecorationTypes, updated on
// `highlight/publishDecorations`: the whole document once, then after each edit only the lines
// that changed (docs/PROTOCOL.md, "Decorations that follow edits").
//
// Plain JavaScript, so there is no build step. The pure parts live in their own modules, tested
// with `node --test` without VS Code: the decoration mapping (decorations.js), each document's
// decorations and how a delta updates them (decorationModel.js), the settings (settings.js) and
// the binary lookup (serverBinary.js). vscode-languageclient is used only in languageClient.js.
'use strict';

const vscode = require('vscode');
const { createServerClient } = require('./languageClient');
const { isStale } = require('./decorations');
const { DocumentDecorations } = require('./decorationModel');
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
    /**
     * Each document's decorations, by the URI string the server knows: `{ model, needsWhole,
     * pending, missed }` (see onDecorations).
     */
    documents: new Map(),
    /**
     * The model each editor was last drawn from in full. An editor drawn from the current model
     * only needs the types a delta changed; any other needs everything.
     */
    drawnFrom: new WeakMap(),
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

/** A single-line Range, as the model makes them. */
function makeRange(line, start, end) {
  return new vscode.Range(line, start, line, end);
}

/** What the model needs of a document (at the payload's version): its lines' text and length. */
function environmentOf(document) {
  if (!document) return { makeRange };
  const text = (line) => (line < document.lineCount ? document.lineAt(line).text : undefined);
  return {
    makeRange,
    lineText: text,
    lineLength: (line) => {
      const lineText = text(line);
      return typeof lineText === 'string' ? lineText.length : undefined;
    },
  };
}

/** The open document the server calls `uri`, from the visible editors or the workspace's documents. */
function documentOf(uri) {
  const editor = vscode.window.visibleTextEditors.find((candidate) => protocolUri(candidate.document.uri) === uri);
  if (editor) return editor.document;
  const documents = Array.isArray(vscode.workspace.textDocuments) ? vscode.workspace.textDocuments : [];
  return documents.find((document) => protocolUri(document.uri) === uri);
}

function editorsOf(uri) {
  return vscode.window.visibleTextEditors.filter((editor) => protocolUri(editor.document.uri) === uri);
}

/** Whether `model` describes an older state than `document`. */
function modelIsStale(model, document) {
  return isStale({ textDocument: { version: model.version } }, document.version);
}

/** Sets one slot's ranges in an editor; a type never created is not made just to be emptied. */
function setSlot(editor, model, index) {
  const slot = model.slots[index];
  const entry = { key: slot.key, kind: slot.kind, options: slot.options };
  const ranges = model.rangesOf(index, environmentOf(editor.document).lineLength);
  if (ranges.length === 0 && !state.decorationTypes.has(slot.key)) return;
  editor.setDecorations(decorationType(entry), ranges);
}

/** Draws a model in one editor in full: every type it does not use is cleared there. */
function draw(editor, model) {
  // The payload for the document's version is on its way. An editor that already shows this
  // model keeps it (VS Code moves its decorations with the text, and the next delta updates
  // them); one that does not is drawn in full by that delta.
  if (modelIsStale(model, editor.document)) return;
  const used = new Set();
  for (const index of model.drawOrder()) {
    used.add(model.slots[index].key);
    setSlot(editor, model, index);
  }
  for (const [key, type] of state.decorationTypes) {
    if (!used.has(key)) editor.setDecorations(type, []);
  }
  state.drawnFrom.set(editor, model);
}

/** The state of a document's decorations, made on first use. */
function documentState(uri) {
  let entry = state.documents.get(uri);
  if (!entry) {
    entry = {
      /** The decorations last applied (a DocumentDecorations), or undefined. */
      model: undefined,
      /** A payload was dropped: deltas wait for a whole payload to build on. */
      needsWhole: false,
      /** A `highlight/decorations` request is out. */
      pending: false,
      /** A payload for the document's version was dropped while the request was out. */
      missed: false,
    };
    state.documents.set(uri, entry);
  }
  return entry;
}

/**
 * Handles a payload, whole or delta; returns whether it was applied.
 *
 * A whole payload replaces the model unless it is older than the model or the document. A delta
 * applies only when it follows the payload last applied (`previousResultId`) and is for the
 * document's current version; otherwise it is dropped, later deltas wait for a whole payload,
 * and once a payload for the current version has come, the whole set is asked for with
 * `highlight/decorations` (one request at a time).
 */
function onDecorations(payload) {
  const uri = payload && payload.textDocument && payload.textDocument.uri;
  if (!state || typeof uri !== 'string') return false;
  const entry = documentState(uri);
  const document = documentOf(uri);
  const version = payload.textDocument.version;
  if (payload.edit === undefined) return applyWhole(uri, entry, payload, document);
  const model = entry.model;
  const follows = Boolean(model) && !entry.needsWhole && payload.previousResultId !== undefined && payload.previousResultId === model.resultId;
  const current = !document || version === document.version;
  const changed = follows && current ? model.applyDelta(payload, environmentOf(document)) : undefined;
  if (changed) {
    for (const editor of editorsOf(uri)) {
      if (state.drawnFrom.get(editor) !== model) draw(editor, model);
      else for (const index of changed) setSlot(editor, model, index);
    }
    return true;
  }
  entry.needsWhole = true;
  // A delta for an older version says the document has moved on: the payload for the current
  // version is on its way, and asking before it comes would bring an answer that is stale too.
  if (current) requestWhole(uri, entry);
  return false;
}

function applyWhole(uri, entry, payload, document) {
  // A late answer to a request must not replace a newer notification.
  if (entry.model && isStale(payload, entry.model.version)) return false;
  if (document && isStale(payload, document.version)) {
    // Later deltas build on this payload, which was not applied.
    if (payload.resultId !== undefined) entry.needsWhole = true;
    return false;
  }
  entry.model = DocumentDecorations.fromPayload(payload, environmentOf(document));
  entry.needsWhole = false;
  entry.missed = false;
  for (const editor of editorsOf(uri)) draw(editor, entry.model);
  return true;
}

/** Asks for a document's whole decorations, unless a request is already out. */
function requestWhole(uri, entry) {
  if (entry.pending) {
    entry.missed = true;
    return;
  }
  const owner = state;
  const client = owner.client;
  if (!client) return;
  entry.pending = true;
  entry.missed = false;
  Promise.resolve(client.sendRequest(decorationsRequest, { textDocument: { uri } })).then((answer) => {
    entry.pending = false;
    // A restart or a closed document made this request moot.
    if (state !== owner || owner.client !== client || owner.documents.get(uri) !== entry) return;
    const applied = Boolean(answer) && onDecorations(answer);
    // The answer was already stale, and the payload for the version after it was dropped while
    // the request was out: nothing else would ask again, so ask now.
    if (!applied && entry.needsWhole && entry.missed) requestWhole(uri, entry);
  }, (error) => {
    entry.pending = false;
    log(`${decorationsRequest}: ${error && error.message ? error.message : error}`);
  });
}

function redrawVisibleEditors() {
  if (!state) return;
  for (const editor of vscode.window.visibleTextEditors) {
    const entry = state.documents.get(protocolUri(editor.document.uri));
    if (entry && entry.model) draw(editor, entry.model);
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
    // VS Code columns are UTF-16 code units, the protocol's default. With `delta`, an edit
    // brings only the lines it changed, so a keystroke in a long file costs what it changed.
    initializationOptions: decorations ? { decorations: { positionEncoding: 'utf-16', delta: true } } : {},
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
  owner.documents.clear();
  owner.drawnFrom = new WeakMap();
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
    vscode.workspace.onDidCloseTextDocument((document) => state && state.documents.delete(protocolUri(document.uri))),
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
