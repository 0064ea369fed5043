// Tests of how extension.js takes decorations as deltas (docs/PROTOCOL.md, "Decorations that
// follow edits"), with the recording stand-ins of test/fakes.js: what reaches `setDecorations`
// after a delta (only the types it replaced, at their moved lines), when the extension asks for
// the whole set (a delta that does not follow the last payload applied, or is for an older
// version: one request, not one per payload), and, with the real server, that an edit's
// notification carries only the changed lines and that the editor ends with what a whole
// payload draws.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const fakes = require('./fakes');
const { temporaryDirectory, writeScript, realServer, skipWithoutServer } = require('./helpers');
const { deltaSession, randomChange, randomText } = require('./deltaSession');
const { SplitMix64 } = require('./random');

fakes.install();
const extension = require('../extension');
const { renderOptions } = require('../decorations');
const { minimumServerVersion } = require('../serverBinary');

const { vscode, clients, callsNamed, editor } = fakes;

let lastContext;

async function activate(settings = {}) {
  fakes.reset({ settings });
  const folder = temporaryDirectory();
  writeScript(path.join(folder, 'server', 'highlight-ls'), `highlight-ls ${minimumServerVersion}`);
  lastContext = { extensionPath: folder, subscriptions: [] };
  await extension.activate(lastContext);
  return clients[0];
}

async function deactivate() {
  await extension.deactivate();
  for (const subscription of lastContext.subscriptions) subscription.dispose();
}

/** Lets promise chains (a request and its answer) run. */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A promise with its resolve function, to hold a request's answer back. */
function deferred() {
  let resolve;
  const promise = new Promise((done) => { resolve = done; });
  return { promise, resolve };
}

/** The types created so far, in order. */
function createdTypes() {
  return callsNamed('createTextEditorDecorationType').map((call) => call[2]);
}

/**
 * What an editor shows: the last ranges set for each type, as `{ typeNumber: [[line, start,
 * end], ...] }` (types numbered in the order they were created), types set to nothing left out.
 */
function shown(target) {
  const last = new Map();
  for (const [type, ranges] of target.calls) last.set(type, ranges);
  const types = createdTypes();
  const result = {};
  for (const [type, ranges] of last) {
    if (ranges.length === 0) continue;
    result[types.indexOf(type)] = ranges.map((range) => [range.startLine, range.startCharacter, range.endCharacter])
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }
  return result;
}

const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const fixme = { rule: 'fixme', color: '#ffffffff', backgroundColor: '#d32f2fff', bold: true };
const uri = 'file:///w/d.txt';

/** An editor of `uri` at version 1 with the whole first payload drawn; the server's resultId "1". */
function opened(client, lines = ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last']) {
  const target = editor(uri, 1, lines);
  vscode.window.visibleTextEditors = [target];
  client.handlers.get('highlight/publishDecorations')({
    textDocument: { uri, version: 1 }, positionEncoding: 'utf-16', resultId: '1',
    styles: [todo, fixme], ranges: [0, 0, 4, 0, 2, 0, 5, 1, 4, 0, 4, 0],
  });
  return target;
}

/** A delta on the payload `previous` for `version`. */
function delta(version, previous, edit, styles = [todo, fixme]) {
  return { textDocument: { uri, version }, positionEncoding: 'utf-16', resultId: String(Number(previous) + 1), previousResultId: previous, styles, edit };
}

/** Edits the editor's document as the user would: new lines, next version. */
function type(target, lines) {
  target.document.lines = lines;
  target.document.version += 1;
  target.calls = [];
}

const wholeRequests = (client) => client.requests.filter((request) => request[0] === 'highlight/decorations');

test('the extension opts in to deltas', async () => {
  const client = await activate();
  assert.deepEqual(client.clientOptions.initializationOptions, { decorations: { positionEncoding: 'utf-16', delta: true } });
  await deactivate();
});

test('a delta sets only the types whose ranges it replaced, with the later ones moved', async (t) => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  const [todoType, fixmeType] = createdTypes();
  assert.deepEqual(createdTypes().map((created) => created.options), [
    { ...renderOptions(todo), rangeBehavior: 1 }, { ...renderOptions(fixme), rangeBehavior: 1 },
  ]);

  await t.test('a line with a TODO inserted: todo is set, with the last TODO a line down; fixme only moved', () => {
    type(target, ['TODO one', 'TODO new', 'plain', 'FIXME two', 'x', 'TODO last']);
    assert.equal(publish(delta(2, '1', { startLine: 1, endLine: 3, oldEndLine: 2, ranges: [1, 0, 4, 0] })), true, 'applied');
    assert.deepEqual(target.calls.map((call) => [call[0], call[1]]), [
      [todoType, [new fakes.Range(0, 0, 0, 4), new fakes.Range(1, 0, 1, 4), new fakes.Range(5, 0, 5, 4)]],
    ]);
  });

  await t.test('a TODO pasted over itself: todo is set again, though its ranges came back the same', () => {
    // VS Code collapsed the decoration under the replaced text; only setDecorations restores it.
    type(target, ['TODO one', 'TODO new', 'plain', 'FIXME two', 'x', 'TODO last']);
    publish(delta(3, '2', { startLine: 1, endLine: 2, oldEndLine: 2, ranges: [1, 0, 4, 0] }));
    assert.deepEqual(target.calls.map((call) => call[0]), [todoType]);
  });

  await t.test('typing on a line without highlights sets nothing', () => {
    type(target, ['TODO one', 'TODO new', 'plains', 'FIXME two', 'x', 'TODO last']);
    publish(delta(4, '3', { startLine: 2, endLine: 3, oldEndLine: 3, ranges: [] }));
    assert.deepEqual(target.calls, []);
  });

  await t.test('the FIXME line deleted: fixme is set to nothing, todo is left alone', () => {
    type(target, ['TODO one', 'TODO new', 'plains', 'x', 'TODO last']);
    publish(delta(5, '4', { startLine: 3, endLine: 3, oldEndLine: 4, ranges: [] }));
    assert.deepEqual(target.calls, [[fixmeType, []]]);
  });

  await t.test('an editor that becomes visible gets the whole model, moves included', async () => {
    const again = editor(uri, 5, target.document.lines);
    vscode.window.visibleTextEditors = [again];
    await vscode.window.onDidChangeVisibleTextEditors.fire([again]);
    assert.deepEqual(shown(again), { 0: [[0, 0, 4], [1, 0, 4], [4, 0, 4]] });
  });

  assert.deepEqual(wholeRequests(client), [], 'every delta followed the one before');
  await deactivate();
});

test('a delta that does not follow the last payload applied asks once for the whole set, which later deltas build on', async () => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  const answer = deferred();
  client.answers.set('highlight/decorations', answer.promise);

  // The server's payload "2" was lost: "3" follows it, for the current version.
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last', 'FIXME']);
  publish(delta(2, '2', { startLine: 5, endLine: 6, oldEndLine: 5, ranges: [5, 0, 5, 1] }));
  assert.deepEqual(wholeRequests(client), [['highlight/decorations', { textDocument: { uri } }]]);
  assert.deepEqual(target.calls, [], 'the delta is not drawn');
  // More payloads while the request is out ask nothing more, and are not drawn either.
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last', 'FIXME', 'TODO']);
  publish(delta(3, '3', { startLine: 6, endLine: 7, oldEndLine: 6, ranges: [6, 0, 4, 0] }));
  assert.equal(wholeRequests(client).length, 1);
  assert.deepEqual(target.calls, []);

  answer.resolve({
    textDocument: { uri, version: 3 }, positionEncoding: 'utf-16', resultId: '5',
    styles: [fixme, todo], ranges: [0, 0, 4, 1, 2, 0, 5, 0, 4, 0, 4, 1, 5, 0, 5, 0, 6, 0, 4, 1],
  });
  await settle();
  assert.deepEqual(shown(target), { 0: [[0, 0, 4], [4, 0, 4], [6, 0, 4]], 1: [[2, 0, 5], [5, 0, 5]] });

  // The next delta follows the answer and is drawn.
  type(target, ['TODO one', 'plain', 'plain', 'x', 'TODO last', 'FIXME', 'TODO']);
  publish(delta(4, '5', { startLine: 2, endLine: 3, oldEndLine: 3, ranges: [] }, [fixme, todo]));
  assert.deepEqual(target.calls.map((call) => call[1].length), [1]);
  assert.equal(wholeRequests(client).length, 1);
  await deactivate();
});

test('a delta for an older version waits for the payload of the current one, then asks once', async () => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  client.answers.set('highlight/decorations', {
    textDocument: { uri, version: 3 }, positionEncoding: 'utf-16', resultId: '4', styles: [todo], ranges: [0, 0, 4, 0],
  });
  // Two keystrokes; the delta for the first comes when the document is already at the second.
  type(target, ['TODO one!', 'plain', 'FIXME two', 'x', 'TODO last']);
  type(target, ['TODO', '', '', '', '']);
  publish(delta(2, '1', { startLine: 0, endLine: 1, oldEndLine: 1, ranges: [0, 0, 4, 0] }));
  assert.deepEqual(wholeRequests(client), [], 'a request now would bring a stale answer');
  assert.deepEqual(target.calls, []);
  // The delta for the current version follows the dropped one: it cannot be applied either.
  publish(delta(3, '2', { startLine: 0, endLine: 5, oldEndLine: 5, ranges: [0, 0, 4, 0] }));
  assert.equal(wholeRequests(client).length, 1);
  await settle();
  assert.deepEqual(shown(target), { 0: [[0, 0, 4]] });
  await deactivate();
});

test('a stale answer is dropped, and asked again only when a payload for the current version was dropped meanwhile', async () => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  const first = deferred();
  client.answers.set('highlight/decorations', first.promise);
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last', '']);
  publish(delta(2, '7', { startLine: 5, endLine: 6, oldEndLine: 5, ranges: [] }));
  assert.equal(wholeRequests(client).length, 1);
  // The user types again; that version's delta comes while the request is out, and is dropped.
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last', 'TODO']);
  publish(delta(3, '8', { startLine: 5, endLine: 6, oldEndLine: 6, ranges: [5, 0, 4, 0] }));
  assert.equal(wholeRequests(client).length, 1);
  const second = { textDocument: { uri, version: 3 }, positionEncoding: 'utf-16', resultId: '10', styles: [todo], ranges: [0, 0, 4, 0, 4, 0, 4, 0, 5, 0, 4, 0] };
  client.answers.set('highlight/decorations', second);
  // The answer is for version 2: stale, dropped, and asked again, once.
  first.resolve({ textDocument: { uri, version: 2 }, positionEncoding: 'utf-16', resultId: '9', styles: [todo], ranges: [0, 0, 4, 0] });
  await settle();
  await settle();
  assert.equal(wholeRequests(client).length, 2);
  assert.deepEqual(shown(target), { 0: [[0, 0, 4], [4, 0, 4], [5, 0, 4]] });
  await deactivate();
});

test('an editor shown while the decorations were behind it is drawn in full by the next delta', async () => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last', 'FIXME']);
  // A second editor of the document appears before the payload for version 2: not drawn.
  const second = editor(uri, 2, target.document.lines);
  vscode.window.visibleTextEditors = [target, second];
  await vscode.window.onDidChangeVisibleTextEditors.fire([target, second]);
  assert.deepEqual(second.calls, []);
  publish(delta(2, '1', { startLine: 5, endLine: 6, oldEndLine: 5, ranges: [5, 0, 5, 1] }));
  // The first editor gets the type the delta changed; the second everything.
  assert.deepEqual(target.calls.map((call) => call[1].length), [2]);
  assert.deepEqual(shown(second), { 0: [[0, 0, 4], [4, 0, 4]], 1: [[2, 0, 5], [5, 0, 5]] });
  await deactivate();
});

test('a closed document and a restart forget the decorations; an answer after a restart is dropped', async () => {
  const client = await activate();
  const publish = client.handlers.get('highlight/publishDecorations');
  const target = opened(client);
  await vscode.workspace.onDidCloseTextDocument.fire(target.document);
  type(target, ['TODO one', 'plain', 'FIXME two', 'x', 'TODO last!']);
  const answer = deferred();
  client.answers.set('highlight/decorations', answer.promise);
  publish(delta(2, '1', { startLine: 4, endLine: 5, oldEndLine: 5, ranges: [4, 0, 4, 0] }));
  assert.equal(wholeRequests(client).length, 1, 'nothing to build on after the close');
  await vscode.commands.executeCommand('highlightLs.restart');
  answer.resolve({ textDocument: { uri, version: 2 }, positionEncoding: 'utf-16', resultId: '3', styles: [todo], ranges: [0, 0, 4, 0] });
  await settle();
  assert.deepEqual(target.calls, []);
  await deactivate();
});

/** Feeds the server's payloads to the extension, each with the editor at its version and text. */
function deliver(client, target, received) {
  const publish = client.handlers.get('highlight/publishDecorations');
  for (const { payload, lines } of received) {
    target.document.version = payload.textDocument.version;
    target.document.lines = lines;
    publish(payload);
  }
}

test('the real server: an edit\'s notification carries only the changed lines, and only their types are set', { skip: skipWithoutServer() }, async () => {
  const client = await activate();
  const session = await deltaSession(realServer());
  try {
    const lines = [];
    for (let index = 0; index < 2000; index += 1) lines.push(`line ${index} // TODO fix ABC-${index}${index % 100 === 0 ? ' FIXME' : ''}`);
    const first = await session.open(lines.join('\n'));
    const target = editor(session.uri, 1, first.lines);
    vscode.window.visibleTextEditors = [target];
    deliver(client, target, [first]);
    const todoType = createdTypes().find((created) => created.options.rangeBehavior === 1 && created.options.backgroundColor === todo.backgroundColor);
    assert.ok(todoType);

    // A character typed at the end of line 1234: that one line is sent, with its TODO and ticket.
    target.calls = [];
    const typed = await session.edit([{ range: { start: { line: 1234, character: 30 }, end: { line: 1234, character: 30 } }, text: 'x' }]);
    assert.equal(typed.length, 1);
    const { edit } = typed[0].payload;
    assert.deepEqual([edit.startLine, edit.endLine, edit.oldEndLine], [1234, 1235, 1235]);
    assert.equal(edit.ranges.length, 8, 'the TODO and the ticket of that line');
    for (let offset = 0; offset < edit.ranges.length; offset += 4) assert.equal(edit.ranges[offset], 1234);
    assert.deepEqual(edit.lines.filter((_, index) => index % 3 === 0), [1234], 'the ticket\'s gutter sign');
    deliver(client, target, typed);
    // The types on that line are set again, each with all its ranges (VS Code takes them at
    // once): todo, ticket, and the ticket's gutter sign. FIXME, on other lines, is not.
    assert.deepEqual(target.calls.map((call) => call[1].length), [2000, 2000, 2000]);

    // A line broken in two at line 500: the lines after move, without being sent.
    target.calls = [];
    const broken = await session.edit([{ range: { start: { line: 500, character: 9 }, end: { line: 500, character: 9 } }, text: '\n' }]);
    const split = broken[0].payload.edit;
    assert.deepEqual([split.startLine, split.endLine, split.oldEndLine], [500, 502, 501]);
    deliver(client, target, broken);
    const todoRanges = target.calls.find((call) => call[0] === todoType)[1];
    assert.deepEqual(todoRanges.slice(500, 502).map((range) => range.startLine), [501, 502]);
    assert.equal(todoRanges[1999].startLine, 2000);
    assert.deepEqual(wholeRequests(client), []);
  } finally {
    assert.equal(await session.close(), 0);
    await deactivate();
  }
});

/**
 * Where VS Code moves a decoration's start (or `end`) when `change` is applied, as its tracked
 * ranges with `ClosedClosed` do: before the change it stays; after it, it moves with the text;
 * inside the replaced text it collapses to the change's start. An end sticks to the character
 * before it: at the point where text is typed it stays (the range does not grow), and at the end
 * of replaced text it goes with that text to the change's start. So a decoration whose text is
 * replaced, even by the same text, collapses, and only `setDecorations` brings it back.
 */
function tracked([line, character], change, end) {
  const { start: from, end: to } = change.range;
  const parts = change.text.split('\n');
  const added = parts.length - 1;
  const compare = (a, b) => a.line - b.line || a.character - b.character;
  const here = { line, character };
  if (compare(here, from) < 0 || (end && compare(here, from) === 0)) return [line, character];
  if (compare(here, to) < 0 || (end && compare(here, to) === 0)) return [from.line, from.character];
  const movedLine = line - (to.line - from.line) + added;
  if (line !== to.line) return [movedLine, character];
  const lastStart = added === 0 ? from.character + parts[0].length : parts[added].length;
  return [movedLine, lastStart + character - to.character];
}

test('the real server: after seeded random edits, the editor shows what the whole set draws', { skip: skipWithoutServer() }, async () => {
  const seed = Number(process.env.HIGHLIGHT_LS_SEED || 20261127);
  const random = new SplitMix64(seed);
  const client = await activate();
  const session = await deltaSession(realServer());
  try {
    const first = await session.open(randomText(80, random));
    const target = editor(session.uri, 1, first.lines);
    vscode.window.visibleTextEditors = [target];
    deliver(client, target, [first]);
    // What the editor shows, type by type: set by setDecorations, moved by edits as VS Code does.
    const screen = new Map();
    const record = (calls) => {
      for (const [type, ranges] of calls) screen.set(type, ranges.map((range) => [range.startLine, range.startCharacter, range.endCharacter]));
    };
    record(target.calls);
    let calls = 0;
    for (let step = 0; step < 150; step += 1) {
      const context = `seed ${seed}, step ${step}`;
      const change = randomChange(session.text, random);
      const before = target.calls.length;
      const received = await session.edit([change]);
      for (const [type, ranges] of screen) {
        screen.set(type, ranges.map(([line, start, end]) => {
          const [startLine, startCharacter] = tracked([line, start], change, false);
          const [endLine, endCharacter] = tracked([line, end], change, true);
          return endLine === startLine ? [startLine, startCharacter, endCharacter] : [startLine, startCharacter, -1];
        }));
      }
      deliver(client, target, received);
      const made = target.calls.slice(before);
      assert.equal(new Set(made.map((call) => call[0])).size, made.length, `${context}: one call per type`);
      calls += made.length;
      record(made);
    }
    assert.deepEqual(wholeRequests(client), [], `seed ${seed}: every delta followed the one before`);
    const types = createdTypes();
    const onScreen = {};
    for (const [type, ranges] of screen) {
      if (ranges.length > 0) onScreen[types.indexOf(type)] = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    }
    // A new editor of the document is drawn from the extension's model.
    const reopened = editor(session.uri, session.version, target.document.lines);
    vscode.window.visibleTextEditors = [reopened];
    await vscode.window.onDidChangeVisibleTextEditors.fire([reopened]);
    // The whole set for the same version, drawn in a fresh editor.
    const whole = await session.whole();
    const fresh = editor(session.uri, session.version, whole.lines);
    vscode.window.visibleTextEditors = [fresh];
    deliver(client, fresh, [whole]);
    assert.deepEqual(onScreen, shown(fresh), `seed ${seed}: the edited editor`);
    assert.deepEqual(shown(reopened), shown(fresh), `seed ${seed}: the model`);
    assert.ok(Object.keys(onScreen).length >= 4, 'ranges, gutter signs and whole lines were drawn');
    assert.ok(calls < 150 * types.length / 2, `far fewer calls than one per type and delta (${calls})`);
  } finally {
    assert.equal(await session.close(), 0);
    await deactivate();
  }
});
