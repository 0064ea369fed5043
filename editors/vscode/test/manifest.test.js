// Tests of package.json's contributions against the project: the settings against the JSON
// Schema of .highlights.json (they are generated from it by scripts/vscode-settings.js), the
// namespace, the JSON validation and JSONC association, the workspace-trust stance, the
// semantic token types against the real server's legend, and the one version.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const generator = require('../../../scripts/vscode-settings');
const { serverKeys } = require('../settings');
const { minimumServerVersion, compareVersions } = require('../serverBinary');
const { realServer, skipWithoutServer, repositoryRoot, projectVersion, serverSession } = require('./helpers');

const extensionRoot = path.resolve(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
const schema = JSON.parse(fs.readFileSync(generator.schemaPath, 'utf8'));
const properties = manifest.contributes.configuration.properties;

test('the generated settings and the schema copy are up to date (node scripts/vscode-settings.js)', () => {
  assert.deepEqual(generator.staleFiles(), []);
});

test('every top-level schema key is a setting with the schema\'s own definition', () => {
  for (const key of Object.keys(schema.properties)) {
    if (generator.skippedKeys.has(key)) continue;
    const setting = properties[`highlightLs.${key}`];
    assert.ok(setting, `highlightLs.${key}`);
    assert.equal(setting.scope, 'resource');
    const inlined = generator.inlineReferences(schema.properties[key], schema.definitions);
    for (const field of ['type', 'items', 'additionalProperties', 'propertyNames', 'enum', 'oneOf']) {
      assert.deepEqual(setting[field], inlined[field], `highlightLs.${key}: ${field}`);
    }
  }
});

test('the rule items carry every rule key of the schema, with no $ref left', () => {
  const items = properties['highlightLs.rules'].items;
  assert.deepEqual(Object.keys(items.properties).sort(), Object.keys(schema.definitions.rule.properties).sort());
  // The keys the settings schema once lacked.
  for (const key of ['severity', 'message', 'link', 'list', 'scope', 'languages', 'files', 'groups', 'blocking']) {
    assert.ok(items.properties[key], `rules[].${key}`);
  }
  assert.deepEqual(items.properties.severity.enum, ['error', 'warning', 'information', 'hint']);
  assert.equal(items.additionalProperties, false);
  assert.ok(items.else, 'words or regex is required');
  assert.doesNotMatch(JSON.stringify(properties), /\$ref/);
  assert.ok(properties['highlightLs.colors'], 'colors is a setting');
});

test('inlineReferences: siblings win, unknown and recursive references are errors', () => {
  const definitions = { color: { type: 'string', description: 'A colour.' }, loop: { $ref: '#/definitions/loop' } };
  assert.deepEqual(generator.inlineReferences({ $ref: '#/definitions/color', description: 'Text colour.' }, definitions),
    { type: 'string', description: 'Text colour.' });
  assert.deepEqual(generator.inlineReferences({ a: [{ $ref: '#/definitions/color' }] }, definitions),
    { a: [{ type: 'string', description: 'A colour.' }] });
  assert.throws(() => generator.inlineReferences({ $ref: '#/definitions/none' }, definitions), /unsupported \$ref/);
  assert.throws(() => generator.inlineReferences({ $ref: 'other.json#/x' }, definitions), /unsupported \$ref/);
  assert.throws(() => generator.inlineReferences({ $ref: '#/definitions/loop' }, definitions), /recursive \$ref/);
});

test('the generator drops a setting whose schema key is gone and keeps the extension\'s own', () => {
  const smaller = { properties: { rules: { type: 'array', items: { type: 'object' } } }, definitions: {} };
  const next = generator.updatedManifest(manifest, smaller);
  assert.deepEqual(Object.keys(next.contributes.configuration.properties),
    ['highlightLs.path', 'highlightLs.decorations', 'highlightLs.trace.server', 'highlightLs.rules']);
  assert.deepEqual(next.contributes.configuration.properties['highlightLs.rules'].default, []);
});

test('the settings sent to the server are the schema\'s keys', () => {
  assert.deepEqual([...serverKeys].sort(), generator.serverKeysOfSchema(schema).sort());
  const own = Object.keys(properties).filter((key) => !serverKeys.includes(key.slice('highlightLs.'.length)));
  assert.deepEqual(own, generator.ownSettings);
});

test('no setting or command uses the highlight. prefix; all are highlightLs.*', () => {
  const names = [
    ...Object.keys(properties),
    ...manifest.contributes.commands.map((command) => command.command),
    ...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations,
  ];
  assert.ok(names.length >= 10);
  for (const name of names) {
    assert.doesNotMatch(name, /^highlight\./, name);
    assert.match(name, /^highlightLs\.[A-Za-z]+(\.[A-Za-z]+)?$/, name);
  }
  // Nor does the code read or register any.
  for (const file of fs.readdirSync(extensionRoot).filter((name) => name.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(extensionRoot, file), 'utf8');
    assert.doesNotMatch(source, /['"]highlight\.[A-Za-z]/, `${file} names a highlight.* key`);
  }
});

test('.highlights.json: JSON validation against the schema copy, and JSONC', () => {
  assert.deepEqual(manifest.contributes.jsonValidation, [{ fileMatch: '.highlights.json', url: './schema/highlights.schema.json' }]);
  const copy = fs.readFileSync(path.join(extensionRoot, 'schema', 'highlights.schema.json'), 'utf8');
  assert.equal(copy, fs.readFileSync(generator.schemaPath, 'utf8'));
  assert.deepEqual(manifest.contributes.languages, [{ id: 'jsonc', filenames: ['.highlights.json'] }]);
});

test('workspace trust: limited, and highlightLs.path is restricted', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.deepEqual(trust.restrictedConfigurations, ['highlightLs.path']);
  assert.ok(trust.description.length > 20);
  assert.equal(properties['highlightLs.path'].default, '');
});

test('the manifest is ready for vsce', () => {
  assert.equal(manifest.main, './extension.js');
  assert.equal(manifest.license, 'MIT');
  assert.deepEqual(Object.keys(manifest.dependencies), ['vscode-languageclient']);
  for (const file of ['extension.js', 'decorations.js', 'decorationModel.js', 'settings.js', 'serverBinary.js', 'languageClient.js', 'README.md']) {
    assert.ok(fs.existsSync(path.join(extensionRoot, file)), file);
  }
  // Only languageClient.js uses the client library.
  for (const file of fs.readdirSync(extensionRoot).filter((name) => name.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(extensionRoot, file), 'utf8');
    assert.equal(source.includes("require('vscode-languageclient"), file === 'languageClient.js', file);
  }
});

test('the README has no relative links, which vsce cannot publish without a repository', () => {
  const readme = fs.readFileSync(path.join(extensionRoot, 'README.md'), 'utf8');
  const relative = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((match) => match[1]).filter((link) => !/^[a-z]+:/.test(link));
  assert.deepEqual(relative, []);
});

test('one version: package.json, the server, the changelog and the minimum server version', () => {
  const version = projectVersion();
  assert.equal(manifest.version, version);
  const changelog = fs.readFileSync(path.join(repositoryRoot, 'CHANGELOG.md'), 'utf8');
  const released = /^## \[?(\d+\.\d+\.\d+)\]?/m.exec(changelog);
  assert.ok(released, 'CHANGELOG.md has a version heading');
  assert.equal(released[1], version, 'the newest CHANGELOG entry is the current version');
  assert.ok(compareVersions(minimumServerVersion, version) <= 0, 'the extension does not need a server newer than itself');
});

/** Sends `initialize` (with `initializationOptions`) to the real server and returns its result. */
async function initializeResult(binary, initializationOptions) {
  const session = serverSession(binary);
  const result = await session.request('initialize', { processId: null, rootUri: null, capabilities: {}, initializationOptions });
  assert.equal(await session.close(), 0);
  return result;
}

test('the semantic token types declared are the real server\'s built-in legend', { skip: skipWithoutServer() }, async () => {
  const declared = manifest.contributes.semanticTokenTypes.map((type) => type.id);
  const scopes = manifest.contributes.semanticTokenScopes[0].scopes;
  for (const options of [{}, { colors: true }]) {
    const result = await initializeResult(realServer(), options);
    const legend = result.capabilities.semanticTokensProvider.legend.tokenTypes;
    assert.ok(legend.length >= 7, JSON.stringify(legend));
    assert.deepEqual([...legend].sort(), [...declared].filter((id) => options.colors || id !== 'color').sort(),
      `legend with ${JSON.stringify(options)}`);
    for (const id of legend) assert.ok(Array.isArray(scopes[id]) && scopes[id].length > 0, `scope fallback for ${id}`);
  }
});
