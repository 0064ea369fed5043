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
//
// A style's overview ruler mark is drawn by its own type, on its ranges (`overviewRulerColor`
// and a lane). Gutter signs and whole lines come apart, once per line (`lines`: line, then the
// style index of its gutter sign and its whole-line background, -1 for none), with their
// colours resolved by the server:
//
//   styles: [ { rule: "bug", gutter: { text: "B", color: "#d32f2fff" }, overviewRuler: { color: "#d32f2fff", lane: "right" } } ]
//   lines:  [ 4, 0, -1 ]   // line 4: style 0's sign, no whole line
//
// Each kind gets decoration types of its own (`gutterIconPath`, `isWholeLine`), one per
// distinct look, set on whole lines.
'use strict';

/** The lanes of the overview ruler the server names, as `vscode.OverviewRulerLane` names them. */
const rulerLanes = { left: 'Left', center: 'Center', right: 'Right', full: 'Full' };

/** Whether `value` is a `#rrggbbaa` or `#rrggbb` colour (the server always sends the first). */
function isColor(value) {
  return typeof value === 'string' && /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(value);
}

/**
 * The DecorationRenderOptions drawing a style on its ranges, with `light` and `dark` variants
 * where the style's colours would be hard to read on that kind of theme (below), and without
 * `rangeBehavior` (an enum of the `vscode` module, added by the extension), and with the
 * style's overview ruler mark (`overviewRulerLane` a lane name, `Center`, made the `vscode` enum
 * by the extension). Colours stay `#rrggbbaa`, which CSS understands. Gutter signs and whole
 * lines are drawn by types of their own (`lineIndicatorOptions`).
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
  const ruler = style.overviewRuler;
  if (ruler && typeof ruler === 'object' && isColor(ruler.color)) {
    options.overviewRulerColor = ruler.color;
    options.overviewRulerLane = rulerLanes[ruler.lane] || 'Center';
  }
  const light = themeVariant(options, themes.light);
  const dark = themeVariant(options, themes.dark);
  if (light) options.light = light;
  if (dark) options.dark = dark;
  return options;
}

// Light and dark variants. A style has one set of colours, but a colour chosen on a light theme
// can vanish on a dark one (the built-in `deprecated` grey, #9e9e9e, has a contrast of 2.7:1 on
// white), and text the theme colours can vanish on a background the style sets. So for each
// kind of theme the extension checks the contrast (WCAG 2 relative luminance) of what is drawn
// against what it is drawn on, and where it is too low, gives that theme a variant in
// `light` / `dark` (DecorationRenderOptions' own per-theme overrides):
//   - a text colour without a background, against the theme's editor background: moved towards
//     black (light themes) or white (dark themes), keeping its hue, until it reaches 4.5:1;
//   - a border without a background, likewise to 3:1 (WCAG's figure for non-text marks);
//   - a background without a text colour: the theme's text is assumed, and when it reaches less
//     than 4.5:1 on that background the variant sets whichever of near-black or white reads best.
// A style that sets both a text colour and a background keeps them on every theme: they were
// chosen together. The theme colours assumed are VS Code's default Light+ and Dark+ ones.

/** The editor background and text colours assumed for each kind of theme. */
const themes = {
  light: { name: 'light', background: [0xff, 0xff, 0xff], foreground: [0x00, 0x00, 0x00], towards: [0x00, 0x00, 0x00] },
  dark: { name: 'dark', background: [0x1e, 0x1e, 0x1e], foreground: [0xd4, 0xd4, 0xd4], towards: [0xff, 0xff, 0xff] },
};

/** Contrast ratios WCAG 2 asks for: text, and marks that are not text. */
const textContrast = 4.5;
const markContrast = 3;

/** `[r, g, b, a]` (0-255, a in 0-1) of a `#rrggbb` or `#rrggbbaa` colour, or undefined. */
function parseColor(value) {
  if (!isColor(value)) return undefined;
  const hex = value.slice(1);
  const channel = (index) => parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return [channel(0), channel(1), channel(2), hex.length === 8 ? channel(3) / 255 : 1];
}

/** `#rrggbbaa` of `[r, g, b, a]`. */
function formatColor([r, g, b, a]) {
  const byte = (value) => Math.round(Math.min(255, Math.max(0, value))).toString(16).padStart(2, '0');
  return `#${byte(r)}${byte(g)}${byte(b)}${byte(a * 255)}`;
}

/** The opaque colour seen when `[r, g, b, a]` is drawn over the opaque `behind`. */
function composite([r, g, b, a], behind) {
  return [r * a + behind[0] * (1 - a), g * a + behind[1] * (1 - a), b * a + behind[2] * (1 - a)];
}

/** WCAG 2 relative luminance of an opaque `[r, g, b]`. */
function luminance(rgb) {
  const [r, g, b] = rgb.map((value) => {
    const channel = value / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two opaque colours, from 1 to 21. */
function contrast(first, second) {
  const [high, low] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (high + 0.05) / (low + 0.05);
}

/**
 * The colour nearest to `value`, mixed towards `theme.towards` (black or white, so the hue is
 * kept), whose contrast against the theme's background reaches `target`: the least mix that does,
 * found by bisection. The full mix when none does (a translucent colour); undefined when `value`
 * already reaches it or is transparent.
 */
function adjustedColor(value, theme, target) {
  const color = parseColor(value);
  // A transparent colour draws nothing, so there is nothing to make readable.
  if (!color || color[3] === 0) return undefined;
  // Judged as written (rounded to bytes), so the colour drawn is the colour checked.
  const mix = (amount) => formatColor([...[0, 1, 2].map((index) => color[index] + (theme.towards[index] - color[index]) * amount), color[3]]);
  const reaches = (written) => contrast(composite(parseColor(written), theme.background), theme.background) >= target;
  if (reaches(formatColor(color))) return undefined;
  if (!reaches(mix(1))) return mix(1) === formatColor(color) ? undefined : mix(1);
  let [low, high] = [0, 1];
  for (let iteration = 0; iteration < 20; iteration += 1) {
    const middle = (low + high) / 2;
    if (reaches(mix(middle))) high = middle; else low = middle;
  }
  return mix(high);
}

/** The overrides of `options` for one kind of theme, or undefined when it needs none. */
function themeVariant(options, theme) {
  const variant = {};
  if (!options.backgroundColor) {
    const color = adjustedColor(options.color, theme, textContrast);
    if (color) variant.color = color;
    const border = adjustedColor(options.borderColor, theme, markContrast);
    if (border) {
      variant.borderColor = border;
      variant.border = `1px solid ${border}`;
    }
  } else if (!options.color) {
    const background = parseColor(options.backgroundColor);
    const behind = composite(background, theme.background);
    if (contrast(theme.foreground, behind) < textContrast) {
      const nearBlack = [0x1a, 0x1a, 0x1a];
      const white = [0xff, 0xff, 0xff];
      variant.color = formatColor([...(contrast(nearBlack, behind) >= contrast(white, behind) ? nearBlack : white), 1]);
    }
  }
  return Object.keys(variant).length > 0 ? variant : undefined;
}

// Line indicators ---------------------------------------------------------------------------------

/** The kinds of line indicator, in the order of their style indices in `lines`. */
const lineIndicatorKinds = ['gutter', 'wholeLine'];

/** `text` with the characters XML gives a meaning escaped. */
function escapeXml(text) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The SVG image of a gutter sign: its text, bold, in its colour, filling the 16 x 16 icon (two
 * characters share it), or without text a dot. The colour's alpha becomes the fill's opacity.
 */
function gutterSvg(sign) {
  const color = parseColor(sign && sign.color) || [0x80, 0x80, 0x80, 0.3];
  const fill = `fill="#${color.slice(0, 3).map((value) => value.toString(16).padStart(2, '0')).join('')}"`
    + (color[3] < 1 ? ` fill-opacity="${Number(color[3].toFixed(3))}"` : '');
  const text = sign && typeof sign.text === 'string' && sign.text.length > 0 ? sign.text : undefined;
  const body = text === undefined
    ? `<circle cx="8" cy="8" r="4" ${fill}/>`
    : `<text x="8" y="12.5" ${fill} font-family="monospace" font-weight="bold" font-size="${[...text].length > 1 ? 9 : 13}" text-anchor="middle">${escapeXml(text)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">${body}</svg>`;
}

/** A `data:` URI of the gutter sign's SVG, for `gutterIconPath` (no file, nothing fetched). */
function gutterIconUri(sign) {
  return `data:image/svg+xml;base64,${Buffer.from(gutterSvg(sign), 'utf8').toString('base64')}`;
}

/**
 * The DecorationRenderOptions of one kind of line indicator of a style, or undefined when the style
 * has no valid mark of that kind. `gutterIconPath` is a `data:` URI string, turned into a Uri
 * by the extension.
 */
function lineIndicatorOptions(kind, style) {
  const mark = style && typeof style === 'object' ? style[kind] : undefined;
  if (!mark || typeof mark !== 'object') return undefined;
  switch (kind) {
    case 'gutter':
      if (!isColor(mark.color)) return undefined;
      return { gutterIconPath: gutterIconUri(mark), gutterIconSize: 'contain' };
    case 'wholeLine':
      if (!isColor(mark.backgroundColor)) return undefined;
      return { isWholeLine: true, backgroundColor: mark.backgroundColor };
    default:
      return undefined;
  }
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
 * The columns of a single-line range as VS Code counts them (UTF-16 units), or null when the
 * range cannot be drawn: its line's text is unknown, or it is empty once converted. `lineText`
 * gives a line's text (needed for `utf-8` and `utf-32` columns).
 */
function utf16Span(line, start, end, encoding, lineText) {
  let startCharacter = start;
  let endCharacter = end;
  if (encoding !== 'utf-16' && lineText) {
    const text = lineText(line);
    if (typeof text !== 'string') return null;
    startCharacter = utf16Column(text, start, encoding);
    endCharacter = utf16Column(text, end, encoding);
  }
  return endCharacter > startCharacter ? { startCharacter, endCharacter } : null;
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
 * each range `{ line, startCharacter, endCharacter }` in UTF-16 code units, followed by one
 * entry per gutter-sign or whole-line look, `{ key, kind, options, lines }`, with the lines to
 * mark. Malformed
 * ranges (not four non-negative integers, an unknown style, empty) and line entries (a style
 * index that is not -1 and names no style with that mark) are skipped. `lineText(line)` gives a
 * line's text, needed only when the payload's columns are not UTF-16.
 */
function planDecorations(payload, lineText) {
  const styles = payload && Array.isArray(payload.styles) ? payload.styles : [];
  const ranges = payload && Array.isArray(payload.ranges) ? payload.ranges : [];
  const encoding = (payload && payload.positionEncoding) || 'utf-16';
  const plan = styles.map((style) => ({ key: styleKey(style), style, options: renderOptions(style), ranges: [] }));
  const lineEntries = planLineIndicators(payload, styles);
  for (let offset = 0; offset + 3 < ranges.length; offset += 4) {
    const [line, start, end, styleIndex] = ranges.slice(offset, offset + 4);
    if (!isIndex(line) || !isIndex(start) || !isIndex(end) || !isIndex(styleIndex) || styleIndex >= plan.length) continue;
    const span = utf16Span(line, start, end, encoding, lineText);
    if (!span) continue;
    plan[styleIndex].ranges.push({ line, ...span });
  }
  return plan.concat(lineEntries);
}

/** The line-indicator entries of `planDecorations`: one per kind and look, in the order first used. */
function planLineIndicators(payload, styles) {
  const lines = payload && Array.isArray(payload.lines) ? payload.lines : [];
  const entries = new Map();
  // Options of each style's marks, computed once per style and kind.
  const optionsOf = lineIndicatorKinds.map(() => new Map());
  for (let offset = 0; offset + 2 < lines.length; offset += 3) {
    const line = lines[offset];
    if (!isIndex(line)) continue;
    lineIndicatorKinds.forEach((kind, kindIndex) => {
      const styleIndex = lines[offset + 1 + kindIndex];
      if (!isIndex(styleIndex) || styleIndex >= styles.length) return;
      const cache = optionsOf[kindIndex];
      if (!cache.has(styleIndex)) cache.set(styleIndex, lineIndicatorOptions(kind, styles[styleIndex]));
      const options = cache.get(styleIndex);
      if (!options) return;
      const key = `${kind}:${styleKey(styles[styleIndex][kind])}`;
      let entry = entries.get(key);
      if (!entry) {
        entry = { key, kind, options, lines: [] };
        entries.set(key, entry);
      }
      if (entry.lines[entry.lines.length - 1] !== line) entry.lines.push(line);
    });
  }
  return [...entries.values()];
}

/** Whether a payload describes an older state than the document's current `version`. */
function isStale(payload, version) {
  const payloadVersion = payload && payload.textDocument && payload.textDocument.version;
  return Number.isInteger(payloadVersion) && Number.isInteger(version) && payloadVersion < version;
}

module.exports = {
  isColor, parseColor, contrast, composite, themes, renderOptions, styleKey, utf16Column, utf16Span, planDecorations, isStale,
  lineIndicatorKinds, gutterSvg, gutterIconUri, lineIndicatorOptions,
};
