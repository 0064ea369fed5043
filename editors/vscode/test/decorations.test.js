// Tests of the VS Code extension's pure parts, with node's own test runner:
//   node --test editors/vscode/test/
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { renderOptions, styleKey, utf16Column, planDecorations, isStale } = require('../decorations');
const { serverSection } = require('../settings');

// The built-in `todo` style as the server sends it.
const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const ticket = { rule: 'ticket', color: '#3b82f6ff', underline: true };

test('renderOptions maps every style key', async (t) => {
  const cases = [
    ['empty', { rule: 'x' }, {}],
    ['todo', todo, {
      color: '#1a1a1aff', backgroundColor: '#f9a825ff', borderRadius: '3px', fontWeight: 'bold',
      overviewRulerColor: '#f9a825ff',
    }],
    ['ticket', ticket, { color: '#3b82f6ff', textDecoration: 'underline', overviewRulerColor: '#3b82f6ff' }],
    ['border', { rule: 'b', borderColor: '#00ff00ff', rounded: true }, {
      border: '1px solid #00ff00ff', borderColor: '#00ff00ff', borderRadius: '3px', overviewRulerColor: '#00ff00ff',
    }],
    ['underline and strikethrough', { rule: 'u', underline: true, strikethrough: true, italic: true }, {
      textDecoration: 'underline line-through', fontStyle: 'italic',
    }],
    ['deprecated', { rule: 'deprecated', color: '#9e9e9eff', strikethrough: true }, {
      color: '#9e9e9eff', textDecoration: 'line-through', overviewRulerColor: '#9e9e9eff',
    }],
    ['bad colours and non-true flags are ignored', { rule: 'bad', color: 'red', backgroundColor: '#12', bold: 'yes', italic: false }, {}],
    ['not an object', null, {}],
  ];
  for (const [name, style, expected] of cases) {
    await t.test(name, () => assert.deepEqual(renderOptions(style), expected));
  }
});

test('styleKey is equal exactly for equal styles', () => {
  assert.equal(styleKey(todo), styleKey({ rounded: true, bold: true, backgroundColor: '#f9a825ff', color: '#1a1a1aff', rule: 'todo' }));
  assert.notEqual(styleKey(todo), styleKey({ ...todo, bold: false }));
  assert.notEqual(styleKey(todo), styleKey({ ...todo, rule: 'other' }));
});

test('utf16Column converts from each encoding, clamped to the line', async (t) => {
  // T O D O ␠ 👍 ␠ c a f é   (👍 is 4 UTF-8 bytes, 2 UTF-16 units, 1 scalar; é is 2, 1, 1)
  const line = 'TODO 👍 café';
  const cases = [
    ['utf-16 unchanged', 7, 'utf-16', 7],
    ['utf-32 before the emoji', 5, 'utf-32', 5],
    ['utf-32 after the emoji', 6, 'utf-32', 7],
    ['utf-32 end', 11, 'utf-32', 12],
    ['utf-8 after the emoji', 9, 'utf-8', 7],
    ['utf-8 café', 10, 'utf-8', 8],
    ['utf-8 end', 16, 'utf-8', 12],
    ['utf-8 past the end', 99, 'utf-8', 12],
    ['utf-32 past the end', 99, 'utf-32', 12],
  ];
  for (const [name, column, encoding, expected] of cases) {
    await t.test(name, () => assert.equal(utf16Column(line, column, encoding), expected));
  }
});

test('planDecorations groups flat ranges by style', () => {
  const payload = {
    textDocument: { uri: 'file:///a.txt', version: 3 },
    positionEncoding: 'utf-16',
    styles: [todo, ticket],
    ranges: [0, 0, 4, 0, 0, 8, 15, 1, 2, 3, 7, 0],
  };
  const plan = planDecorations(payload);
  assert.equal(plan.length, 2);
  assert.equal(plan[0].key, styleKey(todo));
  assert.deepEqual(plan[0].options, renderOptions(todo));
  assert.deepEqual(plan[0].ranges, [
    { line: 0, startCharacter: 0, endCharacter: 4 },
    { line: 2, startCharacter: 3, endCharacter: 7 },
  ]);
  assert.deepEqual(plan[1].ranges, [{ line: 0, startCharacter: 8, endCharacter: 15 }]);
});

test('planDecorations converts UTF-8 and UTF-32 columns with the line text', () => {
  const lines = ['TODO 👍 ABC-123 café'];
  const utf8 = planDecorations({ positionEncoding: 'utf-8', styles: [ticket], ranges: [0, 10, 17, 0] }, (line) => lines[line]);
  assert.deepEqual(utf8[0].ranges, [{ line: 0, startCharacter: 8, endCharacter: 15 }]);
  const utf32 = planDecorations({ positionEncoding: 'utf-32', styles: [ticket], ranges: [0, 7, 14, 0] }, (line) => lines[line]);
  assert.deepEqual(utf32[0].ranges, [{ line: 0, startCharacter: 8, endCharacter: 15 }]);
  const missingLine = planDecorations({ positionEncoding: 'utf-8', styles: [ticket], ranges: [5, 0, 1, 0] }, (line) => lines[line]);
  assert.deepEqual(missingLine[0].ranges, []);
});

test('planDecorations skips malformed ranges', async (t) => {
  const cases = [
    ['unknown style', [0, 0, 4, 1]],
    ['negative', [0, -1, 4, 0]],
    ['not an integer', [0, 0.5, 4, 0]],
    ['a string', [0, '0', 4, 0]],
    ['empty', [0, 4, 4, 0]],
    ['reversed', [0, 4, 2, 0]],
    ['a trailing partial range', [0, 0]],
  ];
  for (const [name, ranges] of cases) {
    await t.test(name, () => {
      const plan = planDecorations({ styles: [todo], ranges });
      assert.deepEqual(plan[0].ranges, []);
    });
  }
});

test('planDecorations: empty ranges clear, a broken payload gives nothing', () => {
  assert.deepEqual(planDecorations({ styles: [todo], ranges: [] })[0].ranges, []);
  assert.deepEqual(planDecorations({ styles: [], ranges: [] }), []);
  assert.deepEqual(planDecorations(null), []);
  assert.deepEqual(planDecorations({ styles: 'x', ranges: {} }), []);
});

test('isStale compares the payload version with the document', () => {
  const payload = { textDocument: { uri: 'file:///a', version: 4 } };
  assert.equal(isStale(payload, 5), true);
  assert.equal(isStale(payload, 4), false);
  assert.equal(isStale(payload, 3), false);
  assert.equal(isStale({ textDocument: { uri: 'file:///a' } }, 5), false);
});

test('serverSection sends only the keys the user set, the most specific scope winning', () => {
  const inspected = {
    rules: { key: 'highlight.rules', defaultValue: [], globalValue: [{ name: 'a', words: ['A'] }], workspaceFolderValue: [{ name: 'b', words: ['B'] }] },
    styles: { key: 'highlight.styles', defaultValue: {} },
    defaults: { key: 'highlight.defaults', defaultValue: true, workspaceValue: false },
    path: { key: 'highlight.path', defaultValue: 'highlight-ls', globalValue: '/opt/bin/highlight-ls' },
  };
  assert.deepEqual(serverSection((key) => inspected[key]), { rules: [{ name: 'b', words: ['B'] }], defaults: false });
  assert.deepEqual(serverSection(() => undefined), {});
});

test('package.json is valid and declares what the extension uses', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  assert.equal(manifest.main, './extension.js');
  assert.deepEqual(Object.keys(manifest.dependencies), ['vscode-languageclient']);
  const properties = manifest.contributes.configuration.properties;
  for (const key of ['highlight.path', 'highlight.rules', 'highlight.styles', 'highlight.defaults', 'highlight.decorations']) {
    assert.ok(properties[key], `setting ${key}`);
  }
  const builtIn = ['fixme', 'todo', 'hack', 'note', 'review', 'deprecated', 'highlight'];
  assert.deepEqual(manifest.contributes.semanticTokenTypes.map((type) => type.id), builtIn);
  const scopes = manifest.contributes.semanticTokenScopes[0].scopes;
  for (const id of builtIn) assert.ok(Array.isArray(scopes[id]) && scopes[id].length > 0, `scope fallback for ${id}`);
  const commands = manifest.contributes.commands.map((command) => command.command).sort();
  const extension = fs.readFileSync(path.join(__dirname, '..', 'extension.js'), 'utf8');
  for (const command of commands) assert.ok(extension.includes(`'${command}'`), `command ${command} is registered`);
});
