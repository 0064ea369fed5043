// Finding matches, without VS Code: the Highlights tree (grouped by rule, then file, then match,
// as Todo Tree lays it out), what each entry shows, the counts of the status bar (per rule, from
// `highlight/counts`; from the tree with a server that lacks it), and which
// match "next" and "previous" go to. findView.js is the thin adapter that turns these plain
// values into TreeItems, a status bar item and editor selections.
//
// Positions are LSP positions in UTF-16 code units, which are VS Code's columns too.
'use strict';

/** Whether `value` is an LSP position. */
function isPosition(value) {
  return Boolean(value) && Number.isInteger(value.line) && value.line >= 0 && Number.isInteger(value.character) && value.character >= 0;
}

/** Whether `value` is an LSP range. */
function isRange(value) {
  return Boolean(value) && isPosition(value.start) && isPosition(value.end);
}

/** Orders LSP positions. */
function comparePositions(a, b) {
  return a.line - b.line || a.character - b.character;
}

function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The tree of `workspace/symbol` results: one node per rule (sorted by name), holding one node
 * per file (sorted by the path `relativePath(uri)` gives), holding its matches in text order.
 * Rules and files carry their `count`. Malformed symbols are left out.
 */
function buildTree(symbols, relativePath) {
  const rules = new Map();
  for (const symbol of Array.isArray(symbols) ? symbols : []) {
    const location = symbol && symbol.location;
    if (!location || typeof location.uri !== 'string' || !isRange(location.range)) continue;
    const ruleName = typeof symbol.containerName === 'string' ? symbol.containerName : '';
    let rule = rules.get(ruleName);
    if (!rule) {
      rule = { kind: 'rule', name: ruleName, count: 0, files: new Map() };
      rules.set(ruleName, rule);
    }
    let file = rule.files.get(location.uri);
    if (!file) {
      file = { kind: 'file', rule: ruleName, uri: location.uri, path: relativePath(location.uri), count: 0, matches: [] };
      rule.files.set(location.uri, file);
    }
    file.matches.push({ kind: 'match', rule: ruleName, uri: location.uri, name: String(symbol.name), range: location.range });
    file.count += 1;
    rule.count += 1;
  }
  return [...rules.values()]
    .sort((a, b) => compareText(a.name, b.name))
    .map((rule) => ({
      ...rule,
      files: [...rule.files.values()]
        .sort((a, b) => compareText(a.path, b.path))
        .map((file) => ({ ...file, matches: file.matches.sort((a, b) => comparePositions(a.range.start, b.range.start)) })),
    }));
}

/** The children of a tree node (the rules for none). */
function childrenOf(tree, node) {
  if (!node) return tree;
  if (node.kind === 'rule') return node.files;
  if (node.kind === 'file') return node.matches;
  return [];
}

/**
 * What a node shows: `label`, `description`, whether it is `expandable`, its `tooltip`, and for a
 * match the `open` target ({ uri, range }) a click goes to.
 */
function presentationOf(node) {
  if (node.kind === 'rule') {
    return { label: node.name, description: String(node.count), expandable: true, tooltip: `${node.name}: ${countText(node.count)}` };
  }
  if (node.kind === 'file') {
    return { label: node.path, description: String(node.count), expandable: true, resourceUri: node.uri, tooltip: `${node.path}: ${countText(node.count)} of ${node.rule}` };
  }
  const line = node.range.start.line + 1;
  const column = node.range.start.character + 1;
  return {
    label: node.name,
    description: `${line}:${column}`,
    expandable: false,
    tooltip: `${node.rule} at line ${line}, column ${column}`,
    open: { uri: node.uri, range: node.range },
  };
}

function countText(count) {
  return count === 1 ? '1 match' : `${count} matches`;
}

/** The matches of the tree in the document `uri`, and in the whole workspace. */
function countsOf(tree, uri) {
  let file = 0;
  let workspace = 0;
  for (const rule of tree) {
    workspace += rule.count;
    for (const entry of rule.files) if (entry.uri === uri) file += entry.count;
  }
  return { file, workspace };
}

/** The status bar's text and tooltip for the counts (`file` undefined: no file is active). */
function statusOf({ file, workspace }) {
  const here = file === undefined ? '' : `${file} · `;
  const tooltip = file === undefined
    ? `highlight-ls: ${countText(workspace)} in the workspace`
    : `highlight-ls: ${countText(file)} in this file, ${countText(workspace)} in the workspace`;
  return { text: `$(checklist) ${here}${workspace}`, tooltip };
}

/**
 * The rules' counts of a `highlight/counts` answer (docs/PROTOCOL.md, "Counts"): `{ rules: [{ rule,
 * count }], total, files }` in the server's order (most frequent first), or undefined when the
 * answer is not one. Malformed entries are left out.
 */
function countsFrom(answer) {
  if (!answer || !Array.isArray(answer.counts)) return undefined;
  const rules = answer.counts
    .filter((entry) => entry && typeof entry.rule === 'string' && Number.isInteger(entry.count) && entry.count >= 0)
    .map((entry) => ({ rule: entry.rule, count: entry.count }));
  const total = Number.isInteger(answer.total) ? answer.total : rules.reduce((sum, entry) => sum + entry.count, 0);
  const files = Number.isInteger(answer.files) ? answer.files : undefined;
  return { rules, total, files };
}

/**
 * The status bar's text and tooltip for the workspace's counts per rule: `3 TODO | 1 FIXME`, or a
 * check mark alone when nothing is counted.
 */
function rulesStatusOf(counts) {
  const text = counts.rules.map((entry) => `${entry.count} ${entry.rule.toUpperCase()}`).join(' | ');
  const where = counts.files === undefined ? 'in the workspace' : `in ${counts.files === 1 ? '1 file' : `${counts.files} files`} of the workspace`;
  const tooltip = counts.total === 0
    ? 'highlight-ls: no listed matches in the workspace'
    : `highlight-ls: ${countText(counts.total)} ${where} (${counts.rules.map((entry) => `${entry.count} ${entry.rule}`).join(', ')})`;
  return { text: text === '' ? '$(checklist)' : `$(checklist) ${text}`, tooltip: `${tooltip}. Click for the Highlights view.` };
}

/**
 * The match `count` steps from `position` (forward, or back), from `highlight/matches` results
 * ({ rule, range }, in text order), keeping only `rules` when given; wrapping around the ends.
 * Returns { match, wrapped }, or undefined when there is no match.
 */
function step(matches, position, { forward = true, count = 1, rules } = {}) {
  const wanted = Array.isArray(rules) && rules.length > 0 ? new Set(rules.map((rule) => String(rule).toLowerCase())) : undefined;
  const candidates = (Array.isArray(matches) ? matches : [])
    .filter((match) => match && isRange(match.range) && (!wanted || wanted.has(String(match.rule).toLowerCase())))
    .sort((a, b) => comparePositions(a.range.start, b.range.start));
  if (candidates.length === 0) return undefined;
  let current = position;
  let match;
  let wrapped = false;
  for (let index = 0; index < Math.max(1, Math.floor(count) || 1); index += 1) {
    if (forward) {
      match = candidates.find((candidate) => comparePositions(candidate.range.start, current) > 0);
      if (!match) [match, wrapped] = [candidates[0], true];
    } else {
      match = candidates.findLast((candidate) => comparePositions(candidate.range.start, current) < 0);
      if (!match) [match, wrapped] = [candidates[candidates.length - 1], true];
    }
    current = match.range.start;
  }
  return { match, wrapped };
}

module.exports = { buildTree, childrenOf, presentationOf, countsOf, statusOf, countsFrom, rulesStatusOf, step, comparePositions };
