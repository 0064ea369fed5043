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

/**
 * A session with a real server over stdio, framed by hand (the test's own small client):
 * `request(method, params)` resolves to the result, `notify(method, params)` sends,
 * `next(method)` resolves to the params of the next notification of that method, and
 * `close()` shuts the server down and resolves to its exit code.
 */
function serverSession(binary) {
  const { spawn } = require('node:child_process');
  const server = spawn(binary, [], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = Buffer.alloc(0);
  let nextId = 1;
  const pending = new Map();
  const waiting = [];
  const unclaimed = [];
  const send = (message) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    server.stdin.write(body);
  };
  const deliver = (message) => {
    if (message.id !== undefined && message.method === undefined) {
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      if (resolve) resolve(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
      return;
    }
    if (message.id !== undefined) {
      // A request from the server (configuration, registration): answer as a quiet client.
      send({ id: message.id, result: message.method === 'workspace/configuration' ? message.params.items.map(() => null) : null });
      return;
    }
    const index = waiting.findIndex((entry) => entry.method === message.method);
    if (index >= 0) waiting.splice(index, 1)[0].resolve(message.params);
    else unclaimed.push(message);
  };
  server.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = /Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString());
      if (!header) throw new Error('a message without Content-Length');
      const length = Number(header[1]);
      if (buffer.length < end + 4 + length) return;
      const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
      buffer = buffer.subarray(end + 4 + length);
      deliver(message);
    }
  });
  const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));
  return {
    request(method, params) {
      const id = nextId;
      nextId += 1;
      send({ id, method, params });
      return new Promise((resolve) => pending.set(id, resolve));
    },
    notify(method, params) { send({ method, params }); },
    next(method) {
      const index = unclaimed.findIndex((message) => message.method === method);
      if (index >= 0) return Promise.resolve(unclaimed.splice(index, 1)[0].params);
      return new Promise((resolve) => waiting.push({ method, resolve }));
    },
    async close() {
      await this.request('shutdown', null);
      this.notify('exit', null);
      return exited;
    },
  };
}

module.exports.serverSession = serverSession;
