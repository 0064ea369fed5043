// How long the extension takes to draw a large file's decorations: the real server's payload
// for a document of N lines with a match on every line, through the extension's handler into a
// recording editor (test/fakes.js). Not a test; figures go to BENCHMARKS.md.
//
//   node editors/vscode/bench/large-file.js /path/to/highlight-ls [lines...]
'use strict';

const path = require('node:path');
const fakes = require('../test/fakes');
const { serverSession, temporaryDirectory } = require('../test/helpers');

fakes.install();
const extension = require('../extension');

async function measure(binary, lineCount, encoding) {
  const lines = [];
  for (let index = 0; index < lineCount; index += 1) lines.push(`line ${index} café 👍 // TODO fix ABC-${index}`);
  const session = serverSession(binary);
  await session.request('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions: { decorations: { positionEncoding: encoding } } });
  session.notify('initialized', {});
  const uri = 'file:///bench/large.txt';
  const opened = process.hrtime.bigint();
  session.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'plaintext', version: 1, text: lines.join('\n') } });
  const payload = await session.next('highlight/publishDecorations');
  const answered = process.hrtime.bigint();
  await session.close();

  fakes.reset({ settings: { 'highlightLs.path': { globalValue: binary } } });
  const context = { extensionPath: temporaryDirectory(), subscriptions: [] };
  await extension.activate(context);
  const editor = fakes.editor(uri, 1, lines);
  fakes.vscode.window.visibleTextEditors = [editor];
  const handler = fakes.clients[0].handlers.get('highlight/publishDecorations');
  const times = [];
  for (let run = 0; run < 5; run += 1) {
    editor.calls = [];
    const start = process.hrtime.bigint();
    handler(payload);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const ranges = editor.calls.reduce((sum, call) => sum + call[1].length, 0);
  await extension.deactivate();
  for (const subscription of context.subscriptions) subscription.dispose();
  const server = Number(answered - opened) / 1e6;
  console.log(`${lineCount} lines, ${encoding}: ${ranges} ranges; server ${server.toFixed(0)} ms to the payload; extension draws in ${Math.min(...times).toFixed(1)} ms (best of 5)`);
}

async function main() {
  const binary = path.resolve(process.argv[2] || '');
  const counts = process.argv.slice(3).map(Number);
  for (const count of counts.length > 0 ? counts : [2000, 10000, 40000]) {
    for (const encoding of ['utf-16', 'utf-8']) await measure(binary, count, encoding);
  }
}

main().catch((error) => { console.error(error); process.exit(1); });
