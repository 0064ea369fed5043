// The `highlight` settings section as the server should see it, without `vscode`, so that
// node's own test runner can check it.
'use strict';

/** The settings the server reads; `highlight.path` and `highlight.decorations` are the extension's own. */
const serverKeys = ['rules', 'styles', 'defaults'];

/**
 * Builds the `highlight` section for `workspace/configuration` from `inspect(key)` (the shape of
 * `WorkspaceConfiguration.inspect`): only the keys the user set, the most specific scope
 * winning. Defaults are left out, so an untouched `highlight.defaults` does not override what
 * `initializationOptions` say, and the server does not warn about keys it does not know.
 */
function serverSection(inspect) {
  const section = {};
  for (const key of serverKeys) {
    const info = inspect(key);
    if (!info) continue;
    const value = [info.workspaceFolderValue, info.workspaceValue, info.globalValue].find((candidate) => candidate !== undefined);
    if (value !== undefined) section[key] = value;
  }
  return section;
}

module.exports = { serverKeys, serverSection };
