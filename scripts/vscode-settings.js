#!/usr/bin/env node
// Generates the VS Code extension's configuration schema from the one JSON Schema of
// `.highlights.json`, so that the two cannot drift:
//
//   node scripts/vscode-settings.js           rewrites editors/vscode/package.json and the
//                                             schema copy editors/vscode/schema/highlights.schema.json
//   node scripts/vscode-settings.js --check   exits 1 (and says what differs) when either is stale
//
// Every top-level key of schema/highlights.schema.json except `$schema` and `nestedConfigs` becomes a setting
// `highlightLs.<key>` of scope `resource`, with the schema's own type, default and description and
// every `$ref` inlined (VS Code's settings schema has no `definitions` of ours to point at). The
// extension's own settings (`highlightLs.path`, `highlightLs.decorations`, `highlightLs.trace.server`)
// are kept as they are and listed first. The copy of the schema is what the manifest's
// `jsonValidation` points at: `vsce` packages the extension folder only.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const schemaPath = path.join(root, 'schema', 'highlights.schema.json');
const manifestPath = path.join(root, 'editors', 'vscode', 'package.json');
const schemaCopyPath = path.join(root, 'editors', 'vscode', 'schema', 'highlights.schema.json');

/** The settings namespace of the extension. */
const namespace = 'highlightLs';

/** Top-level schema keys that are not settings (`nestedConfigs` is read by `check` from files only). */
const skippedKeys = new Set(['$schema', 'nestedConfigs']);

/** A note added to every generated setting's description. */
const layerNote = 'A `.highlights.json` in the workspace folder takes precedence.';

/** Returns `value` with every `{"$ref": "#/definitions/name", ...}` replaced by that definition, siblings winning. */
function inlineReferences(value, definitions, trail = []) {
  if (Array.isArray(value)) return value.map((item) => inlineReferences(item, definitions, trail));
  if (!value || typeof value !== 'object') return value;
  let object = value;
  if (typeof object.$ref === 'string') {
    const match = /^#\/definitions\/([^/]+)$/.exec(object.$ref);
    if (!match || !(match[1] in definitions)) throw new Error(`unsupported $ref ${object.$ref}`);
    if (trail.includes(match[1])) throw new Error(`recursive $ref ${trail.concat(match[1]).join(' -> ')}`);
    const { $ref: _ref, ...siblings } = object;
    const target = inlineReferences(definitions[match[1]], definitions, trail.concat(match[1]));
    return { ...target, ...inlineReferences(siblings, definitions, trail) };
  }
  const result = {};
  for (const [key, child] of Object.entries(object)) result[key] = inlineReferences(child, definitions, trail);
  return result;
}

/** The default value a setting shows for a schema property. */
function defaultOf(property) {
  if ('default' in property) return property.default;
  if (property.type === 'array') return [];
  if (property.type === 'object') return {};
  return undefined;
}

/** The generated settings, `{ "highlightLs.<key>": schema }`, in the schema's order. */
function settingsFromSchema(schema) {
  const definitions = schema.definitions || {};
  const settings = {};
  for (const [key, property] of Object.entries(schema.properties || {})) {
    if (skippedKeys.has(key)) continue;
    const { description, default: _default, ...rest } = inlineReferences(property, definitions);
    const setting = { ...rest };
    const value = defaultOf(property);
    if (value !== undefined) setting.default = value;
    setting.scope = 'resource';
    setting.markdownDescription = description ? `${description} ${layerNote}` : layerNote;
    settings[`${namespace}.${key}`] = setting;
  }
  return settings;
}

/** The schema keys that become settings and reach the server (`serverKeys` in settings.js). */
function serverKeysOfSchema(schema) {
  return Object.keys(schema.properties || {}).filter((key) => !skippedKeys.has(key));
}

/** The extension's own settings, written by hand in package.json; every other setting is generated. */
const ownSettings = [`${namespace}.path`, `${namespace}.decorations`, `${namespace}.trace.server`];

/** The manifest with its generated settings replaced by those of `schema`; the extension's own settings first. */
function updatedManifest(manifest, schema) {
  const properties = manifest.contributes.configuration.properties;
  const own = {};
  for (const key of ownSettings) {
    if (key in properties) own[key] = properties[key];
  }
  const next = JSON.parse(JSON.stringify(manifest));
  next.contributes.configuration.properties = { ...own, ...settingsFromSchema(schema) };
  return next;
}

function format(json) {
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** What the two generated files should contain: `[{ path, text }]`. */
function expectedFiles() {
  const schemaText = fs.readFileSync(schemaPath, 'utf8');
  const schema = JSON.parse(schemaText);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  return [
    { path: manifestPath, text: format(updatedManifest(manifest, schema)) },
    { path: schemaCopyPath, text: schemaText },
  ];
}

/** The generated files that differ from what is on disk, as paths relative to the repository. */
function staleFiles() {
  return expectedFiles()
    .filter((file) => !fs.existsSync(file.path) || fs.readFileSync(file.path, 'utf8') !== file.text)
    .map((file) => path.relative(root, file.path));
}

function main(argv) {
  if (argv.includes('--check')) {
    const stale = staleFiles();
    if (stale.length === 0) return 0;
    process.stderr.write(`stale, run node scripts/vscode-settings.js: ${stale.join(', ')}\n`);
    return 1;
  }
  for (const file of expectedFiles()) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    fs.writeFileSync(file.path, file.text);
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = {
  namespace, ownSettings, skippedKeys, schemaPath, manifestPath, schemaCopyPath,
  inlineReferences, settingsFromSchema, serverKeysOfSchema, updatedManifest, staleFiles,
};
