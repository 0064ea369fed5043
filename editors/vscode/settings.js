// The extension's settings as the server and the launcher should see them, without `vscode`, so
// that node's own test runner can check them.
//
// The extension's settings live under its own namespace, `highlightLs.*`. On the wire the server
// asks `workspace/configuration` for its section `highlight` (the name every editor uses); the
// extension answers that from `highlightLs.*`. The old keys `highlight.*` are not read: the
// extension was never published under them, and `highlight.*` is the namespace of another
// extension (vscode-highlight), whose `highlight.decorations` means something else.
'use strict';

/** The settings namespace of the extension in VS Code. */
const namespace = 'highlightLs';

/** The section the server asks for in `workspace/configuration`. */
const serverSectionName = 'highlight';

/**
 * The settings the server reads, named as in `.highlights.json` (the top-level keys of
 * schema/highlights.schema.json but `$schema`; a test checks they agree). `highlightLs.path`,
 * `highlightLs.decorations` and `highlightLs.trace.server` are the extension's own.
 */
const serverKeys = ['defaults', 'colors', 'outline', 'dueSoon', 'languages', 'styles', 'rules'];

/** The value a user set in `info` (the shape of `WorkspaceConfiguration.inspect`), the most specific scope winning. */
function userValue(info, { trusted = true } = {}) {
  if (!info) return undefined;
  const scopes = trusted ? [info.workspaceFolderValue, info.workspaceValue, info.globalValue] : [info.globalValue];
  return scopes.find((candidate) => candidate !== undefined);
}

/**
 * Builds the `highlight` section for `workspace/configuration` from `inspect(key)`: only the keys
 * the user set. Defaults are left out, so an untouched `highlightLs.defaults` does not override
 * what `initializationOptions` say, and the server does not warn about keys it does not know.
 */
function serverSection(inspect) {
  const section = {};
  for (const key of serverKeys) {
    const value = userValue(inspect(key));
    if (value !== undefined) section[key] = value;
  }
  return section;
}

/**
 * The server path the user set, or '' when none: in an untrusted workspace only the user's own
 * (global) value counts, so opening a folder never runs a program named in its settings.
 */
function configuredServerPath(inspect, trusted) {
  const value = userValue(inspect('path'), { trusted });
  return typeof value === 'string' ? value.trim() : '';
}

module.exports = { namespace, serverSectionName, serverKeys, userValue, serverSection, configuredServerPath };
