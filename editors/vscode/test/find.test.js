// Tests of finding matches: the logic of findings.js (the Highlights tree grouped by rule, file
// and match, its entries, the status bar counts, next/previous with counts, rules and wrapping)
// as plain data; the adapter findView.js through the extension with the stand-ins of
// test/fakes.js (the tree view, its items and their click target, the status bar item, the
// commands); and the same logic on the real server's answers, with multi-byte text.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const fakes = require('./fakes');
const { temporaryDirectory, writeScript, realServer, skipWithoutServer, serverSession } = require('./helpers');

fakes.install();
const extension = require('../extension');
const { buildTree, childrenOf, presentationOf, countsOf, statusOf, countsFrom, rulesStatusOf, step } = require('../findings');
const { minimumServerVersion } = require('../serverBinary');

const { vscode, clients, editor } = fakes;

function range(line, start, end) {
  return { start: { line, character: start }, end: { line, character: end } };
}

function symbol(name, rule, uri, line, start, end) {
  return { name, kind: 15, containerName: rule, location: { uri, range: range(line, start, end) } };
}

const relative = (uri) => uri.replace('file:///w/', '');

// Deliberately out of order: the tree sorts rules by name, files by path, matches by position.
const symbols = [
  symbol('TODO later', 'todo', 'file:///w/src/b.txt', 4, 2, 6),
  symbol('FIXME parser', 'fixme', 'file:///w/src/a.txt', 9, 0, 5),
  symbol('TODO first', 'todo', 'file:///w/src/b.txt', 1, 7, 11),
  symbol('TODO é', 'todo', 'file:///w/README.md', 0, 3, 7),
  { name: 'no location', containerName: 'todo' },
  symbol('FIXME again', 'fixme', 'file:///w/src/a.txt', 2, 1, 6),
];

test('the tree groups by rule, then file, then match, each sorted, with counts', () => {
  const tree = buildTree(symbols, relative);
  const outline = (nodes) => nodes.map((rule) => [rule.name, rule.count, rule.files.map((file) =>
    [file.path, file.count, file.matches.map((match) => `${match.range.start.line}:${match.range.start.character} ${match.name}`)])]);
  assert.deepEqual(outline(tree), [
    ['fixme', 2, [['src/a.txt', 2, ['2:1 FIXME again', '9:0 FIXME parser']]]],
    ['todo', 3, [['README.md', 1, ['0:3 TODO é']], ['src/b.txt', 2, ['1:7 TODO first', '4:2 TODO later']]]],
  ]);
  assert.deepEqual(childrenOf(tree, undefined), tree);
  assert.deepEqual(childrenOf(tree, tree[1]), tree[1].files);
  assert.deepEqual(childrenOf(tree, tree[1].files[1]), tree[1].files[1].matches);
  assert.deepEqual(childrenOf(tree, tree[1].files[1].matches[0]), []);
  assert.deepEqual(buildTree(undefined, relative), []);
});

test('each entry shows its label, count or place, and a match opens at its exact range', () => {
  const tree = buildTree(symbols, relative);
  assert.deepEqual(presentationOf(tree[1]), { label: 'todo', description: '3', expandable: true, tooltip: 'todo: 3 matches' });
  assert.deepEqual(presentationOf(tree[1].files[1]), {
    label: 'src/b.txt', description: '2', expandable: true, resourceUri: 'file:///w/src/b.txt', tooltip: 'src/b.txt: 2 matches of todo',
  });
  assert.deepEqual(presentationOf(tree[1].files[0].matches[0]), {
    label: 'TODO é', description: '1:4', expandable: false, tooltip: 'todo at line 1, column 4',
    open: { uri: 'file:///w/README.md', range: range(0, 3, 7) },
  });
});

test('the status bar counts the matches of the active file and of the workspace', () => {
  const tree = buildTree(symbols, relative);
  assert.deepEqual(countsOf(tree, 'file:///w/src/b.txt'), { file: 2, workspace: 5 });
  assert.deepEqual(countsOf(tree, 'file:///w/src/a.txt'), { file: 2, workspace: 5 });
  assert.deepEqual(countsOf(tree, 'file:///w/other.txt'), { file: 0, workspace: 5 });
  assert.deepEqual(statusOf({ file: 2, workspace: 5 }), {
    text: '$(checklist) 2 · 5', tooltip: 'highlight-ls: 2 matches in this file, 5 matches in the workspace',
  });
  assert.deepEqual(statusOf({ file: undefined, workspace: 1 }), { text: '$(checklist) 1', tooltip: 'highlight-ls: 1 match in the workspace' });
});

test('the status bar counts per rule come from a highlight/counts answer', () => {
  const answer = { counts: [{ rule: 'todo', count: 3 }, { rule: 'fixme', count: 1 }, { rule: 7 }, null], total: 4, files: 2 };
  const counts = countsFrom(answer);
  assert.deepEqual(counts, { rules: [{ rule: 'todo', count: 3 }, { rule: 'fixme', count: 1 }], total: 4, files: 2 });
  assert.deepEqual(rulesStatusOf(counts), {
    text: '$(checklist) 3 TODO | 1 FIXME',
    tooltip: 'highlight-ls: 4 matches in 2 files of the workspace (3 todo, 1 fixme). Click for the Highlights view.',
  });
  assert.deepEqual(rulesStatusOf(countsFrom({ counts: [], total: 0, files: 0 })), {
    text: '$(checklist)',
    tooltip: 'highlight-ls: no listed matches in the workspace. Click for the Highlights view.',
  });
  // An answer that is not one (an older server's null, an error's body) shows nothing new.
  assert.equal(countsFrom(undefined), undefined);
  assert.equal(countsFrom(null), undefined);
  assert.equal(countsFrom({ counts: 'todo' }), undefined);
});

test('next and previous: counts, rules, and wrapping at both ends', () => {
  const matches = [
    { rule: 'todo', range: range(0, 3, 7) },
    { rule: 'fixme', range: range(0, 12, 17) },
    { rule: 'note', range: range(2, 2, 6) },
    { rule: 'hack', range: range(2, 11, 15) },
    { rule: 'todo', range: range(3, 0, 4) },
  ];
  const at = (line, character) => ({ line, character });
  const where = (found) => found && `${found.match.range.start.line}:${found.match.range.start.character}${found.wrapped ? ' wrapped' : ''}`;
  assert.equal(where(step(matches, at(0, 0))), '0:3');
  assert.equal(where(step(matches, at(0, 3))), '0:12');
  assert.equal(where(step(matches, at(0, 5))), '0:12', 'from inside a match, the next one');
  assert.equal(where(step(matches, at(0, 3), { count: 3 })), '2:11');
  assert.equal(where(step(matches, at(3, 0))), '0:3 wrapped');
  assert.equal(where(step(matches, at(0, 3), { count: 7 })), '2:2 wrapped');
  assert.equal(where(step(matches, at(0, 3), { forward: false })), '3:0 wrapped');
  assert.equal(where(step(matches, at(2, 12), { forward: false })), '2:11', 'from inside a match, its start');
  assert.equal(where(step(matches, at(3, 0), { forward: false, count: 3 })), '0:12');
  assert.equal(where(step(matches, at(0, 3), { rules: ['TODO'] })), '3:0');
  assert.equal(where(step(matches, at(3, 0), { rules: ['todo'] })), '0:3 wrapped');
  assert.equal(where(step(matches, at(0, 0), { forward: false, rules: ['hack', 'fixme'] })), '2:11 wrapped');
  assert.equal(step(matches, at(0, 0), { rules: ['nosuchrule'] }), undefined);
  assert.equal(step([], at(0, 0)), undefined);
  assert.equal(step(null, at(0, 0)), undefined);
});

/** Activates the extension with a bundled stand-in binary; returns the context and the client. */
async function activate() {
  fakes.reset();
  const folder = temporaryDirectory();
  writeScript(path.join(folder, 'server', 'highlight-ls'), `highlight-ls ${minimumServerVersion}`);
  const context = { extensionPath: folder, subscriptions: [] };
  const savedPath = process.env.PATH;
  process.env.PATH = '';
  try {
    await extension.activate(context);
  } finally {
    process.env.PATH = savedPath;
  }
  return { context, client: clients[0] };
}

async function deactivate(context) {
  await extension.deactivate();
  for (const subscription of context.subscriptions) subscription.dispose();
}

function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

test('the Highlights view, its status bar item and the commands, through the adapter', async (t) => {
  const { context, client } = await activate();
  client.answers.set('workspace/symbol', symbols);
  const active = editor('file:///w/src/b.txt', 1, ['line', 'x TODO first', '', '', '  TODO later']);
  vscode.window.activeTextEditor = active;
  await vscode.commands.executeCommand('highlightLs.refreshHighlights');
  const [view] = vscode.window.treeViews;
  const provider = view.options.treeDataProvider;

  await t.test('the view is the Explorer view of the manifest, filled from workspace/symbol', () => {
    assert.equal(view.id, 'highlightLs.highlights');
    const manifest = require('../package.json');
    assert.deepEqual(manifest.contributes.views.explorer.map((entry) => entry.id), ['highlightLs.highlights']);
    assert.ok(client.requests.some((request) => request[0] === 'workspace/symbol' && request[1].query === ''));
    const rules = provider.getChildren(undefined);
    assert.deepEqual(rules.map((rule) => provider.getTreeItem(rule).label), ['fixme', 'todo']);
    const files = provider.getChildren(rules[1]);
    assert.deepEqual(files.map((file) => [provider.getTreeItem(file).label, provider.getTreeItem(file).description]), [['README.md', '1'], ['src/b.txt', '2']]);
    assert.equal(provider.getTreeItem(files[1]).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  });

  await t.test('a match opens its file at the exact range', () => {
    const match = provider.getChildren(provider.getChildren(provider.getChildren(undefined)[1])[0])[0];
    const item = provider.getTreeItem(match);
    assert.equal(item.label, 'TODO é');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.None);
    assert.equal(item.command.command, 'vscode.open');
    assert.equal(String(item.command.arguments[0]), 'file:///w/README.md');
    assert.deepEqual(item.command.arguments[1], { selection: new fakes.Range(0, 3, 0, 7) });
  });

  await t.test('the status bar shows the active file\'s count and the workspace\'s', async () => {
    const [status] = vscode.window.statusBarItems;
    assert.equal(status.text, '$(checklist) 2 · 5');
    assert.equal(status.visible, true);
    assert.equal(status.command, 'highlightLs.highlights.focus');
    vscode.window.activeTextEditor = editor('file:///w/src/a.txt', 1, ['']);
    await vscode.window.onDidChangeActiveTextEditor.fire(vscode.window.activeTextEditor);
    assert.equal(status.text, '$(checklist) 2 · 5');
    vscode.window.activeTextEditor = undefined;
    await vscode.window.onDidChangeActiveTextEditor.fire(undefined);
    assert.equal(status.text, '$(checklist) 5');
  });

  await t.test('saving a document asks again', async () => {
    client.answers.set('workspace/symbol', symbols.slice(0, 1));
    await vscode.workspace.onDidSaveTextDocument.fire({});
    assert.deepEqual(provider.getChildren(undefined).map((rule) => [rule.name, rule.count]), [['todo', 1]]);
    assert.equal(vscode.window.statusBarItems[0].text, '$(checklist) 1');
  });

  await t.test('with highlight/counts, the status bar shows the counts per rule, asked again after a save and after edits', async (sub) => {
    const status = vscode.window.statusBarItems[0];
    const countsRequests = () => client.requests.filter((request) => request[0] === 'highlight/counts').length;
    client.answers.set('highlight/counts', { counts: [{ rule: 'todo', count: 3 }, { rule: 'fixme', count: 1 }], total: 4, files: 2 });
    const before = countsRequests();
    await vscode.workspace.onDidSaveTextDocument.fire({});
    await settle();
    assert.equal(countsRequests(), before + 1, 'a save asks once');
    assert.deepEqual(client.requests.filter((request) => request[0] === 'highlight/counts').at(-1), ['highlight/counts', {}]);
    assert.equal(status.text, '$(checklist) 3 TODO | 1 FIXME');
    assert.equal(status.command, 'highlightLs.highlights.focus', 'a click opens the Highlights view');
    // Edits, unsaved: one request 500 ms after the last of a burst, none before.
    sub.mock.timers.enable({ apis: ['setTimeout'] });
    client.answers.set('highlight/counts', { counts: [{ rule: 'todo', count: 3 }, { rule: 'fixme', count: 2 }], total: 5, files: 2 });
    const edit = { document: active.document, contentChanges: [{ text: 'FIXME' }] };
    await vscode.workspace.onDidChangeTextDocument.fire(edit);
    sub.mock.timers.tick(300);
    await vscode.workspace.onDidChangeTextDocument.fire(edit);
    sub.mock.timers.tick(499);
    assert.equal(countsRequests(), before + 1, 'nothing asked within 500 ms of the last edit');
    sub.mock.timers.tick(1);
    await settle();
    assert.equal(countsRequests(), before + 2, 'one request after the burst');
    assert.equal(status.text, '$(checklist) 3 TODO | 2 FIXME');
    // A change event without changes (a dirty flag, a language) asks nothing.
    await vscode.workspace.onDidChangeTextDocument.fire({ document: active.document, contentChanges: [] });
    sub.mock.timers.tick(1000);
    await settle();
    assert.equal(countsRequests(), before + 2);
    // The active editor no longer matters: the counts are the workspace's.
    vscode.window.activeTextEditor = undefined;
    await vscode.window.onDidChangeActiveTextEditor.fire(undefined);
    assert.equal(status.text, '$(checklist) 3 TODO | 2 FIXME');
    vscode.window.activeTextEditor = active;
  });

  await t.test('Next and Previous Highlight move the cursor, with a count and a message on wrapping', async () => {
    vscode.window.activeTextEditor = active;
    client.answers.set('highlight/matches', [
      { rule: 'todo', utf8Range: [7, 11], range: range(1, 2, 6) },
      { rule: 'todo', utf8Range: [30, 34], range: range(4, 2, 6) },
    ]);
    await vscode.commands.executeCommand('highlightLs.nextHighlight');
    assert.deepEqual(active.selection, new fakes.Selection(new fakes.Position(1, 2), new fakes.Position(1, 2)));
    assert.deepEqual(active.revealed.at(-1), [new fakes.Range(1, 2, 1, 6), vscode.TextEditorRevealType.InCenterIfOutsideViewport]);
    assert.deepEqual(client.requests.at(-1), ['highlight/matches', { textDocument: { uri: 'file:///w/src/b.txt' } }]);
    await vscode.commands.executeCommand('highlightLs.nextHighlight');
    assert.equal(active.selection.active.line, 4);
    assert.deepEqual(vscode.window.statusBarMessages, []);
    await vscode.commands.executeCommand('highlightLs.nextHighlight');
    assert.equal(active.selection.active.line, 1);
    assert.deepEqual(vscode.window.statusBarMessages, ['highlight-ls: search hit BOTTOM, continuing at TOP']);
    await vscode.commands.executeCommand('highlightLs.previousHighlight', { count: 3 });
    assert.equal(active.selection.active.line, 4);
    assert.equal(vscode.window.statusBarMessages.at(-1), 'highlight-ls: search hit TOP, continuing at BOTTOM');
    client.answers.set('highlight/matches', []);
    await vscode.commands.executeCommand('highlightLs.nextHighlight');
    assert.equal(active.selection.active.line, 4);
    assert.equal(vscode.window.statusBarMessages.at(-1), 'highlight-ls: no matches in this file');
  });

  await t.test('the commands are in the manifest', () => {
    const manifest = require('../package.json');
    const titles = Object.fromEntries(manifest.contributes.commands.map((command) => [command.command, command.title]));
    assert.equal(titles['highlightLs.nextHighlight'], 'Next Highlight');
    assert.equal(titles['highlightLs.previousHighlight'], 'Previous Highlight');
    assert.ok(titles['highlightLs.refreshHighlights']);
    assert.deepEqual(manifest.contributes.menus['view/title'],
      [{ command: 'highlightLs.refreshHighlights', when: 'view == highlightLs.highlights', group: 'navigation' }]);
  });

  await deactivate(context);
  await settle();
  assert.equal(vscode.window.treeViews[0].disposed, true, 'deactivation disposes the view');
});

test('the real server\'s answers: the tree of a workspace and next/previous in multi-byte text', { skip: skipWithoutServer() }, async () => {
  const folder = temporaryDirectory();
  fs.mkdirSync(path.join(folder, 'sub'));
  fs.writeFileSync(path.join(folder, '.highlights.json'), '{ "rules": [] }\n');
  fs.writeFileSync(path.join(folder, 'sub', 'b.txt'), '日本 🔥 FIXME b\n');
  const lines = ['é TODO 👍 FIXME ça', 'plain line', '  NOTE: 🔥 HACK x', 'TODO end'];
  fs.writeFileSync(path.join(folder, 'a.txt'), `${lines.join('\n')}\n`);
  const root = pathToFileURL(folder).href;
  const session = serverSession(realServer());
  await session.request('initialize', { processId: null, rootUri: root, capabilities: {} });
  session.notify('initialized', {});
  const uri = `${root}/a.txt`;
  session.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text: `${lines.join('\n')}\n` } });
  const workspace = await session.request('workspace/symbol', { query: '' });
  const matches = await session.request('highlight/matches', { textDocument: { uri } });
  const counted = await session.request('highlight/counts', {});
  assert.equal(await session.close(), 0);

  // The same workspace counted: FIXME twice (the open file and the file on disk), ties by name.
  assert.deepEqual(rulesStatusOf(countsFrom(counted)).text, '$(checklist) 2 FIXME | 2 TODO | 1 HACK');
  assert.equal(countsFrom(counted).files, 2);

  const tree = buildTree(workspace, (known) => known.slice(root.length + 1));
  const outline = tree.map((rule) => `${rule.name} ${rule.count}: ${rule.files.map((file) =>
    `${file.path} ${file.matches.map((match) => `${match.range.start.line}:${match.range.start.character}`).join(' ')}`).join(', ')}`);
  // UTF-16 columns, found without the server: é is one unit, 👍, 🔥 two, 日 and 本 one.
  const column = (line, word) => line.indexOf(word);
  assert.deepEqual(outline, [
    `fixme 2: a.txt 0:${column(lines[0], 'FIXME')}, sub/b.txt 0:${column('日本 🔥 FIXME b', 'FIXME')}`,
    `hack 1: a.txt 2:${column(lines[2], 'HACK')}`,
    `todo 2: a.txt 0:${column(lines[0], 'TODO')} 3:0`,
  ]);
  assert.deepEqual(countsOf(tree, uri), { file: 4, workspace: 5 });
  const where = (found) => `${found.match.range.start.line}:${found.match.range.start.character}${found.wrapped ? ' wrapped' : ''}`;
  assert.equal(where(step(matches, { line: 0, character: 0 })), `0:${column(lines[0], 'TODO')}`);
  assert.equal(where(step(matches, { line: 0, character: 0 }, { count: 3 })), `2:${column(lines[2], 'NOTE')}`);
  assert.equal(where(step(matches, { line: 3, character: 0 })), `0:${column(lines[0], 'TODO')} wrapped`);
  assert.equal(where(step(matches, { line: 3, character: 0 }, { forward: false, rules: ['fixme'] })), `0:${column(lines[0], 'FIXME')}`);
});
