// Tests of the VS Code extension's pure parts, with node's own test runner:
//   node --test editors/vscode/test/
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const {
  renderOptions, styleKey, utf16Column, planDecorations, isStale, parseColor, contrast, composite, themes,
  gutterSvg, gutterIconUri, lineIndicatorOptions,
} = require('../decorations');
const { SplitMix64 } = require('./random');

// The built-in `todo` style as the server sends it.
const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const ticket = { rule: 'ticket', color: '#3b82f6ff', underline: true };

test('renderOptions maps every style key', async (t) => {
  const cases = [
    ['empty', { rule: 'x' }, {}],
    ['todo (text and background: no variants)', todo, {
      color: '#1a1a1aff', backgroundColor: '#f9a825ff', borderRadius: '3px', fontWeight: 'bold',
    }],
    ['ticket (blue text, darker on light themes)', ticket, {
      color: '#3b82f6ff', textDecoration: 'underline', light: { color: '#3473dbff' },
    }],
    ['border (green, darker on light themes)', { rule: 'b', borderColor: '#00ff00ff', rounded: true }, {
      border: '1px solid #00ff00ff', borderColor: '#00ff00ff', borderRadius: '3px',
      light: { borderColor: '#00ad00ff', border: '1px solid #00ad00ff' },
    }],
    ['underline and strikethrough', { rule: 'u', underline: true, strikethrough: true, italic: true }, {
      textDecoration: 'underline line-through', fontStyle: 'italic',
    }],
    ['deprecated (grey, the 4.5:1 grey on light themes)', { rule: 'deprecated', color: '#9e9e9eff', strikethrough: true }, {
      color: '#9e9e9eff', textDecoration: 'line-through', light: { color: '#767676ff' },
    }],
    ['dark text (lighter on dark themes)', { rule: 'd', color: '#000080ff' }, {
      color: '#000080ff', dark: { color: '#7f7fbfff' },
    }],
    ['a light background alone (dark text on dark themes)', { rule: 'y', backgroundColor: '#ffff00ff' }, {
      backgroundColor: '#ffff00ff', dark: { color: '#1a1a1aff' },
    }],
    ['a faint background alone needs no variant', { rule: 'f', backgroundColor: '#1976d240' }, {
      backgroundColor: '#1976d240',
    }],
    ['a transparent colour needs no variant', { rule: 't', color: '#ffffff00' }, { color: '#ffffff00' }],
    ['bad colours and non-true flags are ignored', { rule: 'bad', color: 'red', backgroundColor: '#12', bold: 'yes', italic: false }, {}],
    ['not an object', null, {}],
  ];
  for (const [name, style, expected] of cases) {
    await t.test(name, () => assert.deepEqual(renderOptions(style), expected));
  }
});

test('contrast: WCAG 2 figures', () => {
  const white = [255, 255, 255];
  assert.equal(contrast([0, 0, 0], white).toFixed(2), '21.00');
  assert.equal(contrast(white, white), 1);
  assert.equal(contrast([0x76, 0x76, 0x76], white).toFixed(2), '4.54');
  assert.equal(contrast([0x9e, 0x9e, 0x9e], white).toFixed(2), '2.68');
  assert.deepEqual(composite([0, 0, 0, 0.5], white), [127.5, 127.5, 127.5]);
  assert.deepEqual(parseColor('#ff800080'), [255, 128, 0, 128 / 255]);
  assert.deepEqual(parseColor('#ff8000'), [255, 128, 0, 1]);
  assert.equal(parseColor('#f80'), undefined);
});

test('theme variants reach their contrast on random styles, and change only what is too faint', () => {
  const seed = Number(process.env.HIGHLIGHT_LS_SEED || 20261125);
  const random = new SplitMix64(seed);
  const hex = () => `#${[0, 1, 2, 3].map((index) => (index === 3 && random.next() % 2 === 0 ? 255 : random.next() % 256).toString(16).padStart(2, '0')).join('')}`;
  for (let round = 0; round < 2000; round += 1) {
    const style = {};
    if (random.next() % 2 === 0) style.color = hex();
    if (random.next() % 3 === 0) style.backgroundColor = hex();
    if (random.next() % 3 === 0) style.borderColor = hex();
    const options = renderOptions(style);
    const context = `seed ${seed}, round ${round}: ${JSON.stringify(style)} -> ${JSON.stringify(options)}`;
    for (const theme of [themes.light, themes.dark]) {
      const variant = options[theme.name];
      const seen = (value) => composite(parseColor(value), theme.background);
      if (style.backgroundColor) {
        assert.ok(!variant || (!variant.borderColor && Object.keys(variant).length === 1), context);
        if (!style.color && variant) {
          assert.ok(contrast(parseColor(variant.color), seen(style.backgroundColor)) >= contrast(theme.foreground, seen(style.backgroundColor)), context);
        }
        continue;
      }
      for (const [key, target] of [['color', 4.5], ['borderColor', 3]]) {
        const original = style[key];
        if (!original) { assert.ok(!variant || !(key in variant), context); continue; }
        const alpha = parseColor(original)[3];
        const enough = contrast(seen(original), theme.background) >= target;
        if (enough || alpha === 0) { assert.ok(!variant || !(key in variant), context); continue; }
        assert.ok(variant && variant[key], context);
        // Opaque colours always reach the target; translucent ones get the strongest mix.
        if (alpha === 1) assert.ok(contrast(seen(variant[key]), theme.background) >= target, context);
        assert.equal(parseColor(variant[key])[3], alpha, `alpha kept: ${context}`);
      }
    }
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

// Line indicators, as the server sends them (colours resolved).
const bug = {
  rule: 'bug', color: '#ffffffff', backgroundColor: '#d32f2fff',
  gutter: { text: 'B', color: '#d32f2fff' }, overviewRuler: { color: '#d32f2fff', lane: 'right' },
};
const focus = { rule: 'focus', backgroundColor: '#f9a82533', wholeLine: { backgroundColor: '#f9a82533' } };
const owned = { rule: 'owned', color: '#1976d2ff', gutter: { color: '#1976d2ff' }, overviewRuler: { color: '#1976d2ff', lane: 'center' } };

test('renderOptions draws the ruler mark on the ranges and leaves signs and whole lines to their own types', async (t) => {
  const cases = [
    ['right lane', bug, { ...renderOptions({ rule: 'bug', color: '#ffffffff', backgroundColor: '#d32f2fff' }), overviewRulerColor: '#d32f2fff', overviewRulerLane: 'Right' }],
    ['centre lane, no sign', owned, { ...renderOptions({ rule: 'owned', color: '#1976d2ff' }), overviewRulerColor: '#1976d2ff', overviewRulerLane: 'Center' }],
    ['left lane', { overviewRuler: { color: '#000000ff', lane: 'left' } }, { overviewRulerColor: '#000000ff', overviewRulerLane: 'Left' }],
    ['full width', { overviewRuler: { color: '#000000ff', lane: 'full' } }, { overviewRulerColor: '#000000ff', overviewRulerLane: 'Full' }],
    ['an unknown lane is the centre', { overviewRuler: { color: '#000000ff', lane: 'up' } }, { overviewRulerColor: '#000000ff', overviewRulerLane: 'Center' }],
    ['a ruler mark without a valid colour', { overviewRuler: { color: 'red', lane: 'left' } }, {}],
    ['no whole line on the ranges', focus, { backgroundColor: '#f9a82533' }],
  ];
  for (const [name, style, expected] of cases) {
    await t.test(name, () => assert.deepEqual(renderOptions(style), expected));
  }
});

test('gutterSvg draws the sign text in its colour, or a dot', async (t) => {
  const cases = [
    ['one character', { text: 'B', color: '#d32f2fff' },
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><text x="8" y="12.5" fill="#d32f2f" font-family="monospace" font-weight="bold" font-size="13" text-anchor="middle">B</text></svg>'],
    ['two characters are smaller', { text: 'T!', color: '#000000ff' },
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><text x="8" y="12.5" fill="#000000" font-family="monospace" font-weight="bold" font-size="9" text-anchor="middle">T!</text></svg>'],
    ['XML characters are escaped', { text: '<&', color: '#000000ff' },
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><text x="8" y="12.5" fill="#000000" font-family="monospace" font-weight="bold" font-size="9" text-anchor="middle">&#60;&#38;</text></svg>'],
    ['no text: a dot; alpha becomes opacity', { color: '#1976d280' },
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><circle cx="8" cy="8" r="4" fill="#1976d2" fill-opacity="0.502"/></svg>'],
    ['an emoji is one character of the icon', { text: '🐛', color: '#2e7d32ff' },
      '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><text x="8" y="12.5" fill="#2e7d32" font-family="monospace" font-weight="bold" font-size="13" text-anchor="middle">🐛</text></svg>'],
  ];
  for (const [name, sign, expected] of cases) {
    await t.test(name, () => {
      assert.equal(gutterSvg(sign), expected);
      const uri = gutterIconUri(sign);
      assert.ok(uri.startsWith('data:image/svg+xml;base64,'));
      assert.equal(Buffer.from(uri.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8'), expected);
    });
  }
});

test('lineIndicatorOptions maps each kind of mark', async (t) => {
  const cases = [
    ['gutter', 'gutter', bug, { gutterIconPath: gutterIconUri(bug.gutter), gutterIconSize: 'contain' }],
    ['whole line', 'wholeLine', focus, { isWholeLine: true, backgroundColor: '#f9a82533' }],
    ['a ruler mark is not a line indicator', 'overviewRuler', bug, undefined],
    ['no mark of that kind', 'wholeLine', bug, undefined],
    ['a mark without a valid colour', 'gutter', { gutter: { text: 'x', color: 'red' } }, undefined],
    ['a whole line without a colour', 'wholeLine', { wholeLine: true }, undefined],
    ['not an object', 'gutter', null, undefined],
  ];
  for (const [name, kind, style, expected] of cases) {
    await t.test(name, () => assert.deepEqual(lineIndicatorOptions(kind, style), expected));
  }
});

test('planDecorations: line indicators get one entry per kind and look, with their lines', () => {
  // The payload of decorations-line-indicators.transcript, first step, in short.
  const ownedGroup = { ...owned, rule: 'owned.owner', bold: true, gutter: { text: '@', color: '#1976d2ff' } };
  const plan = planDecorations({
    styles: [bug, owned, ownedGroup, focus],
    ranges: [0, 0, 3, 0, 0, 8, 11, 0, 1, 0, 5, 1, 1, 5, 8, 2, 1, 8, 9, 1, 1, 10, 15, 3, 5, 0, 3, 0],
    lines: [0, 0, -1, 1, 1, 3, 5, 0, -1],
  });
  assert.deepEqual(plan.slice(0, 4).map((entry) => entry.ranges.length), [3, 2, 1, 1]);
  assert.deepEqual(plan.slice(0, 4).map((entry) => entry.options.overviewRulerLane), ['Right', 'Center', 'Center', undefined]);
  assert.deepEqual(plan.slice(4).map((entry) => [entry.kind, entry.lines, entry.options]), [
    ['gutter', [0, 5], lineIndicatorOptions('gutter', bug)],
    ['gutter', [1], lineIndicatorOptions('gutter', owned)],
    ['wholeLine', [1], lineIndicatorOptions('wholeLine', focus)],
  ]);
  // Equal looks share an entry, whatever style they came with.
  const shared = planDecorations({ styles: [owned, { ...owned, rule: 'other' }], ranges: [], lines: [0, 0, -1, 2, 1, -1] });
  assert.deepEqual(shared.slice(2).map((entry) => [entry.kind, entry.lines]), [['gutter', [0, 2]]]);
});

test('planDecorations skips malformed line entries', async (t) => {
  const cases = [
    ['a style without that mark', [0, -1, 0]],
    ['an unknown style', [0, 5, 5]],
    ['a negative line', [-1, 0, -1]],
    ['not integers', [0, '0', 0.5]],
    ['a trailing partial entry', [0, 0]],
  ];
  for (const [name, lines] of cases) {
    await t.test(name, () => {
      const plan = planDecorations({ styles: [bug], ranges: [], lines });
      assert.deepEqual(plan.slice(1), []);
    });
  }
  await t.test('no lines', () => assert.deepEqual(planDecorations({ styles: [bug], ranges: [] }).length, 1));
});
