// Shared test helpers: temporary folders with stand-in server binaries, and the real server
// from $HIGHLIGHT_LS (as editors/run-tests.sh sets it).
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { lookUpOnPath, isExecutableFile } = require('../serverBinary');

/** The temporary directories made by this process, removed when it exits. */
const temporaryDirectories = [];
process.on('exit', () => {
  for (const directory of temporaryDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

/** A new empty temporary directory, removed when the process exits. */
function temporaryDirectory(prefix = 'highlight-ls-vscode-') {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporaryDirectories.push(directory);
  return directory;
}

/** Writes an executable shell script at `file` that prints `output` and exits with `status`. */
function writeScript(file, output, status = 0) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const quoted = `'${output.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' ${quoted}\nexit ${status}\n`, { mode: 0o755 });
  return file;
}

/** The real server named by $HIGHLIGHT_LS (a path or a name on PATH), or undefined. */
function realServer() {
  const named = process.env.HIGHLIGHT_LS;
  if (!named) return undefined;
  if (named.includes('/')) return isExecutableFile(named) ? path.resolve(named) : undefined;
  return lookUpOnPath(named, process.env.PATH);
}

/** The reason to skip a test that needs the real server, or false when there is one. */
function skipWithoutServer() {
  return realServer() ? false : 'needs the server: set HIGHLIGHT_LS (editors/run-tests.sh does)';
}

/** The repository root. */
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

/** `ServerInfo.version`, the one version of the project, read from the Swift source. */
function projectVersion() {
  const source = fs.readFileSync(path.join(repositoryRoot, 'Sources', 'LanguageServer', 'Server+Lifecycle.swift'), 'utf8');
  const match = /static let version = "([^"]+)"/.exec(source);
  if (!match) throw new Error('ServerInfo.version not found in Server+Lifecycle.swift');
  return match[1];
}

module.exports = { temporaryDirectory, writeScript, realServer, skipWithoutServer, repositoryRoot, projectVersion };
