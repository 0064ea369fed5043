// Tests of decorationModel.js, each document's decorations as deltas update them:
//   node --test editors/vscode/test/
// A model built from a whole payload must hold what planDecorations plans; a model updated by
// deltas must equal the model of a fresh whole payload for the same version, on hand-written
// payloads shaped like Tests/SessionTests/Transcripts/decorations-delta.transcript and on seeded
// random edits sent to the real server.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { DocumentDecorations } = require('../decorationModel');
const { planDecorations, styleKey } = require('../decorations');
const { SplitMix64 } = require('./random');
const { realServer, skipWithoutServer } = require('./helpers');
const { deltaSession, randomChange, randomText } = require('./deltaSession');

/** Ranges as plain arrays, so that the model's Ranges can be compared. */
const makeRange = (line, start, end) => [line, start, end];

/** What the model needs of a document with these lines. */
function environment(lines) {
  if (!lines) return { makeRange };
  return {
    makeRange,
    lineText: (line) => (line < lines.length ? lines[line] : undefined),
    lineLength: (line) => (line < lines.length ? lines[line].length : undefined),
  };
}

/** A model's Ranges by slot key, every slot with ranges (what an editor would be given). */
function drawn(model, lines) {
  const result = {};
  for (const index of model.drawOrder()) {
    result[model.slots[index].key] = [...model.rangesOf(index, environment(lines).lineLength)];
  }
  return result;
}

/** planDecorations' plan in the same shape, for comparison. */
function planned(payload, lines) {
  const result = {};
  for (const entry of planDecorations(payload, environment(lines).lineText)) {
    if (entry.kind) {
      const marked = entry.lines.filter((line) => line < lines.length).map((line) => [line, 0, lines[line].length]);
      if (marked.length > 0) result[entry.key] = marked;
    } else if (entry.ranges.length > 0 && Object.keys(entry.options).length > 0) {
      // In line order, as the model keeps them; the order within a type means nothing to VS Code.
      result[entry.key] = entry.ranges.map((range) => [range.line, range.startCharacter, range.endCharacter]).sort((a, b) => a[0] - b[0]);
    }
  }
  return result;
}

const todo = { rule: 'todo', color: '#1a1a1aff', backgroundColor: '#f9a825ff', bold: true, rounded: true };
const fixme = { rule: 'fixme', color: '#ffffffff', backgroundColor: '#d32f2fff', bold: true };
const hack = { rule: 'hack', color: '#ffffffff', backgroundColor: '#ef6c00ff', bold: true };
const note = { rule: 'note', color: '#ffffffff', backgroundColor: '#1976d2ff' };
const bug = {
  rule: 'bug', color: '#ffffffff', backgroundColor: '#d32f2fff',
  gutter: { text: 'B', color: '#d32f2fff' }, overviewRuler: { color: '#d32f2fff', lane: 'right' },
};
const focus = { rule: 'focus', backgroundColor: '#f9a82533', wholeLine: { backgroundColor: '#f9a82533' } };

test('a whole payload: the model holds what planDecorations plans', async (t) => {
  const lines = ['BUG and BUG', 'TODO(ann) FOCUS', 'plain', 'TODO 👍 café'];
  const cases = [
    ['ranges of two styles', { styles: [todo, fixme], ranges: [0, 0, 4, 0, 0, 8, 11, 1, 3, 0, 4, 0] }],
    ['line indicators, one past the end', { styles: [bug, todo, focus], ranges: [0, 0, 3, 0, 0, 8, 11, 0, 1, 10, 15, 2], lines: [0, 0, -1, 1, -1, 2, 9, 0, -1] }],
    ['UTF-8 columns', { positionEncoding: 'utf-8', styles: [todo], ranges: [3, 0, 4, 0, 3, 10, 15, 0] }],
    ['malformed entries', { styles: [todo], ranges: [0, -1, 4, 0, 0, 4, 4, 0, 0, 0, 2, 7, 1, 0, 4, 0, 2], lines: [0, 5, 5, -1, 0, 0] }],
    ['unsorted lines', { styles: [todo, fixme], ranges: [3, 0, 4, 0, 0, 0, 4, 1, 1, 0, 4, 0] }],
    ['a style that draws nothing on its ranges', { styles: [{ rule: 'x' }, todo], ranges: [0, 0, 3, 0, 1, 0, 4, 1] }],
    ['nothing', { styles: [], ranges: [] }],
  ];
  for (const [name, payload] of cases) {
    await t.test(name, () => {
      const model = DocumentDecorations.fromPayload({ textDocument: { uri: 'file:///a', version: 1 }, ...payload }, environment(lines));
      assert.deepEqual(drawn(model, lines), planned(payload, lines));
    });
  }
});

test('a line indicator that came without the document is measured when drawn', () => {
  const model = DocumentDecorations.fromPayload({ styles: [bug], ranges: [], lines: [1, 0, -1, 4, 0, -1] }, environment());
  const lines = ['a', 'BUG here'];
  assert.deepEqual(drawn(model, lines), { [model.slots[1].key]: [[1, 0, 8], [4, 0, 0]] });
});

// The exchanges of decorations-delta.transcript, with the styles the built-in rules send in
// full (the transcript names only the rule of each).
const styleOf = { todo, fixme, hack, note };
const styles = (...rules) => rules.map((rule) => styleOf[rule]);
const ruleOf = (key) => Object.keys(styleOf).find((rule) => styleKey(styleOf[rule]) === key);
const uri = 'file:///w/a.txt';
const transcript = [
  { textDocument: { uri, version: 1 }, resultId: '1', styles: styles('todo', 'fixme'), ranges: [0, 0, 4, 0, 2, 0, 5, 1] },
  { textDocument: { uri, version: 2 }, resultId: '2', previousResultId: '1', styles: styles('todo', 'fixme'), edit: { startLine: 1, endLine: 2, oldEndLine: 2, ranges: [] } },
  { textDocument: { uri, version: 3 }, resultId: '3', previousResultId: '2', styles: styles('todo', 'fixme', 'hack'), edit: { startLine: 1, endLine: 3, oldEndLine: 2, ranges: [1, 0, 4, 2] } },
  {
    textDocument: { uri, version: 4 }, resultId: '4', previousResultId: '3', styles: styles('todo', 'fixme', 'hack', 'note'),
    edit: { startLine: 0, endLine: 5, oldEndLine: 5, ranges: [0, 0, 4, 0, 1, 0, 4, 2, 3, 0, 5, 1, 4, 5, 9, 3] },
  },
  // The transcript's step leaves the table out: the last one holds.
  { textDocument: { uri, version: 5 }, resultId: '5', previousResultId: '4', edit: { startLine: 1, endLine: 2, oldEndLine: 3, ranges: [1, 0, 4, 2] } },
];
// The answer to highlight/decorations at version 5: a table in another order.
const answer = { textDocument: { uri, version: 5 }, resultId: '6', styles: styles('todo', 'hack', 'fixme', 'note'), ranges: [0, 0, 4, 0, 1, 0, 4, 1, 2, 0, 5, 2, 3, 5, 9, 3] };
const afterAnswer = { textDocument: { uri, version: 6 }, resultId: '7', previousResultId: '6', styles: styles('todo', 'hack', 'fixme', 'note'), edit: { startLine: 2, endLine: 3, oldEndLine: 3, ranges: [2, 0, 3, 2] } };

test('the transcript\'s deltas give the model of the whole answer', () => {
  const model = DocumentDecorations.fromPayload(transcript[0], environment());
  const changes = transcript.slice(1).map((payload) => model.applyDelta(payload, environment()));
  const key = (style) => styleKey(style);
  assert.deepEqual(model.snapshot(), DocumentDecorations.fromPayload(answer, environment()).snapshot());
  assert.deepEqual(model.snapshot(), {
    [key(todo)]: [[0, 0, 4]],
    [key(hack)]: [[1, 0, 4]],
    [key(fixme)]: [[2, 0, 5]],
    [key(note)]: [[3, 5, 9]],
  });
  assert.equal(model.resultId, '5');
  assert.equal(model.version, 5);
  // The types each delta replaced, by rule: typing on the plain line touched none (FIXME below
  // stayed on its line); the HACK line added above FIXME touched hack alone (FIXME only moved);
  // the edit spanning lines 0..<5 touched all four; joining two lines touched hack's line only.
  const rules = (indices) => indices.map((index) => ruleOf(model.slots[index].key)).sort();
  assert.deepEqual(changes.map(rules), [[], ['hack'], ['fixme', 'hack', 'note', 'todo'], ['hack']]);
  // The answer becomes the base of the next delta.
  const rebuilt = DocumentDecorations.fromPayload(answer, environment());
  rebuilt.applyDelta(afterAnswer, environment());
  assert.deepEqual(rebuilt.snapshot()[key(fixme)], [[2, 0, 3]]);
});

test('a delta moves what lies after it and replaces only its lines', async (t) => {
  const base = () => DocumentDecorations.fromPayload({
    resultId: '1', styles: [todo, fixme, bug],
    ranges: [0, 0, 4, 0, 2, 0, 4, 0, 5, 0, 5, 1, 9, 0, 3, 2, 12, 0, 4, 0],
    lines: [9, 2, -1],
  }, environment());
  const edit = (startLine, endLine, oldEndLine, ranges = [], lines) => ({ resultId: '2', previousResultId: '1', styles: [todo, fixme, bug], edit: { startLine, endLine, oldEndLine, ranges, lines } });

  await t.test('lines inserted: later entries move, untouched types wait for their moves', () => {
    const model = base();
    const changed = model.applyDelta(edit(3, 6, 4, [4, 1, 5, 1]), environment());
    assert.deepEqual(changed, [model.slotOf.get(model.slots[1].key)]);
    assert.ok(model.slots[0].pending.length > 0, 'todo, untouched, has a pending move');
    const [todoKey, fixmeKey, bugKey, signKey] = model.slots.map((slot) => slot.key);
    assert.deepEqual(model.snapshot(), {
      [todoKey]: [[0, 0, 4], [2, 0, 4], [14, 0, 4]],
      [fixmeKey]: [[4, 1, 5], [7, 0, 5]],
      [bugKey]: [[11, 0, 3]],
      [signKey]: [[11]],
    });
  });

  await t.test('lines removed, then more moves in a row', () => {
    const model = base();
    model.applyDelta(edit(1, 1, 3), environment());
    assert.deepEqual(model.snapshot()[model.slots[0].key], [[0, 0, 4], [10, 0, 4]]);
    model.applyDelta({ ...edit(0, 0, 0), previousResultId: '2', resultId: '3' }, environment());
    for (let step = 0; step < 40; step += 1) model.applyDelta(edit(5, 7, 5), environment());
    // Sixty lines in all were inserted from line 5 on; fixme, at 3, stayed where it was.
    assert.deepEqual(model.snapshot()[model.slots[0].key], [[0, 0, 4], [90, 0, 4]]);
    assert.deepEqual(model.snapshot()[model.slots[1].key], [[3, 0, 5]]);
    assert.deepEqual(model.snapshot()[model.slots[3].key], [[87]]);
  });

  await t.test('a delta on a line of one type changes only that type', () => {
    const model = base();
    assert.deepEqual(model.applyDelta(edit(5, 6, 6, [5, 2, 6, 1]), environment()), [1]);
    assert.deepEqual(model.applyDelta(edit(7, 8, 8), environment()), []);
    assert.deepEqual(model.applyDelta(edit(9, 10, 10, [9, 0, 3, 2], [9, 2, -1]), environment()), [2, 3]);
  });

  await t.test('a delta past the known lines adds at the end', () => {
    const model = base();
    model.applyDelta(edit(20, 22, 20, [21, 0, 4, 0]), environment());
    assert.deepEqual(model.snapshot()[model.slots[0].key], [[0, 0, 4], [2, 0, 4], [12, 0, 4], [21, 0, 4]]);
  });

  await t.test('a malformed delta leaves the model as it was', () => {
    for (const bad of [{ startLine: 3, endLine: 2, oldEndLine: 3 }, { startLine: -1, endLine: 0, oldEndLine: 0 }, { startLine: 0, endLine: 1, oldEndLine: 1, ranges: 'x' }, undefined]) {
      const model = base();
      const before = model.snapshot();
      assert.equal(model.applyDelta({ resultId: '2', styles: [todo], edit: bad }, environment()), undefined);
      assert.deepEqual(model.snapshot(), before);
      assert.equal(model.resultId, '1');
    }
  });

  await t.test('a large edit (more entries than one splice takes) replaces them all', () => {
    const model = base();
    const ranges = [];
    for (let line = 0; line < 20000; line += 1) ranges.push(line, 0, 4, 0);
    model.applyDelta(edit(0, 20000, 3, ranges), environment());
    // Old lines 0..<3 (todo on 0 and 2) became 20,000 lines with a todo each; 12 moved to 20,009.
    const todos = model.snapshot()[model.slots[0].key];
    assert.equal(todos.length, 20001);
    assert.deepEqual(todos.slice(0, 2), [[0, 0, 4], [1, 0, 4]]);
    assert.deepEqual(todos.slice(-2), [[19999, 0, 4], [20009, 0, 4]]);
    assert.deepEqual(model.snapshot()[model.slots[1].key], [[20002, 0, 5]]);
  });
});

test('seeded random edits sent to the real server: the deltas give the model of the whole answer', { skip: skipWithoutServer() }, async (t) => {
  const seed = Number(process.env.HIGHLIGHT_LS_SEED || 20261127);
  for (const encoding of ['utf-16', 'utf-8']) {
    await t.test(`positions in ${encoding} (seed ${seed})`, async () => {
      const random = new SplitMix64(seed);
      const session = await deltaSession(realServer(), { encoding });
      try {
        const first = await session.open(randomText(60, random));
        assert.ok(first.payload.resultId !== undefined && first.payload.edit === undefined, 'the first payload is whole');
        let model = DocumentDecorations.fromPayload(first.payload, environment(first.lines));
        let deltas = 0;
        for (let step = 0; step < 120; step += 1) {
          const context = `seed ${seed}, step ${step}`;
          // Now and then two changes in one notification, as an editor sends a multi-cursor edit.
          const changes = [randomChange(session.text, random)];
          for (const received of await session.edit(changes)) {
            const { payload, lines } = received;
            if (payload.edit === undefined) {
              model = DocumentDecorations.fromPayload(payload, environment(lines));
              continue;
            }
            assert.equal(payload.previousResultId, model.resultId, context);
            assert.ok(model.applyDelta(payload, environment(lines)), context);
            deltas += 1;
          }
          if (step % 10 === 9 || step === 119) {
            const whole = await session.whole();
            const fresh = DocumentDecorations.fromPayload(whole.payload, environment(whole.lines));
            assert.deepEqual(model.snapshot(), fresh.snapshot(), context);
            assert.deepEqual(drawn(model, whole.lines), drawn(fresh, whole.lines), context);
            // Later deltas build on the answer.
            model.resultId = whole.payload.resultId;
          }
        }
        assert.ok(deltas > 100, `most edits came as deltas (${deltas})`);
      } finally {
        assert.equal(await session.close(), 0);
      }
    });
  }
});
