// The decorations of one document as the extension keeps them between payloads, without
// `vscode`, so that node's own test runner can check them.
//
// A server that sends deltas (`initializationOptions.decorations.delta`, docs/PROTOCOL.md,
// "Decorations that follow edits") sends the whole document once and then, after an edit, only
// the lines that changed: lines startLine..<endLine of the new version replace lines
// startLine..<oldEndLine of the previous payload, and every later line moves by
// endLine - oldEndLine. VS Code's `setDecorations` takes every range of a decoration type at once,
// so the extension has to keep each type's ranges itself and hand the whole list over when it
// changes. This module keeps them, one `Slot` per decoration type, as sorted parallel arrays
// (line, start, end, and the `vscode.Range` made from them), so that a delta costs:
//   - for a type with ranges on the replaced lines (old or new): a binary search, a splice, and
//     when lines were added or removed a pass over its ranges after the edit, which it needs
//     anyway because `setDecorations` is then given all of them;
//   - for any other type: a binary search and a note that its ranges from some index on moved
//     (`pending`), applied only when the type's ranges are next needed. VS Code moved those
//     decorations with the text itself, so such a type needs no `setDecorations` call at all.
// Nothing outside the replaced lines is parsed, converted or rebuilt.
'use strict';

const { renderOptions, styleKey, lineIndicatorKinds, lineIndicatorOptions, utf16Span } = require('./decorations');

function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

// Spreading more items than this into `Array.prototype.splice` risks the engine's limit on
// arguments, so larger insertions build a new array instead.
const spliceLimit = 8192;

/** `array` with `deleteCount` items from `start` replaced by `items` (in place when small). */
function replaced(array, start, deleteCount, items) {
  if (items.length <= spliceLimit) {
    array.splice(start, deleteCount, ...items);
    return array;
  }
  return array.slice(0, start).concat(items, array.slice(start + deleteCount));
}

// When more distinct shifts than this wait on one type, they are applied, so that finding a
// line in it stays a plain binary search with a short correction.
const pendingLimit = 32;

/**
 * One decoration type of a document: its `key` (decoration types are shared between documents
 * by key), `kind` (undefined for ranges, else a line indicator kind, `gutter` or `wholeLine`), its
 * `options` (as `planDecorations` gives them), and its ranges in line order.
 */
class Slot {
  constructor(key, kind, options) {
    this.key = key;
    this.kind = kind;
    this.options = options;
    /** Each range's line, not counting `pending`. */
    this.lines = [];
    this.starts = [];
    this.ends = [];
    /**
     * The `vscode.Range` of each entry, or undefined for a line indicator whose line length was not
     * known when it arrived (no document was at hand); built when the ranges are next asked for.
     */
    this.ranges = [];
    /** Moves not applied yet: every entry from `index` on is `by` lines further down. */
    this.pending = [];
    /** How many entries of `ranges` are undefined. */
    this.unbuilt = 0;
  }

  get size() {
    return this.lines.length;
  }

  /** The line of entry `index`, pending moves included. */
  lineAt(index) {
    let line = this.lines[index];
    for (const shift of this.pending) if (index >= shift.index) line += shift.by;
    return line;
  }

  /** The first index whose line is `line` or later. */
  lowerBound(line) {
    let low = 0;
    let high = this.lines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.lineAt(middle) < line) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Notes that every entry from `index` on moved by `by` lines, to be applied later. */
  addShift(index, by, makeRange) {
    const same = this.pending.find((shift) => shift.index === index);
    if (same) same.by += by;
    else this.pending.push({ index, by });
    this.pending = this.pending.filter((shift) => shift.by !== 0);
    if (this.pending.length > pendingLimit) this.flush(makeRange);
  }

  /** Applies the pending moves: one pass over the entries after the first of them. */
  flush(makeRange) {
    if (this.pending.length === 0) return;
    // Moves of untouched entries commute (each adds to a suffix), so their order does not matter.
    const shifts = this.pending.sort((a, b) => a.index - b.index);
    this.pending = [];
    let offset = 0;
    let next = 0;
    for (let index = shifts[0].index; index < this.lines.length; index += 1) {
      while (next < shifts.length && shifts[next].index <= index) {
        offset += shifts[next].by;
        next += 1;
      }
      if (offset !== 0) this.move(index, offset, makeRange);
    }
  }

  /** Moves entry `index` by `by` lines; its Range is made anew (a Range cannot change). */
  move(index, by, makeRange) {
    const line = this.lines[index] + by;
    this.lines[index] = line;
    if (this.ranges[index] !== undefined) this.ranges[index] = makeRange(line, this.starts[index], this.ends[index]);
  }

  /** Makes the Ranges of line indicators that arrived without a line length. */
  build(makeRange, lineLength) {
    if (this.unbuilt === 0) return;
    for (let index = 0; index < this.ranges.length; index += 1) {
      if (this.ranges[index] !== undefined) continue;
      const length = lineLength ? lineLength(this.lines[index]) : undefined;
      // A line past the document's end gets an empty range at its start, which VS Code clamps.
      this.ends[index] = length === undefined ? 0 : length;
      this.ranges[index] = makeRange(this.lines[index], 0, this.ends[index]);
    }
    this.unbuilt = 0;
  }

  /** Replaces the entries `start..<end` with `fresh` (parallel arrays of the same shape). */
  splice(start, end, fresh) {
    this.lines = replaced(this.lines, start, end - start, fresh.lines);
    this.starts = replaced(this.starts, start, end - start, fresh.starts);
    this.ends = replaced(this.ends, start, end - start, fresh.ends);
    this.ranges = replaced(this.ranges, start, end - start, fresh.ranges);
  }
}

/** Empty parallel arrays for the entries of one slot. */
function newEntries() {
  return { lines: [], starts: [], ends: [], ranges: [], unbuilt: 0 };
}

/** Sorts one slot's entries by line (stable), for payloads that did not send them in order. */
function sortEntries(entries) {
  const { lines } = entries;
  let sorted = true;
  for (let index = 1; index < lines.length && sorted; index += 1) sorted = lines[index - 1] <= lines[index];
  if (sorted) return entries;
  const order = lines.map((_, index) => index).sort((a, b) => lines[a] - lines[b] || a - b);
  const result = newEntries();
  for (const key of ['lines', 'starts', 'ends', 'ranges']) result[key] = order.map((index) => entries[key][index]);
  result.unbuilt = entries.unbuilt;
  return result;
}

/**
 * The decorations of one document: `slots` (one per decoration type, in the order first seen),
 * `resultId` and `version` of the last payload applied.
 *
 * `environment` gives `makeRange(line, start, end)` (a `vscode.Range` in the extension), and
 * for the document at the payload's version, when one is at hand, `lineText(line)` (to convert
 * UTF-8 or UTF-32 columns; undefined past the end) and `lineLength(line)` in UTF-16 code units
 * (line indicators cover their line's text; undefined past the end).
 */
class DocumentDecorations {
  constructor(makeRange) {
    this.makeRange = makeRange;
    this.slots = [];
    /** Slot index by key; -1 for a style that draws nothing of that kind. */
    this.slotOf = new Map();
    /** The slots of the last style table, for a delta that leaves the table out. */
    this.table = undefined;
    this.resultId = undefined;
    this.version = undefined;
  }

  /** The model of a whole payload. */
  static fromPayload(payload, environment) {
    const model = new DocumentDecorations(environment.makeRange);
    const table = model.mapStyles(payload && Array.isArray(payload.styles) ? payload.styles : []);
    const buckets = model.collect(payload, table, 0, Infinity, environment);
    for (const [slot, entries] of buckets) model.fill(slot, entries);
    model.table = table;
    model.resultId = payload ? payload.resultId : undefined;
    model.version = payload && payload.textDocument ? payload.textDocument.version : undefined;
    return model;
  }

  /** The slot index for `key`, made with `options()` the first time; -1 when it draws nothing. */
  slotFor(key, kind, options) {
    let index = this.slotOf.get(key);
    if (index !== undefined) return index;
    const made = options();
    if (!made || Object.keys(made).length === 0) {
      index = -1;
    } else {
      index = this.slots.length;
      this.slots.push(new Slot(key, kind, made));
    }
    this.slotOf.set(key, index);
    return index;
  }

  /**
   * For each style index of a payload's table, its range slot and, per line indicator kind, its mark
   * slot (-1: none). Render options are computed once per key and document.
   */
  mapStyles(styles) {
    const table = { ranges: [], marks: lineIndicatorKinds.map(() => []) };
    for (const style of styles) {
      table.ranges.push(this.slotFor(styleKey(style), undefined, () => renderOptions(style)));
      lineIndicatorKinds.forEach((kind, kindIndex) => {
        const mark = style && typeof style === 'object' ? style[kind] : undefined;
        const slot = mark === undefined ? -1 : this.slotFor(`${kind}:${styleKey(mark)}`, kind, () => lineIndicatorOptions(kind, style));
        table.marks[kindIndex].push(slot);
      });
    }
    return table;
  }

  /**
   * The entries of `source.ranges` and `source.lines` on lines `low..<high`, by slot, sorted by
   * line, with their Ranges made. Malformed entries are skipped as `planDecorations` skips them.
   */
  collect(source, table, low, high, environment) {
    const { makeRange, lineText, lineLength } = environment;
    const ranges = source && Array.isArray(source.ranges) ? source.ranges : [];
    const lines = source && Array.isArray(source.lines) ? source.lines : [];
    const encoding = (source && source.positionEncoding) || 'utf-16';
    const buckets = new Map();
    const bucket = (slot) => {
      let entries = buckets.get(slot);
      if (!entries) {
        entries = newEntries();
        buckets.set(slot, entries);
      }
      return entries;
    };
    for (let offset = 0; offset + 3 < ranges.length; offset += 4) {
      const line = ranges[offset];
      const start = ranges[offset + 1];
      const end = ranges[offset + 2];
      const styleIndex = ranges[offset + 3];
      if (!isIndex(line) || !isIndex(start) || !isIndex(end) || !isIndex(styleIndex) || styleIndex >= table.ranges.length) continue;
      if (line < low || line >= high) continue;
      const slot = table.ranges[styleIndex];
      if (slot < 0) continue;
      const span = utf16Span(line, start, end, encoding, lineText);
      if (!span) continue;
      const { startCharacter, endCharacter } = span;
      const entries = bucket(slot);
      entries.lines.push(line);
      entries.starts.push(startCharacter);
      entries.ends.push(endCharacter);
      entries.ranges.push(makeRange(line, startCharacter, endCharacter));
    }
    for (let offset = 0; offset + 2 < lines.length; offset += 3) {
      const line = lines[offset];
      if (!isIndex(line) || line < low || line >= high) continue;
      let length;
      let measured = false;
      lineIndicatorKinds.forEach((_, kindIndex) => {
        const styleIndex = lines[offset + 1 + kindIndex];
        if (!isIndex(styleIndex) || styleIndex >= table.marks[kindIndex].length) return;
        const slot = table.marks[kindIndex][styleIndex];
        if (slot < 0) return;
        if (!measured) {
          length = lineLength ? lineLength(line) : undefined;
          measured = true;
        }
        // With the document at hand, a mark past its end is not drawn (as before deltas).
        if (lineLength && length === undefined) return;
        const entries = bucket(slot);
        if (entries.lines[entries.lines.length - 1] === line) return;
        entries.lines.push(line);
        entries.starts.push(0);
        entries.ends.push(length);
        entries.ranges.push(length === undefined ? undefined : makeRange(line, 0, length));
        if (length === undefined) entries.unbuilt += 1;
      });
    }
    for (const [slot, entries] of buckets) buckets.set(slot, sortEntries(entries));
    return buckets;
  }

  /** Gives an empty slot the entries of a whole payload. */
  fill(slot, entries) {
    const target = this.slots[slot];
    target.lines = entries.lines;
    target.starts = entries.starts;
    target.ends = entries.ends;
    target.ranges = entries.ranges;
    target.unbuilt = entries.unbuilt;
  }

  /**
   * Applies a delta payload (the caller has checked that it follows this model's `resultId` and
   * is for the document's current version). Returns the indices of the slots whose ranges were
   * replaced (those with ranges on the replaced lines, before or after), whose types need
   * `setDecorations` again; undefined, with the model unchanged, when the payload is malformed.
   */
  applyDelta(payload, environment) {
    const edit = payload && payload.edit;
    if (!edit || typeof edit !== 'object') return undefined;
    const { startLine, endLine, oldEndLine } = edit;
    if (!isIndex(startLine) || !isIndex(endLine) || !isIndex(oldEndLine) || endLine < startLine || oldEndLine < startLine) return undefined;
    if (edit.ranges !== undefined && !Array.isArray(edit.ranges)) return undefined;
    if (edit.lines !== undefined && !Array.isArray(edit.lines)) return undefined;
    const table = Array.isArray(payload.styles) ? this.mapStyles(payload.styles) : this.table;
    if (!table) return undefined;
    const source = { ranges: edit.ranges, lines: edit.lines, positionEncoding: payload.positionEncoding };
    const buckets = this.collect(source, table, startLine, endLine, environment);
    const shift = endLine - oldEndLine;
    const makeRange = environment.makeRange || this.makeRange;
    const changed = [];
    for (let slotIndex = 0; slotIndex < this.slots.length; slotIndex += 1) {
      const slot = this.slots[slotIndex];
      const fresh = buckets.get(slotIndex);
      const first = slot.lowerBound(startLine);
      const after = oldEndLine === startLine ? first : slot.lowerBound(oldEndLine);
      if (first === after && !fresh) {
        // Nothing of this type on the replaced lines: only its later ranges move, as they did
        // in the editor, so it is noted and left for when its ranges are next needed.
        if (shift !== 0 && first < slot.size) slot.addShift(first, shift, makeRange);
        continue;
      }
      // The indices found above stay valid: applying pending moves changes lines, not order.
      slot.flush(makeRange);
      if (shift !== 0) for (let index = after; index < slot.size; index += 1) slot.move(index, shift, makeRange);
      slot.splice(first, after, fresh || newEntries());
      if (fresh) slot.unbuilt += fresh.unbuilt;
      changed.push(slotIndex);
    }
    this.table = table;
    this.resultId = payload.resultId;
    if (payload.textDocument) this.version = payload.textDocument.version;
    return changed;
  }

  /**
   * The Ranges of slot `index`, in line order, for `setDecorations`: pending moves applied and
   * line indicators measured (`lineLength` from the document) first. The array is the model's own;
   * VS Code reads it during the call.
   */
  rangesOf(index, lineLength) {
    const slot = this.slots[index];
    slot.flush(this.makeRange);
    slot.build(this.makeRange, lineLength);
    return slot.ranges;
  }

  /**
   * The slot indices to draw in a new editor: those with ranges, range types before line
   * marks, each in the order first seen (the order `planDecorations` gives).
   */
  drawOrder() {
    const order = [];
    for (const kindless of [true, false]) {
      this.slots.forEach((slot, index) => {
        if ((slot.kind === undefined) === kindless && slot.size > 0) order.push(index);
      });
    }
    return order;
  }

  /**
   * Every entry as plain data, `{ key: [[line, start, end], ...] }` by slot key (line indicators:
   * `[line]`), keys sorted: what a fresh whole payload gives for the same document.
   */
  snapshot() {
    const result = {};
    const keys = this.slots.map((slot, index) => [slot.key, index]).filter(([, index]) => this.slots[index].size > 0).sort();
    for (const [key, index] of keys) {
      const slot = this.slots[index];
      slot.flush(this.makeRange);
      result[key] = slot.lines.map((line, entry) => (slot.kind === undefined ? [line, slot.starts[entry], slot.ends[entry]] : [line]));
    }
    return result;
  }
}

module.exports = { DocumentDecorations, Slot };
