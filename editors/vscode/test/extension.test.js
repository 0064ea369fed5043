// Tests of extension.js with the recording stand-ins of test/fakes.js for `vscode` and
// `vscode-languageclient/node`: activation, which binary is run, the messages when it cannot
// be, the settings passed to the server, setting changes, and what reaches `setDecorations`.
// The binaries are real files (shell scripts printing a version, and the real server from
// $HIGHLIGHT_LS), so the lookup and the `--version` check run for real.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fakes = require('./fakes');
const { temporaryDirectory, writeScript, realServer, skipWithoutServer, serverSession } = require('./helpers');

fakes.install();
const extension = require('../extension');
const { renderOptions } = require('../decorations');
const { minimumServerVersion } = require('../serverBinary');

const { vscode, clients, callsNamed, configurationChange, editor } = fakes;

/** An extension folder, with a bundled server printing `version` unless it is null. */
function extensionFolder(version = minimumServerVersion) {
  const folder = temporaryDirectory();
  if (version !== null) writeScript(path.join(folder, 'server', 'highlight-ls'), `highlight-ls ${version}`);
  return folder;
}

let lastContext;

/** Activates with fresh stand-ins; returns the context. PATH is replaced for the activation. */
async function activate({ folder = extensionFolder(), settings = {}, trusted = true, pathVariable = '' } = {}) {
  fakes.reset({ settings, trusted });
  const context = { extensionPath: folder, subscriptions: [] };
  lastContext = context;
  const savedPath = process.env.PATH;
  process.env.PATH = pathVariable;
  try {
    await extension.activate(context);
  } finally {
    process.env.PATH = savedPath;
  }
  return context;
}

/** Deactivates as VS Code does: `deactivate()`, then every subscription disposed. */
async function deactivate() {
  await extension.deactivate();
  if (lastContext) for (const subscription of lastContext.subscriptions) subscription.dispose();
  lastContext = undefined;
}

/** Lets the fire-and-forget message promises settle. */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

test('activation starts the bundled server with the expected options', async () => {
  const folder = extensionFolder();
  const context = await activate({ folder });
  assert.equal(clients.length, 1);
  const client = clients[0];
  assert.equal(client.state, 'running');
  assert.equal(client.id, 'highlightLs');
  assert.equal(client.name, 'highlight-ls');
  assert.deepEqual(client.serverOptions, { command: path.join(folder, 'server', 'highlight-ls'), args: [], transport: 0 });
  assert.deepEqual(client.clientOptions.documentSelector, [{ scheme: 'file' }, { scheme: 'untitled' }]);
  assert.deepEqual(client.clientOptions.initializationOptions, { decorations: { positionEncoding: 'utf-16', delta: true } });
  assert.equal(client.clientOptions.outputChannel, vscode.window.outputChannels[0]);
  assert.deepEqual(callsNamed('registerCommand').map((call) => call[1]).sort(),
    ['highlightLs.nextHighlight', 'highlightLs.previousHighlight', 'highlightLs.refresh', 'highlightLs.refreshHighlights',
      'highlightLs.restart', 'highlightLs.showOutput']);
  assert.deepEqual(callsNamed('showErrorMessage'), []);
  assert.match(vscode.window.outputChannels[0].lines.join('\n'), new RegExp(`highlight-ls ${minimumServerVersion}: .*server/highlight-ls \\(bundled\\)`));
  // Everything registered is handed to VS Code to dispose.
  assert.ok(context.subscriptions.length >= 8);
  for (const call of fakes.calls) {
    if (call[0] === 'getConfiguration') assert.equal(call[1], 'highlightLs');
  }
  await deactivate();
  assert.equal(client.state, 'stopped');
});

test('the binary: the setting, then the bundled one, then PATH', async (t) => {
  const elsewhere = temporaryDirectory();
  const configured = writeScript(path.join(elsewhere, 'configured', 'highlight-ls'), 'highlight-ls 9.0.0');
  const onPath = writeScript(path.join(elsewhere, 'bin', 'highlight-ls'), 'highlight-ls 1.2.3');
  const pathVariable = path.dirname(onPath);
  const cases = [
    ['bundled when nothing is set', { pathVariable }, 'bundled'],
    ['the user setting over the bundled one', { settings: { 'highlightLs.path': { globalValue: configured } }, pathVariable }, configured],
    ['the workspace setting in a trusted workspace', { settings: { 'highlightLs.path': { workspaceValue: configured } }, pathVariable }, configured],
    ['not the workspace setting in an untrusted workspace', { settings: { 'highlightLs.path': { workspaceValue: configured } }, trusted: false, pathVariable }, 'bundled'],
    ['the user setting in an untrusted workspace', { settings: { 'highlightLs.path': { globalValue: configured, workspaceValue: '/nowhere' } }, trusted: false, pathVariable }, configured],
    ['PATH without a bundled binary', { folder: extensionFolder(null), pathVariable }, onPath],
    ['a name looked up on PATH', { settings: { 'highlightLs.path': { globalValue: 'highlight-ls' } }, pathVariable }, onPath],
  ];
  for (const [name, options, expected] of cases) {
    await t.test(name, async () => {
      const folder = options.folder || extensionFolder();
      await activate({ ...options, folder });
      assert.deepEqual(callsNamed('showErrorMessage'), []);
      assert.equal(clients.length, 1);
      const want = expected === 'bundled' ? path.join(folder, 'server', 'highlight-ls') : expected;
      assert.equal(clients[0].serverOptions.command, want);
      await deactivate();
    });
  }
});

test('a binary that cannot be used gives a message with the fix, and no client', async (t) => {
  const elsewhere = temporaryDirectory();
  const cases = [
    ['missing everywhere', { folder: extensionFolder(null) }, /server binary was not found \(looked for .*server\/highlight-ls, highlight-ls on PATH\)\. Install .*scripts\/install\.sh.*highlightLs\.path/],
    ['a setting naming no file', { settings: { 'highlightLs.path': { globalValue: '/no/such/highlight-ls' } } }, /highlightLs\.path is "\/no\/such\/highlight-ls", which is not an executable file\. Correct the setting, or clear it/],
    ['too old', { folder: extensionFolder('0.0.9') }, /is version 0\.0\.9, and this extension needs 0\.1\.0 or later\. Install a newer server/],
    ['another program', { settings: { 'highlightLs.path': { globalValue: writeScript(path.join(elsewhere, 'other'), 'other-tool 2.0') } } }, /printed "other-tool 2\.0", not "highlight-ls X\.Y\.Z"/],
    ['a binary that fails', { settings: { 'highlightLs.path': { globalValue: writeScript(path.join(elsewhere, 'broken'), 'cannot execute: Exec format error', 126) } } }, /could not be run \(exit status 126: cannot execute: Exec format error\); it may be built for another platform/],
  ];
  for (const [name, options, expected] of cases) {
    await t.test(name, async () => {
      await activate(options);
      await settle();
      assert.equal(clients.length, 0, 'no client is started');
      const messages = callsNamed('showErrorMessage');
      assert.equal(messages.length, 1);
      assert.match(messages[0][1], expected);
      assert.deepEqual(messages[0].slice(2), ['Open Settings', 'Show Output']);
      assert.match(vscode.window.outputChannels[0].lines.join('\n'), expected, 'the message is in the output too');
      await deactivate();
    });
  }

  await t.test('"Open Settings" opens the path setting', async () => {
    fakes.reset();
    vscode.window.nextChoice = 'Open Settings';
    lastContext = { extensionPath: extensionFolder(null), subscriptions: [] };
    await extension.activate(lastContext);
    await settle();
    assert.deepEqual(callsNamed('executeCommand'), [['executeCommand', 'workbench.action.openSettings', 'highlightLs.path']]);
    await deactivate();
  });

  await t.test('a client that fails to start is reported', async () => {
    fakes.reset();
    const { LanguageClient } = fakes.languageClientModule;
    LanguageClient.prototype.failStart = 'spawn EACCES';
    try {
      lastContext = { extensionPath: extensionFolder(), subscriptions: [] };
      await extension.activate(lastContext);
      await settle();
    } finally {
      delete LanguageClient.prototype.failStart;
    }
    assert.match(callsNamed('showErrorMessage')[0][1], /did not start: spawn EACCES/);
    await deactivate();
  });
});

test('the real server passes the version check', { skip: skipWithoutServer() }, async () => {
  await activate({ settings: { 'highlightLs.path': { globalValue: realServer() } } });
  assert.deepEqual(callsNamed('showErrorMessage'), []);
  assert.equal(clients[0].serverOptions.command, realServer());
  await deactivate();
});

test('settings reach the server from highlightLs.*, only those the user set', async () => {
  const rules = [{ name: 'ticket', regex: '[A-Z]+-[0-9]+', severity: 'hint', link: 'https://tracker.example/$0' }];
  await activate({
    settings: {
      'highlightLs.rules': { globalValue: rules },
      'highlightLs.colors': { workspaceValue: true },
      'highlightLs.styles': { workspaceFolderValue: { ticket: { color: '#3b82f6' } }, globalValue: { ticket: { bold: true } } },
      'highlightLs.path': { globalValue: '' },
      'highlightLs.decorations': { globalValue: true },
      // vscode-highlight's settings, which must not be read.
      'highlight.regexes': { globalValue: { x: {} } },
      'highlight.decorations': { globalValue: { rangeBehavior: 1 } },
    },
  });
  const configuration = clients[0].clientOptions.middleware.workspace.configuration;
  const answer = configuration({ items: [{ section: 'highlight', scopeUri: 'file:///w' }, { section: 'highlight' }, { section: 'other' }] });
  const expected = { rules, colors: true, styles: { ticket: { color: '#3b82f6' } } };
  assert.deepEqual(answer, [expected, expected, null]);
  for (const call of callsNamed('getConfiguration')) assert.equal(call[1], 'highlightLs');
  await deactivate();
});

test('decorations are off in initializationOptions when highlightLs.decorations is false', async () => {
  await activate({ settings: { 'highlightLs.decorations': { globalValue: false } } });
  assert.deepEqual(clients[0].clientOptions.initializationOptions, {});
  await deactivate();
});

test('setting changes: server settings are re-sent, path and decorations restart, others are ignored', async () => {
  await activate();
  const first = clients[0];
  await vscode.workspace.onDidChangeConfiguration.fire(configurationChange('highlightLs.rules'));
  assert.deepEqual(first.notifications, [[{ method: 'workspace/didChangeConfiguration' }, { settings: null }]]);
  await vscode.workspace.onDidChangeConfiguration.fire(configurationChange('highlight.rules', 'editor.fontSize'));
  assert.equal(first.notifications.length, 1, 'another extension\'s highlight.* is not ours');
  assert.equal(clients.length, 1);
  await vscode.workspace.onDidChangeConfiguration.fire(configurationChange('highlightLs.path'));
  assert.equal(first.state, 'stopped');
  assert.equal(clients.length, 2);
  assert.equal(clients[1].state, 'running');
  await vscode.workspace.onDidChangeConfiguration.fire(configurationChange('highlightLs.decorations'));
  assert.equal(clients.length, 3);
  await vscode.workspace.onDidGrantWorkspaceTrust.fire();
  assert.equal(clients.length, 4, 'trusting the workspace restarts (its highlightLs.path may now apply)');
  assert.deepEqual(clients.map((client) => client.state), ['stopped', 'stopped', 'stopped', 'running']);
  await vscode.commands.executeCommand('highlightLs.restart');
  assert.equal(clients.length, 5);
  await deactivate();
});

const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const deprecated = { rule: 'deprecated', color: '#9e9e9eff', strikethrough: true };

test('decorations: notifications are drawn, ClosedClosed, with theme variants', async (t) => {
  await activate();
  const client = clients[0];
  const shown = editor('file:///w/a.txt', 2, ['TODO 👍 old_name café']);
  const other = editor('file:///w/b.txt', 1, ['']);
  vscode.window.visibleTextEditors = [shown, other];
  const publish = client.handlers.get('highlight/publishDecorations');
  const types = () => callsNamed('createTextEditorDecorationType').map((call) => call[1]);

  await t.test('one decoration type per style, drawn in the editors of the document', () => {
    publish({
      textDocument: { uri: 'file:///w/a.txt', version: 2 },
      positionEncoding: 'utf-16',
      styles: [todo, deprecated],
      ranges: [0, 0, 4, 0, 0, 8, 16, 1],
    });
    assert.deepEqual(types(), [
      { ...renderOptions(todo), rangeBehavior: 1 },
      { ...renderOptions(deprecated), rangeBehavior: 1 },
    ]);
    assert.ok(types()[1].light, 'the grey of deprecated has a light-theme variant');
    assert.deepEqual(shown.calls.map((call) => [call[0].options, call[1]]), [
      [types()[0], [new fakes.Range(0, 0, 0, 4)]],
      [types()[1], [new fakes.Range(0, 8, 0, 16)]],
    ]);
    assert.deepEqual(other.calls, []);
  });

  await t.test('styles a newer notification no longer uses are cleared; equal styles reuse their type', () => {
    shown.calls = [];
    shown.document.version = 3;
    publish({ textDocument: { uri: 'file:///w/a.txt', version: 3 }, positionEncoding: 'utf-8', styles: [{ ...deprecated }], ranges: [0, 10, 18, 0] });
    assert.equal(types().length, 2);
    assert.deepEqual(shown.calls.map((call) => [call[0].options, call[1]]), [
      [types()[1], [new fakes.Range(0, 8, 0, 16)]],
      [types()[0], []],
    ]);
  });

  await t.test('a notification older than the document is not drawn', () => {
    shown.calls = [];
    publish({ textDocument: { uri: 'file:///w/a.txt', version: 1 }, styles: [], ranges: [] });
    assert.deepEqual(shown.calls, []);
  });

  await t.test('an editor that becomes visible gets the latest payload', async () => {
    const again = editor('file:///w/a.txt', 3, ['TODO 👍 old_name café']);
    vscode.window.visibleTextEditors = [again];
    await vscode.window.onDidChangeVisibleTextEditors.fire([again]);
    assert.deepEqual(again.calls.map((call) => call[1]), [[new fakes.Range(0, 8, 0, 16)], []]);
  });

  await t.test('refresh asks the server for the active editor and draws the answer', async () => {
    const active = editor('file:///w/c.txt', 1, ['FIXME']);
    vscode.window.visibleTextEditors = [active];
    vscode.window.activeTextEditor = active;
    client.answers.set('highlight/decorations', { textDocument: { uri: 'file:///w/c.txt', version: 1 }, styles: [todo], ranges: [0, 0, 5, 0] });
    await vscode.commands.executeCommand('highlightLs.refresh');
    assert.deepEqual(client.requests.filter((request) => request[0] === 'highlight/decorations'),
      [['highlight/decorations', { textDocument: { uri: 'file:///w/c.txt' } }]]);
    assert.deepEqual(active.calls.map((call) => call[1]), [[new fakes.Range(0, 0, 0, 5)], []]);
  });

  await t.test('a restart disposes the decoration types', async () => {
    const created = callsNamed('createTextEditorDecorationType').map((call) => call[2]);
    assert.ok(created.length > 0 && created.every((type) => !type.disposed));
    await vscode.commands.executeCommand('highlightLs.restart');
    assert.ok(created.every((type) => type.disposed));
  });

  await deactivate();
});

test('line indicators: ruler marks on the ranges; gutter icons and whole lines get types of their own, set on whole lines', async () => {
  await activate();
  const client = clients[0];
  const shown = editor('file:///w/m.txt', 1, ['BUG and BUG', 'TODO(ann) FOCUS', 'plain']);
  vscode.window.visibleTextEditors = [shown];
  const publish = client.handlers.get('highlight/publishDecorations');
  const bug = {
    rule: 'bug', color: '#ffffffff', backgroundColor: '#d32f2fff',
    gutter: { text: 'B', color: '#d32f2fff' }, overviewRuler: { color: '#d32f2fff', lane: 'right' },
  };
  const owned = { rule: 'owned', color: '#1976d2ff', gutter: { color: '#1976d2ff' }, overviewRuler: { color: '#1976d2ff', lane: 'center' } };
  const focus = { rule: 'focus', backgroundColor: '#f9a82533', wholeLine: { backgroundColor: '#f9a82533' } };
  publish({
    textDocument: { uri: 'file:///w/m.txt', version: 1 },
    styles: [bug, owned, focus],
    ranges: [0, 0, 3, 0, 0, 8, 11, 0, 1, 0, 9, 1, 1, 10, 15, 2],
    lines: [0, 0, -1, 1, 1, 2],
  });
  const types = callsNamed('createTextEditorDecorationType').map((call) => call[1]);
  const svg = (uri) => Buffer.from(uri.parsed.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
  // Three range types, the ruler marks with them, in the vscode enum's lanes.
  assert.deepEqual(types.slice(0, 3), [
    { ...renderOptions(bug), rangeBehavior: 1, overviewRulerLane: vscode.OverviewRulerLane.Right },
    { ...renderOptions(owned), rangeBehavior: 1, overviewRulerLane: vscode.OverviewRulerLane.Center },
    { ...renderOptions(focus), rangeBehavior: 1 },
  ]);
  assert.equal(types[0].overviewRulerColor, '#d32f2fff');
  assert.equal(types[1].overviewRulerColor, '#1976d2ff');
  // Then one per line-indicator look: bug's sign, owned's sign, focus's whole line.
  const lineTypes = types.slice(3);
  assert.equal(lineTypes.length, 3);
  assert.deepEqual(lineTypes.map((options) => Object.keys(options).sort()), [
    ['gutterIconPath', 'gutterIconSize'], ['gutterIconPath', 'gutterIconSize'], ['backgroundColor', 'isWholeLine'],
  ]);
  assert.match(svg(lineTypes[0].gutterIconPath), /<text [^>]*fill="#d32f2f"[^>]*>B<\/text>/);
  assert.match(svg(lineTypes[1].gutterIconPath), /<circle [^>]*fill="#1976d2"/);
  assert.deepEqual(lineTypes[2], { isWholeLine: true, backgroundColor: '#f9a82533' });
  // The ranges carry the ruler marks; each line-indicator type is set on the whole text of its lines.
  const setOn = (options) => shown.calls.filter((call) => call[0].options === options).flatMap((call) => call[1]);
  assert.deepEqual(setOn(types[0]), [new fakes.Range(0, 0, 0, 3), new fakes.Range(0, 8, 0, 11)]);
  assert.deepEqual(setOn(types[1]), [new fakes.Range(1, 0, 1, 9)]);
  assert.deepEqual(setOn(lineTypes[0]), [new fakes.Range(0, 0, 0, 11)]);
  assert.deepEqual(setOn(lineTypes[1]), [new fakes.Range(1, 0, 1, 15)]);
  assert.deepEqual(setOn(lineTypes[2]), [new fakes.Range(1, 0, 1, 15)]);

  // A payload without line indicators clears them; one past the document's end draws none.
  shown.calls = [];
  shown.document.version = 2;
  publish({ textDocument: { uri: 'file:///w/m.txt', version: 2 }, styles: [bug], ranges: [0, 0, 3, 0], lines: [7, 0, -1] });
  for (const options of lineTypes) assert.deepEqual(setOn(options), []);
  assert.deepEqual(setOn(types[0]), [new fakes.Range(0, 0, 0, 3)]);
  await deactivate();
});

test('the real server\'s decorations, drawn by the extension, cover exactly the built-in words', { skip: skipWithoutServer() }, async (t) => {
  // Non-ASCII before the matches, so UTF-8, UTF-16 and UTF-32 columns all differ.
  const lines = ['// TODO: café 👍 FIXME', 'plain line', '/* 日本語 HACK */ NOTE x', '👍👍 XXX BUG'];
  const words = ['TODO', 'FIXME', 'HACK', 'NOTE', 'XXX', 'BUG'];
  // Where the words are, in UTF-16 code units, found without the server.
  const expected = [];
  lines.forEach((line, lineNumber) => {
    for (const word of words) {
      for (let at = line.indexOf(word); at >= 0; at = line.indexOf(word, at + 1)) expected.push([lineNumber, at, at + word.length]);
    }
  });
  const sorted = (ranges) => ranges.map((range) => [range.startLine, range.startCharacter, range.endCharacter]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const encoding of ['utf-16', 'utf-8', 'utf-32']) {
    await t.test(`positions sent as ${encoding}`, async () => {
      await activate({ settings: { 'highlightLs.path': { globalValue: realServer() } } });
      const client = clients[0];
      const options = { ...client.clientOptions.initializationOptions };
      assert.deepEqual(options, { decorations: { positionEncoding: 'utf-16', delta: true } });
      // The extension asks for UTF-16; the other encodings check the conversion of payloads that use them.
      options.decorations = { positionEncoding: encoding };
      const session = serverSession(realServer());
      await session.request('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: options });
      session.notify('initialized', {});
      const uri = 'file:///w/real.txt';
      session.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text: lines.join('\n') } });
      const payload = await session.next('highlight/publishDecorations');
      assert.equal(await session.close(), 0);
      assert.equal(payload.positionEncoding, encoding);

      const shown = editor(uri, 1, lines);
      vscode.window.visibleTextEditors = [shown];
      client.handlers.get('highlight/publishDecorations')(payload);
      const drawn = shown.calls.flatMap((call) => call[1]);
      assert.deepEqual(sorted(drawn), expected.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
      // Built-in styles have no gutter sign or whole line: every type is a range type.
      for (const call of shown.calls) assert.equal(call[0].options.rangeBehavior, 1);
      // The built-in labels mark the overview ruler in the centre lane, in their background colours.
      const rulerColors = new Set(shown.calls.map((call) => `${call[0].options.overviewRulerLane} ${call[0].options.overviewRulerColor}`));
      assert.deepEqual([...rulerColors].sort(), ['2 #1976d2ff', '2 #d32f2fff', '2 #ef6c00ff', '2 #f9a825ff']);
      await deactivate();
    });
  }
});
