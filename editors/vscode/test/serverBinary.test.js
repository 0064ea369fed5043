// Tests of serverBinary.js (which binary, and whether it is new enough) and settings.js (what
// the server and the launcher read), on real files where files are involved.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const binary = require('../serverBinary');
const { serverSection, configuredServerPath, userValue } = require('../settings');
const { temporaryDirectory, writeScript, realServer, skipWithoutServer, projectVersion } = require('./helpers');

test('findServer: the order, as a table over which files are executable', async (t) => {
  const ext = '/ext';
  const bundled = '/ext/server/highlight-ls';
  const cases = [
    // name, configured path, executable files, PATH, expected
    ['bundled first when nothing is set', '', [bundled, '/bin/highlight-ls'], '/bin', { path: bundled, source: 'bundled' }],
    ['then PATH', '', ['/bin/highlight-ls'], '/usr/bin:/bin', { path: '/bin/highlight-ls', source: 'PATH' }],
    ['PATH in its order', '', ['/a/highlight-ls', '/b/highlight-ls'], '/b::/a', { path: '/b/highlight-ls', source: 'PATH' }],
    ['the setting before everything', '/opt/hls', [bundled, '/opt/hls'], '/bin', { path: '/opt/hls', source: 'setting' }],
    ['a name in the setting is looked up on PATH', 'hls-dev', [bundled, '/bin/hls-dev'], '/bin', { path: '/bin/hls-dev', source: 'setting' }],
    ['~ in the setting is the home folder', '~/bin/highlight-ls', ['/home/u/bin/highlight-ls'], '', { path: '/home/u/bin/highlight-ls', source: 'setting' }],
    ['blanks around the setting are ignored', '  /opt/hls ', ['/opt/hls'], '', { path: '/opt/hls', source: 'setting' }],
    ['a set but unusable setting is an error, not a fallback', '/opt/none', [bundled], '/bin', { problem: 'setting-unusable', configuredPath: '/opt/none' }],
    ['nothing anywhere', '', [], '/bin', { problem: 'missing', looked: [bundled, 'highlight-ls on PATH'] }],
  ];
  for (const [name, configuredPath, executables, pathVariable, expected] of cases) {
    await t.test(name, () => {
      const found = binary.findServer({
        extensionPath: ext, configuredPath, pathVariable, home: '/home/u', platform: 'linux',
        isExecutable: (file) => executables.includes(file),
      });
      assert.deepEqual(found, expected);
    });
  }
});

test('findServer on real files: a directory or a file without the execute bit does not count', () => {
  const folder = temporaryDirectory();
  fs.mkdirSync(path.join(folder, 'server', 'highlight-ls'), { recursive: true });
  const plain = path.join(folder, 'bin', 'highlight-ls');
  fs.mkdirSync(path.dirname(plain));
  fs.writeFileSync(plain, 'not executable', { mode: 0o644 });
  assert.equal(binary.findServer({ extensionPath: folder, pathVariable: path.dirname(plain) }).problem, 'missing');
  fs.chmodSync(plain, 0o755);
  assert.deepEqual(binary.findServer({ extensionPath: folder, pathVariable: path.dirname(plain) }), { path: plain, source: 'PATH' });
});

test('executable names per platform', () => {
  assert.equal(binary.bundledPath('/e', 'linux'), path.join('/e', 'server', 'highlight-ls'));
  assert.equal(binary.bundledPath('/e', 'darwin'), path.join('/e', 'server', 'highlight-ls'));
  assert.equal(binary.bundledPath('/e', 'win32'), path.join('/e', 'server', 'highlight-ls.exe'));
});

test('versions: parsed, compared, judged', async (t) => {
  assert.deepEqual(binary.parseVersion('1.20.3-beta'), [1, 20, 3]);
  assert.equal(binary.parseVersion('1.2'), undefined);
  const comparisons = [['0.1.0', '0.1.0', 0], ['0.1.0', '0.2.0', -1], ['1.0.0', '0.9.9', 1], ['0.10.0', '0.9.0', 1], ['0.1.10', '0.1.9', 1]];
  for (const [a, b, sign] of comparisons) assert.equal(Math.sign(binary.compareVersions(a, b)), sign, `${a} vs ${b}`);
  assert.ok(Number.isNaN(binary.compareVersions('x', '0.1.0')));
  const outputs = [
    ['highlight-ls 0.1.0\n', { version: '0.1.0' }],
    ['highlight-ls 2.0.0-rc.1\n', { version: '2.0.0-rc.1' }],
    ['highlight-ls 0.0.9\n', { problem: 'too-old', version: '0.0.9' }],
    ['ripgrep 14.1.0\n', { problem: 'unrecognised', output: 'ripgrep 14.1.0' }],
    ['', { problem: 'unrecognised', output: '' }],
  ];
  for (const [output, expected] of outputs) {
    await t.test(JSON.stringify(output), () => assert.deepEqual(binary.judgeVersionOutput(output, '0.1.0'), expected));
  }
});

test('checkServerVersion runs the binary', async (t) => {
  const folder = temporaryDirectory();
  const cases = [
    ['new enough', writeScript(path.join(folder, 'ok'), 'highlight-ls 0.1.0'), { version: '0.1.0' }],
    ['too old', writeScript(path.join(folder, 'old'), 'highlight-ls 0.0.1'), { problem: 'too-old', version: '0.0.1' }],
    ['fails', writeScript(path.join(folder, 'fails'), 'no', 3), { problem: 'failed', reason: 'exit status 3: no' }],
    ['missing', path.join(folder, 'none'), { problem: 'failed', reason: 'not found' }],
  ];
  fs.writeFileSync(path.join(folder, 'plain'), '#!/bin/sh\n', { mode: 0o644 });
  cases.push(['not executable', path.join(folder, 'plain'), { problem: 'failed', reason: 'not executable' }]);
  for (const [name, file, expected] of cases) {
    await t.test(name, async () => assert.deepEqual(await binary.checkServerVersion(file, '0.1.0'), expected));
  }
});

test('the real server prints the project version and passes the check', { skip: skipWithoutServer() }, async () => {
  assert.deepEqual(await binary.checkServerVersion(realServer()), { version: projectVersion() });
});

test('every problem has a message that says what to do', () => {
  const problems = [
    [{ problem: 'missing', looked: ['/e/server/highlight-ls', 'highlight-ls on PATH'] }, /not found .*Install .*highlightLs\.path/],
    [{ problem: 'setting-unusable', configuredPath: '/x' }, /"\/x", which is not an executable file\. Correct the setting, or clear it/],
    [{ problem: 'too-old', version: '0.0.1' }, /\/b is version 0\.0\.1, and this extension needs .* or later\. Install a newer server/],
    [{ problem: 'unrecognised', output: 'x' }, /\/b --version printed "x"/],
    [{ problem: 'failed', reason: 'not executable' }, /\/b could not be run \(not executable\)/],
    [{ problem: 'other' }, /could not be started\. Install/],
  ];
  for (const [problem, expected] of problems) assert.match(binary.problemMessage(problem, '/b'), expected);
});

test('serverSection sends only the keys the user set, the most specific scope winning', () => {
  const inspected = {
    rules: { defaultValue: [], globalValue: [{ name: 'a', words: ['A'] }], workspaceFolderValue: [{ name: 'b', words: ['B'] }] },
    styles: { defaultValue: {} },
    defaults: { defaultValue: true, workspaceValue: false },
    colors: { defaultValue: false, globalValue: true },
    path: { defaultValue: '', globalValue: '/opt/bin/highlight-ls' },
    decorations: { defaultValue: true, globalValue: false },
  };
  assert.deepEqual(serverSection((key) => inspected[key]), { rules: [{ name: 'b', words: ['B'] }], defaults: false, colors: true });
  assert.deepEqual(serverSection(() => undefined), {});
});

test('configuredServerPath: a workspace value counts only in a trusted workspace', () => {
  const inspect = (values) => (key) => (key === 'path' ? { defaultValue: '', ...values } : undefined);
  assert.equal(configuredServerPath(inspect({ workspaceValue: '/w', globalValue: '/g' }), true), '/w');
  assert.equal(configuredServerPath(inspect({ workspaceValue: '/w', globalValue: '/g' }), false), '/g');
  assert.equal(configuredServerPath(inspect({ workspaceFolderValue: '/f' }), false), '');
  assert.equal(configuredServerPath(inspect({}), true), '');
  assert.equal(configuredServerPath(inspect({ globalValue: 7 }), true), '');
  assert.equal(userValue(undefined), undefined);
});
