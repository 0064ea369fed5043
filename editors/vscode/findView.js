// The thin adapter between findings.js and VS Code: the "Highlights" tree view in the Explorer,
// the status bar item with the counts, and the Next/Previous Highlight commands. It asks the
// server through `request(method, params)` and holds no logic of its own beyond turning plain
// values into VS Code objects.
'use strict';

const vscode = require('vscode');
const { buildTree, childrenOf, presentationOf, countsOf, statusOf, countsFrom, rulesStatusOf, step } = require('./findings');

/** The tree view's id, as package.json declares it under `views.explorer`. */
const viewId = 'highlightLs.highlights';

/** How long after the last edit the counts are asked for again. */
const countsDelayMs = 500;

/** The JSON-RPC error codes of a server without `highlight/counts`, and of a superseded request. */
const methodNotFound = -32601;
const requestCancelled = -32800;

function toRange(range) {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** A TreeItem for a node of findings.js. */
function treeItem(node) {
  const shown = presentationOf(node);
  const item = new vscode.TreeItem(
    shown.label,
    shown.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.description = shown.description;
  item.tooltip = shown.tooltip;
  item.contextValue = node.kind;
  if (shown.resourceUri) item.resourceUri = vscode.Uri.parse(shown.resourceUri);
  if (shown.open) {
    item.command = {
      command: 'vscode.open',
      title: 'Open',
      arguments: [vscode.Uri.parse(shown.open.uri), { selection: toRange(shown.open.range) }],
    };
  }
  return item;
}

/** The view, the status bar item and the commands; `request` is undefined while no server runs. */
function createFindView({ request, protocolUri, log }) {
  const changed = new vscode.EventEmitter();
  let tree = [];
  const provider = {
    onDidChangeTreeData: changed.event,
    getChildren: (node) => childrenOf(tree, node),
    getTreeItem: (node) => treeItem(node),
  };
  const view = vscode.window.createTreeView(viewId, { treeDataProvider: provider, showCollapseAll: true });
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
  status.command = `${viewId}.focus`;

  /** The latest `highlight/counts` answer (countsFrom), or undefined before one came. */
  let ruleCounts;
  /** The server answered MethodNotFound: the status bar counts the tree instead. */
  let countsUnsupported = false;
  /** Numbers the requests, so that only the latest answer is shown. */
  let countsSequence = 0;
  let countsTimer;

  function showCounts() {
    if (ruleCounts) {
      const shown = rulesStatusOf(ruleCounts);
      status.text = shown.text;
      status.tooltip = shown.tooltip;
      status.show();
      return;
    }
    const editor = vscode.window.activeTextEditor;
    const uri = editor ? protocolUri(editor.document.uri) : undefined;
    const counts = countsOf(tree, uri);
    const shown = statusOf({ file: uri === undefined ? undefined : counts.file, workspace: counts.workspace });
    status.text = shown.text;
    status.tooltip = shown.tooltip;
    status.show();
  }

  /**
   * Asks the server for the workspace's counts per rule (`highlight/counts`, run beside the
   * server's loop, re-reading only changed files) and shows them in the status bar.
   */
  async function refreshCounts() {
    const send = request();
    if (!send || countsUnsupported) return;
    countsSequence += 1;
    const sequence = countsSequence;
    let answer;
    try {
      answer = await send('highlight/counts', {});
    } catch (error) {
      if (error && error.code === methodNotFound) countsUnsupported = true;
      // A newer request superseded this one; its answer is the one to show.
      if (error && error.code === requestCancelled) return;
      log(`highlight/counts: ${error && error.message ? error.message : error}`);
      return;
    }
    if (sequence !== countsSequence) return;
    const found = countsFrom(answer);
    if (!found) return;
    ruleCounts = found;
    showCounts();
  }

  /** Refreshes the counts `countsDelayMs` after the last call, so a burst of edits asks once. */
  function scheduleCounts() {
    clearTimeout(countsTimer);
    countsTimer = setTimeout(() => void refreshCounts(), countsDelayMs);
  }

  /** Asks the server for the workspace's listed matches and counts, and shows them. */
  async function refresh() {
    const send = request();
    if (!send) return;
    void refreshCounts();
    try {
      const symbols = await send('workspace/symbol', { query: '' });
      tree = buildTree(symbols, (uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), true));
    } catch (error) {
      log(`workspace/symbol: ${error && error.message ? error.message : error}`);
      return;
    }
    changed.fire(undefined);
    showCounts();
  }

  /** Moves the active editor's cursor to the next (or previous) match; `options`: { count, rules }. */
  async function jump(forward, options = {}) {
    const editor = vscode.window.activeTextEditor;
    const send = request();
    if (!editor || !send) return undefined;
    const matches = await send('highlight/matches', { textDocument: { uri: protocolUri(editor.document.uri) } });
    const active = editor.selection.active;
    const found = step(matches, { line: active.line, character: active.character }, { forward, count: options.count, rules: options.rules });
    if (!found) {
      vscode.window.setStatusBarMessage('highlight-ls: no matches in this file', 3000);
      return undefined;
    }
    const start = new vscode.Position(found.match.range.start.line, found.match.range.start.character);
    editor.selection = new vscode.Selection(start, start);
    editor.revealRange(toRange(found.match.range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    if (found.wrapped) {
      vscode.window.setStatusBarMessage(forward ? 'highlight-ls: search hit BOTTOM, continuing at TOP' : 'highlight-ls: search hit TOP, continuing at BOTTOM', 3000);
    }
    return found.match;
  }

  const disposables = [
    changed,
    view,
    status,
    vscode.window.onDidChangeActiveTextEditor(showCounts),
    vscode.workspace.onDidSaveTextDocument(refresh),
    // Unsaved edits change the counts too: the server counts open documents' current text.
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event && event.contentChanges && event.contentChanges.length > 0) scheduleCounts();
    }),
    { dispose: () => clearTimeout(countsTimer) },
    vscode.commands.registerCommand('highlightLs.nextHighlight', (options) => jump(true, options)),
    vscode.commands.registerCommand('highlightLs.previousHighlight', (options) => jump(false, options)),
    vscode.commands.registerCommand('highlightLs.refreshHighlights', refresh),
  ];
  return {
    refresh,
    refreshCounts,
    provider,
    dispose: () => disposables.forEach((disposable) => disposable.dispose()),
  };
}

module.exports = { createFindView, viewId, treeItem };
