// The decoration mapping of the highlight-ls extension, as plain functions without `vscode`,
// so that node's own test runner can check them.
//
// The server's `highlight/publishDecorations` payload has a table of styles and a flat array of
// single-line ranges, four integers each:
//
//   styles: [ { rule: "todo", color: "#1a1a1aff", backgroundColor: "#f9a825ff", bold: true, rounded: true } ]
//   ranges: [ 0, 6, 12, 0,   3, 0, 4, 0 ]   // line, startCharacter, endCharacter, style index
//
// `planDecorations` turns that into one entry per style: a stable key, the options of a
// TextEditorDecorationType, and the ranges to set for it.
'use strict';

/** Whether `value` is a `#rrggbbaa` or `#rrggbb` colour (the server always sends the first). */
function isColor(value) {
  return typeof value === 'string' && /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value);
}

/**
 * The DecorationRenderOptions drawing a style, without `overviewRulerLane` (an enum of the
 * `vscode` module, added by the extension). Colours stay `#rrggbbaa`, which CSS understands.
 */
function renderOptions(style) {
  const options = {};
  if (!style || typeof style !== 'object') return options;
  if (isColor(style.color)) options.color = style.color;
  if (isColor(style.backgroundColor)) options.backgroundColor = style.backgroundColor;
  if (isColor(style.borderColor)) {
    options.border = `1px solid ${style.borderColor}`;
    options.borderColor = style.borderColor;
  }
  if (style.rounded === true) options.borderRadius = '3px';
  if (style.bold === true) options.fontWeight = 'bold';
  if (style.italic === true) options.fontStyle = 'italic';
  const lines = [];
  if (style.underline === true) lines.push('underline');
  if (style.strikethrough === true) lines.push('line-through');
  if (lines.length > 0) options.textDecoration = lines.join(' ');
  const ruler = options.backgroundColor || options.color || options.borderColor;
  if (ruler) options.overviewRulerColor = ruler;
  return options;
}

/** A key that is equal for equal styles, to share one decoration type between documents. */
function styleKey(style) {
  if (!style || typeof style !== 'object') return '{}';
  const keys = Object.keys(style).sort();
  return JSON.stringify(keys.map((key) => [key, style[key]]));
}

function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

/**
 * Converts a column in `encoding` units to UTF-16 code units (VS Code's columns) within
 * `lineText`, clamped to the line. `utf-16` columns are returned as they are.
 */
function utf16Column(lineText, column, encoding) {
  if (encoding !== 'utf-8' && encoding !== 'utf-32') return column;
  let units = 0;
  let index = 0;
  while (index < lineText.length && units < column) {
    const codePoint = lineText.codePointAt(index);
    const width = codePoint > 0xffff ? 2 : 1;
    if (encoding === 'utf-32') {
      units += 1;
    } else {
      units += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }
    index += width;
  }
  return index;
}

/**
 * Turns a decorations payload into `[{ key, style, options, ranges }]`, one entry per style,
 * each range `{ line, startCharacter, endCharacter }` in UTF-16 code units. Malformed ranges
 * (not four non-negative integers, an unknown style, empty) are skipped. `lineText(line)`
 * gives a line's text, needed only when the payload's columns are not UTF-16.
 */
function planDecorations(payload, lineText) {
  const styles = payload && Array.isArray(payload.styles) ? payload.styles : [];
  const ranges = payload && Array.isArray(payload.ranges) ? payload.ranges : [];
  const encoding = (payload && payload.positionEncoding) || 'utf-16';
  const plan = styles.map((style) => ({ key: styleKey(style), style, options: renderOptions(style), ranges: [] }));
  for (let offset = 0; offset + 3 < ranges.length; offset += 4) {
    const [line, start, end, styleIndex] = ranges.slice(offset, offset + 4);
    if (!isIndex(line) || !isIndex(start) || !isIndex(end) || !isIndex(styleIndex) || styleIndex >= plan.length) continue;
    let startCharacter = start;
    let endCharacter = end;
    if (encoding !== 'utf-16' && lineText) {
      const text = lineText(line);
      if (typeof text !== 'string') continue;
      startCharacter = utf16Column(text, start, encoding);
      endCharacter = utf16Column(text, end, encoding);
    }
    if (endCharacter <= startCharacter) continue;
    plan[styleIndex].ranges.push({ line, startCharacter, endCharacter });
  }
  return plan;
}

/** Whether a payload describes an older state than the document's current `version`. */
function isStale(payload, version) {
  const payloadVersion = payload && payload.textDocument && payload.textDocument.version;
  return Number.isInteger(payloadVersion) && Number.isInteger(version) && payloadVersion < version;
}

module.exports = { isColor, renderOptions, styleKey, utf16Column, planDecorations, isStale };
