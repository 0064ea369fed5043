// How long the extension takes to draw a large file's decorations: the real server's payloads
// for a document of N lines with a match on every line, through the extension's handler into a
// recording editor (test/fakes.js). Not a test; figures go to BENCHMARKS.md.
//
// For each size it times the whole payload of the opened document, and two deltas (the
// extension opts in with `"delta": true`): a character typed at the end of the middle line (the
// line is sent; nothing moves) and the middle line broken in two (two lines are sent; every line
// after them moves down one). Each delta is timed on the model of the whole payload, rebuilt
// before each run and not timed. "types set" and "ranges" are what reached `setDecorations`.
//
//   node editors/vscode/bench/large-file.js /path/to/highlight-ls [lines...]
'use strict';

const path = require('node:path');
const fakes = require('../test/fakes');
const { serverSession, temporaryDirectory } = require('../test/helpers');
const { applyChange } = require('../test/deltaSession');

fakes.install();
const extension = require('../extension');

const runs = 5;

/**
 * The server's payloads for `lines`: the whole one after didOpen and the delta after `change`
 * (undefined: none), with the time from each notification sent to its payload.
 */
async function serverPayloads(binary, lines, encoding, change) {
  const session = serverSession(binary);
  await session.request('initialize', {
    processId: null, rootUri: null, capabilities: {},
    initializationOptions: { decorations: { positionEncoding: encoding, delta: true } },
  });
  session.notify('initialized', {});
  const uri = 'file:///bench/large.txt';
  const text = lines.join('\n');
  const opened = process.hrtime.bigint();
  session.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text } });
  const whole = await session.next('highlight/publishDecorations');
  const answered = process.hrtime.bigint();
  const result = { uri, whole, openMs: Number(answered - opened) / 1e6 };
  if (change) {
    const edited = process.hrtime.bigint();
    session.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [change] });
    result.delta = await session.next('highlight/publishDecorations');
    result.editMs = Number(process.hrtime.bigint() - edited) / 1e6;
    result.editedLines = applyChange(text, change).split('\n');
  }
  await session.close();
  return result;
}

/** `call` timed `runs` times after `prepare` (not timed); the best time in ms and the editor's calls. */
function best(editor, prepare, call) {
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    prepare();
    editor.calls = [];
    const start = process.hrtime.bigint();
    call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const ranges = editor.calls.reduce((sum, made) => sum + made[1].length, 0);
  const types = editor.calls.filter((made) => made[1].length > 0).length;
  return { ms: Math.min(...times), ranges, types };
}

async function measure(binary, lineCount, encoding) {
  const lines = [];
  for (let index = 0; index < lineCount; index += 1) lines.push(`line ${index} café 👍 // TODO fix ABC-${index}`);
  const middle = Math.floor(lineCount / 2);
  const end = lines[middle].length;
  const edits = [
    ['a character typed', { range: { start: { line: middle, character: end }, end: { line: middle, character: end } }, text: 'x' }],
    ['a line broken in two', { range: { start: { line: middle, character: 4 }, end: { line: middle, character: 4 } }, text: '\n' }],
  ];
  const opened = await serverPayloads(binary, lines, encoding);
  const deltas = [];
  for (const [name, change] of edits) deltas.push({ name, ...(await serverPayloads(binary, lines, encoding, change)) });

  fakes.reset({ settings: { 'highlightLs.path': { globalValue: binary } } });
  const context = { extensionPath: temporaryDirectory(), subscriptions: [] };
  await extension.activate(context);
  const editor = fakes.editor(opened.uri, 1, lines);
  fakes.vscode.window.visibleTextEditors = [editor];
  const handler = fakes.clients[0].handlers.get('highlight/publishDecorations');
  const atVersion = (version, text) => {
    editor.document.version = version;
    editor.document.lines = text;
  };
  const whole = best(editor, () => atVersion(1, lines), () => handler(opened.whole));
  const lineOf = (figures) => `${figures.ms.toFixed(2)} ms (${figures.types} type${figures.types === 1 ? '' : 's'} set, ${figures.ranges} ranges)`;
  console.log(`${lineCount} lines, ${encoding}: server ${opened.openMs.toFixed(0)} ms to the whole payload; extension draws it in ${lineOf(whole)}`);
  for (const delta of deltas) {
    const { edit } = delta.delta;
    if (!edit) throw new Error(`${delta.name}: the server sent a whole payload, not a delta`);
    const figures = best(editor, () => {
      // The model of the whole payload, as before the edit; then the document after it.
      fakes.vscode.workspace.onDidCloseTextDocument.fire(editor.document);
      atVersion(1, lines);
      handler(delta.whole);
      atVersion(2, delta.editedLines);
    }, () => {
      if (!handler(delta.delta)) throw new Error(`${delta.name}: the delta was not applied`);
    });
    const count = edit.ranges.length / 4;
    const sent = `lines ${edit.startLine}..<${edit.endLine} for ${edit.startLine}..<${edit.oldEndLine}, ${count} range${count === 1 ? '' : 's'}`;
    console.log(`  delta, ${delta.name} (${sent}): server ${delta.editMs.toFixed(0)} ms; extension applies it in ${lineOf(figures)}`);
  }
  await extension.deactivate();
  for (const subscription of context.subscriptions) subscription.dispose();
}

async function main() {
  const binary = path.resolve(process.argv[2] || '');
  const counts = process.argv.slice(3).map(Number);
  console.log(`best of ${runs} runs each; node ${process.versions.node}`);
  for (const count of counts.length > 0 ? counts : [2000, 10000, 40000]) {
    for (const encoding of ['utf-16', 'utf-8']) await measure(binary, count, encoding);
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
