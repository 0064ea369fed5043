// Stand-ins for the `vscode` module and for `vscode-languageclient/node` (neither can be
// installed here) that record every call, so the tests can check what the extension asked of
// VS Code and of the client library. `install()` makes `require('vscode')` and
// `require('vscode-languageclient/node')` return them; `reset()` gives a fresh VS Code.
//
// The shapes follow the real APIs: enum values are those of vscode.d.ts, the LanguageClient
// constructor takes (id, name, serverOptions, clientOptions) and `code2ProtocolConverter.asUri`.
'use strict';

const Module = require('node:module');

/** Every call of interest, in order: `[name, ...arguments]`. */
const calls = [];

class Range {
  constructor(startLine, startCharacter, endLine, endCharacter) {
    Object.assign(this, { startLine, startCharacter, endLine, endCharacter });
  }
}

class Position {
  constructor(line, character) {
    Object.assign(this, { line, character });
  }
}

class Selection {
  constructor(anchor, active) {
    Object.assign(this, { anchor, active });
  }
}

class TreeItem {
  constructor(label, collapsibleState) {
    Object.assign(this, { label, collapsibleState });
  }
}

/** vscode.EventEmitter: `event` subscribes, `fire` calls every listener. */
class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return { dispose: () => { this.listeners = this.listeners.filter((known) => known !== listener); } };
    };
    this.disposed = false;
  }
  fire(value) { for (const listener of [...this.listeners]) listener(value); }
  dispose() { this.disposed = true; }
}

/** A recorded event: `vscode.X.onDidY(listener)` stores the listener; `fire(...)` calls them all. */
function event(name) {
  const listeners = [];
  const subscribe = (listener) => {
    listeners.push(listener);
    calls.push(['subscribe', name]);
    return { dispose() { const index = listeners.indexOf(listener); if (index >= 0) listeners.splice(index, 1); } };
  };
  subscribe.fire = async (...args) => {
    for (const listener of [...listeners]) await listener(...args);
  };
  subscribe.listenerCount = () => listeners.length;
  return subscribe;
}

/**
 * Settings as `inspect` reports them: `{ 'highlightLs.path': { globalValue, workspaceValue, ... } }`.
 * The default values come from the manifest, as VS Code does.
 */
let settings = {};
const manifestProperties = require('../package.json').contributes.configuration.properties;

function inspectSetting(fullKey) {
  const defaults = manifestProperties[fullKey];
  const set = settings[fullKey] || {};
  if (!defaults && !settings[fullKey]) return undefined;
  return { key: fullKey, defaultValue: defaults ? defaults.default : undefined, ...set };
}

function effectiveValue(info, trusted) {
  if (!info) return undefined;
  const scopes = trusted ? [info.workspaceFolderValue, info.workspaceValue, info.globalValue] : [info.globalValue];
  const value = scopes.find((candidate) => candidate !== undefined);
  return value !== undefined ? value : info.defaultValue;
}

const vscode = {
  Range,
  OverviewRulerLane: { Left: 1, Center: 2, Right: 4, Full: 7 },
  DecorationRangeBehavior: { OpenOpen: 0, ClosedClosed: 1, OpenClosed: 2, ClosedOpen: 3 },
  Position,
  Selection,
  TreeItem,
  EventEmitter,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  Uri: { parse: (text) => ({ parsed: text, toString: () => text }) },
  window: {
    /** Every tree view created: { id, options }. */
    treeViews: [],
    createTreeView(id, options) {
      const view = { id, options, disposed: false, dispose() { this.disposed = true; } };
      calls.push(['createTreeView', id]);
      vscode.window.treeViews.push(view);
      return view;
    },
    /** Every status bar item created. */
    statusBarItems: [],
    createStatusBarItem(alignment, priority) {
      const item = { alignment, priority, text: '', tooltip: undefined, command: undefined, visible: false,
        show() { this.visible = true; }, hide() { this.visible = false; }, dispose() { this.visible = false; } };
      vscode.window.statusBarItems.push(item);
      return item;
    },
    /** The messages of setStatusBarMessage, in order. */
    statusBarMessages: [],
    setStatusBarMessage(text) {
      vscode.window.statusBarMessages.push(text);
      return { dispose() {} };
    },
    onDidChangeActiveTextEditor: event('window.onDidChangeActiveTextEditor'),
    visibleTextEditors: [],
    activeTextEditor: undefined,
    /** What the next show*Message resolves to (the button the user clicks), or undefined. */
    nextChoice: undefined,
    createTextEditorDecorationType(options) {
      const type = { options, disposed: false, dispose() { this.disposed = true; } };
      calls.push(['createTextEditorDecorationType', options, type]);
      return type;
    },
    createOutputChannel(name) {
      const channel = {
        name, lines: [], shown: false,
        appendLine(line) { this.lines.push(line); },
        append(text) { this.lines.push(text); },
        show() { this.shown = true; },
        dispose() {},
      };
      calls.push(['createOutputChannel', name]);
      vscode.window.outputChannels.push(channel);
      return channel;
    },
    outputChannels: [],
    async showErrorMessage(message, ...items) {
      calls.push(['showErrorMessage', message, ...items]);
      return vscode.window.nextChoice;
    },
    async showWarningMessage(message, ...items) {
      calls.push(['showWarningMessage', message, ...items]);
      return vscode.window.nextChoice;
    },
    async showInformationMessage(message, ...items) {
      calls.push(['showInformationMessage', message, ...items]);
      return vscode.window.nextChoice;
    },
    onDidChangeVisibleTextEditors: event('window.onDidChangeVisibleTextEditors'),
  },
  workspace: {
    isTrusted: true,
    getConfiguration(section, scope) {
      calls.push(['getConfiguration', section, scope === undefined ? undefined : String(scope)]);
      const full = (key) => (section ? `${section}.${key}` : key);
      return {
        get: (key, fallback) => {
          const value = effectiveValue(inspectSetting(full(key)), vscode.workspace.isTrusted);
          return value === undefined ? fallback : value;
        },
        inspect: (key) => inspectSetting(full(key)),
      };
    },
    /** The folder `asRelativePath` strips, as a URI string. */
    folderUri: 'file:///w',
    asRelativePath(uri) {
      const text = String(uri);
      const folder = `${vscode.workspace.folderUri}/`;
      return text.startsWith(folder) ? text.slice(folder.length) : text;
    },
    /** The open documents (vscode.workspace.textDocuments), besides those of visible editors. */
    textDocuments: [],
    onDidSaveTextDocument: event('workspace.onDidSaveTextDocument'),
    onDidChangeTextDocument: event('workspace.onDidChangeTextDocument'),
    onDidCloseTextDocument: event('workspace.onDidCloseTextDocument'),
    onDidChangeConfiguration: event('workspace.onDidChangeConfiguration'),
    onDidGrantWorkspaceTrust: event('workspace.onDidGrantWorkspaceTrust'),
  },
  commands: {
    registered: new Map(),
    registerCommand(name, handler) {
      calls.push(['registerCommand', name]);
      vscode.commands.registered.set(name, handler);
      return { dispose() { vscode.commands.registered.delete(name); } };
    },
    async executeCommand(name, ...args) {
      calls.push(['executeCommand', name, ...args]);
      const handler = vscode.commands.registered.get(name);
      return handler ? handler(...args) : undefined;
    },
  },
};

/** A configuration change event as VS Code sends it, for the given full setting keys. */
function configurationChange(...changedKeys) {
  return {
    affectsConfiguration: (section) => changedKeys.some((key) => key === section || key.startsWith(`${section}.`)),
  };
}

// --- vscode-languageclient/node --------------------------------------------------------------

/** Every LanguageClient constructed, in order. */
const clients = [];

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions });
    this.handlers = new Map();
    this.state = 'created';
    this.notifications = [];
    this.requests = [];
    /** What sendRequest answers, by method. */
    this.answers = new Map();
    this.code2ProtocolConverter = { asUri: (uri) => uri.toString() };
    clients.push(this);
  }
  onNotification(method, handler) {
    this.handlers.set(method, handler);
    return { dispose() {} };
  }
  async start() {
    if (this.failStart) throw new Error(this.failStart);
    this.state = 'running';
  }
  async stop() { this.state = 'stopped'; }
  async sendNotification(type, params) { this.notifications.push([type, params]); }
  async sendRequest(method, params) {
    this.requests.push([method, params]);
    return this.answers.get(method);
  }
}

const languageClientModule = {
  LanguageClient,
  TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 },
  DidChangeConfigurationNotification: { type: { method: 'workspace/didChangeConfiguration' } },
};

/** Makes `require('vscode')` and `require('vscode-languageclient/node')` return the stand-ins. */
function install() {
  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'vscode-languageclient/node') return languageClientModule;
    return originalLoad.call(this, request, parent, isMain);
  };
}

/** A fresh VS Code: no calls, no clients, these settings, trusted or not. */
function reset({ settings: newSettings = {}, trusted = true } = {}) {
  calls.length = 0;
  clients.length = 0;
  settings = newSettings;
  vscode.workspace.isTrusted = trusted;
  vscode.window.visibleTextEditors = [];
  vscode.window.activeTextEditor = undefined;
  vscode.workspace.textDocuments = [];
  vscode.window.nextChoice = undefined;
  vscode.window.outputChannels = [];
  vscode.commands.registered.clear();
  vscode.window.treeViews = [];
  vscode.window.statusBarItems = [];
  vscode.window.statusBarMessages = [];
}

/** The calls named `name`. */
function callsNamed(name) {
  return calls.filter((call) => call[0] === name);
}

/**
 * A text document: `lines` is its text, which a test may replace (with `version`) to follow an
 * edit, as VS Code's TextDocument does.
 */
function textDocument(uri, version, lines) {
  return {
    uri: { toString: () => uri },
    version,
    lines,
    get lineCount() { return this.lines.length; },
    lineAt(line) { return { text: this.lines[line], range: new Range(line, 0, line, this.lines[line].length) }; },
  };
}

/**
 * A text editor showing a document, recording `setDecorations` and `revealRange`. The ranges
 * are copied when recorded: VS Code reads them during the call, so the caller may reuse its array.
 */
function editor(uri, version, lines) {
  return {
    calls: [],
    revealed: [],
    selection: new Selection(new Position(0, 0), new Position(0, 0)),
    revealRange(range, type) { this.revealed.push([range, type]); },
    document: textDocument(uri, version, lines),
    setDecorations(type, ranges) { this.calls.push([type, [...ranges]]); },
  };
}

module.exports = {
  vscode, languageClientModule, Range, Position, Selection, calls, callsNamed, clients, install, reset, configurationChange, editor,
  textDocument,
};
