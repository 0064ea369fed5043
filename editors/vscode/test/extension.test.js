// Tests of extension.js's wiring with stand-ins for `vscode` and `vscode-languageclient/node`
// (neither can be installed here): what the client is started with, and what reaches
// `setDecorations` when a notification arrives.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');

// --- Stand-ins -------------------------------------------------------------------------------

const created = { clients: [], decorationTypes: [], notifications: [] };
const settings = {
  path: { defaultValue: 'highlight-ls', globalValue: '/opt/bin/highlight-ls' },
  decorations: { defaultValue: true },
  rules: { defaultValue: [], globalValue: [{ name: 'ticket', regex: '[A-Z]+-[0-9]+' }] },
  styles: { defaultValue: {} },
  defaults: { defaultValue: true },
};

class Range {
  constructor(startLine, startCharacter, endLine, endCharacter) {
    Object.assign(this, { startLine, startCharacter, endLine, endCharacter });
  }
}

const disposable = { dispose() {} };
const vscode = {
  Range,
  OverviewRulerLane: { Left: 1, Center: 2, Right: 4, Full: 7 },
  Uri: { parse: (text) => ({ toString: () => text }) },
  window: {
    visibleTextEditors: [],
    activeTextEditor: undefined,
    createTextEditorDecorationType(options) {
      const type = { options, disposed: false, dispose() { this.disposed = true; } };
      created.decorationTypes.push(type);
      return type;
    },
    onDidChangeVisibleTextEditors: () => disposable,
  },
  workspace: {
    getConfiguration: () => ({
      get: (key) => {
        const info = settings[key];
        return info && (info.globalValue !== undefined ? info.globalValue : info.defaultValue);
      },
      inspect: (key) => settings[key],
    }),
    onDidCloseTextDocument: () => disposable,
    onDidChangeConfiguration: () => disposable,
  },
  commands: { registerCommand: () => disposable },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, handlers: new Map(), started: false });
    this.code2ProtocolConverter = { asUri: (uri) => uri.toString() };
    created.clients.push(this);
  }
  onNotification(method, handler) { this.handlers.set(method, handler); return disposable; }
  async start() { this.started = true; }
  async stop() { this.started = false; }
  async sendNotification(type, params) { created.notifications.push([type, params]); }
  async sendRequest() { return null; }
}
const languageClient = {
  LanguageClient,
  TransportKind: { stdio: 0 },
  DidChangeConfigurationNotification: { type: 'workspace/didChangeConfiguration' },
};

const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'vscode') return vscode;
  if (request === 'vscode-languageclient/node') return languageClient;
  return originalLoad.call(this, request, parent, isMain);
};
const extension = require('../extension');
const { renderOptions } = require('../decorations');

function editor(uri, version, lines) {
  return {
    calls: [],
    document: {
      uri: { toString: () => uri },
      version,
      lineCount: lines.length,
      lineAt: (line) => ({ text: lines[line] }),
    },
    setDecorations(type, ranges) { this.calls.push([type, ranges]); },
  };
}

const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const ticket = { rule: 'ticket', color: '#3b82f6ff', underline: true };

// --- Tests -----------------------------------------------------------------------------------

test('the extension', async (t) => {
  await extension.activate({ subscriptions: [] });
  const client = created.clients[0];

  await t.test('starts the server from highlight.path for every file and untitled buffer', () => {
    assert.equal(client.started, true);
    assert.equal(client.serverOptions.command, '/opt/bin/highlight-ls');
    assert.deepEqual(client.clientOptions.documentSelector, [{ scheme: 'file' }, { scheme: 'untitled' }]);
    assert.deepEqual(client.clientOptions.initializationOptions, { decorations: { positionEncoding: 'utf-16' } });
  });

  await t.test('answers workspace/configuration with the keys the user set', () => {
    const answer = client.clientOptions.middleware.workspace.configuration(
      { items: [{ section: 'highlight', scopeUri: 'file:///w' }, { section: 'other' }] }, undefined, undefined);
    assert.deepEqual(answer, [{ rules: [{ name: 'ticket', regex: '[A-Z]+-[0-9]+' }] }, null]);
  });

  const lines = ['TODO 👍 ABC-123 café'];
  const shown = editor('file:///w/a.txt', 2, lines);
  const other = editor('file:///w/b.txt', 1, ['']);
  vscode.window.visibleTextEditors = [shown, other];
  const publish = client.handlers.get('highlight/publishDecorations');

  await t.test('draws a notification in the editors of its document', () => {
    publish({
      textDocument: { uri: 'file:///w/a.txt', version: 2 },
      positionEncoding: 'utf-16',
      styles: [todo, ticket],
      ranges: [0, 0, 4, 0, 0, 8, 15, 1],
    });
    assert.equal(created.decorationTypes.length, 2);
    assert.deepEqual(created.decorationTypes[0].options, { ...renderOptions(todo), overviewRulerLane: 4 });
    assert.deepEqual(shown.calls, [
      [created.decorationTypes[0], [new Range(0, 0, 0, 4)]],
      [created.decorationTypes[1], [new Range(0, 8, 0, 15)]],
    ]);
    assert.deepEqual(other.calls, []);
  });

  await t.test('clears styles a newer notification no longer uses, and reuses equal styles', () => {
    shown.calls = [];
    shown.document.version = 3;
    publish({
      textDocument: { uri: 'file:///w/a.txt', version: 3 },
      positionEncoding: 'utf-8',
      styles: [{ ...ticket }],
      ranges: [0, 10, 17, 0],
    });
    assert.equal(created.decorationTypes.length, 2);
    assert.deepEqual(shown.calls, [
      [created.decorationTypes[1], [new Range(0, 8, 0, 15)]],
      [created.decorationTypes[0], []],
    ]);
  });

  await t.test('ignores a notification older than the document', () => {
    shown.calls = [];
    publish({ textDocument: { uri: 'file:///w/a.txt', version: 1 }, styles: [], ranges: [] });
    assert.deepEqual(shown.calls, []);
  });

  await t.test('stops the client on deactivate', async () => {
    await extension.deactivate();
    assert.equal(client.started, false);
  });
});
