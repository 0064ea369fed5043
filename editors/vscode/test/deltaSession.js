// Drives the real server through a document's edits for the delta tests: a text held here in
// step with the server's, random LSP edits on it (seeded, so a failure replays), and every
// `highlight/publishDecorations` they bring, with the text of the version it describes.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { serverSession, temporaryDirectory } = require('./helpers');

/**
 * A workspace folder whose `.highlights.json` adds styles with line indicators (a gutter sign, a whole
 * line) to the built-in rules, so deltas carry `lines` as well as `ranges`.
 */
function lineIndicatorsFolder() {
  const folder = temporaryDirectory();
  fs.writeFileSync(path.join(folder, '.highlights.json'), JSON.stringify({
    styles: {
      bug: { color: '#fff', backgroundColor: '#d32f2f', gutter: { text: 'B' }, overviewRuler: { lane: 'right' } },
      focus: { backgroundColor: '#f9a82533', wholeLine: true },
    },
    rules: [
      { name: 'bug', words: ['BUG'] },
      { name: 'focus', words: ['FOCUS'] },
      { name: 'ticket', regex: '[A-Z]{2,5}-[0-9]+', style: { color: '#3b82f6', underline: true, gutter: true } },
    ],
  }));
  return folder;
}

/** The UTF-16 offset in `text` of an LSP position (line, UTF-16 character). */
function offsetOf(text, position) {
  let offset = 0;
  for (let line = 0; line < position.line; line += 1) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const end = text.indexOf('\n', offset);
  return Math.min(offset + position.character, end < 0 ? text.length : end);
}

/** `text` with one LSP content change applied. */
function applyChange(text, change) {
  if (!change.range) return change.text;
  return text.slice(0, offsetOf(text, change.range.start)) + change.text + text.slice(offsetOf(text, change.range.end));
}

const pieces = ['TODO', 'FIXME', 'BUG', 'FOCUS', 'HACK', 'NOTE', 'ABC-12', 'XY-7', 'plain', ' ', 'x', 'café', '👍', 'TODO: fix', 'BUGS'];

/** A random LSP position in `text`, never inside a surrogate pair. */
function randomPosition(text, random) {
  const lines = text.split('\n');
  const line = random.next() % lines.length;
  let character = random.next() % (lines[line].length + 1);
  const code = lines[line].charCodeAt(character - 1);
  if (character > 0 && code >= 0xd800 && code <= 0xdbff) character -= 1;
  return { line, character };
}

function comparePositions(a, b) {
  return a.line - b.line || a.character - b.character;
}

/**
 * A random edit of `text`: typing a word, breaking a line, pasting lines, deleting within a line
 * or across lines, or pasting a span over itself (the text is unchanged, yet the editor's
 * decorations on it were disturbed).
 */
function randomChange(text, random) {
  const piece = () => pieces[random.next() % pieces.length];
  const kind = random.next() % 6;
  const at = randomPosition(text, random);
  if (kind === 0) return { range: { start: at, end: at }, text: piece() };
  if (kind === 1) return { range: { start: at, end: at }, text: random.next() % 2 === 0 ? '\n' : ` ${piece()}\n${piece()} ` };
  if (kind === 2) return { range: { start: at, end: at }, text: `${piece()} ${piece()}\nplain\n${piece()}\n` };
  const other = randomPosition(text, random);
  const [start, end] = comparePositions(at, other) <= 0 ? [at, other] : [other, at];
  if (kind === 3) {
    const sameLine = { line: start.line, character: start.line === end.line ? end.character : start.character };
    return { range: { start, end: sameLine }, text: '' };
  }
  if (kind === 4) return { range: { start, end: end.line - start.line > 6 ? { line: start.line + 6, character: 0 } : end }, text: '' };
  const startOffset = offsetOf(text, start);
  let endOffset = offsetOf(text, end.line === start.line ? end : { line: start.line, character: start.character + 8 });
  const code = text.charCodeAt(endOffset - 1);
  if (endOffset > startOffset && code >= 0xd800 && code <= 0xdbff) endOffset -= 1;
  return { range: { start, end: end.line === start.line ? end : { line: start.line, character: start.character + (endOffset - startOffset) } }, text: text.slice(startOffset, endOffset) };
}

/** A first text of `count` lines, some plain, some with words of the rules. */
function randomText(count, random) {
  const lines = [];
  for (let index = 0; index < count; index += 1) {
    const words = [];
    for (let word = random.next() % 4; word > 0; word -= 1) words.push(pieces[random.next() % pieces.length]);
    lines.push(words.join(' '));
  }
  return lines.join('\n');
}

/**
 * A session editing one document: `open(text)` resolves to the first payload; `edit(changes)`
 * sends one didChange and resolves to every payload up to the one for its version, each as
 * `{ payload, lines }` with the document's lines at that payload's version; `whole()` asks for
 * the whole set.
 */
async function deltaSession(binary, { encoding = 'utf-16', delta = true, folder = lineIndicatorsFolder() } = {}) {
  const session = serverSession(binary);
  const rootUri = `file://${folder}`;
  await session.request('initialize', {
    processId: null, rootUri, capabilities: {},
    initializationOptions: { decorations: { positionEncoding: encoding, delta } },
  });
  session.notify('initialized', {});
  const uri = `${rootUri}/edited.txt`;
  const texts = new Map();
  let version = 1;
  let text = '';
  const linesOf = (payload) => texts.get(payload.textDocument.version).split('\n');
  return {
    uri,
    get version() { return version; },
    get text() { return text; },
    async open(first) {
      text = first;
      texts.set(version, text);
      session.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version, text } });
      const payload = await session.next('highlight/publishDecorations');
      return { payload, lines: linesOf(payload) };
    },
    async edit(changes) {
      version += 1;
      for (const change of changes) text = applyChange(text, change);
      texts.set(version, text);
      session.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
      const received = [];
      for (;;) {
        const payload = await session.next('highlight/publishDecorations');
        received.push({ payload, lines: linesOf(payload) });
        if (payload.textDocument.version === version) return received;
      }
    },
    async whole() {
      const payload = await session.request('highlight/decorations', { textDocument: { uri } });
      return { payload, lines: linesOf(payload) };
    },
    close: () => session.close(),
  };
}

module.exports = { deltaSession, lineIndicatorsFolder, applyChange, randomChange, randomText };
