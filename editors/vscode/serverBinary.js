// Which highlight-ls binary the extension runs, and whether it is new enough: plain functions
// without `vscode`, so that node's own test runner checks them on real files.
//
// The binary is, in this order:
//   1. `highlightLs.path` when the user set it (an absolute path, `~/...`, or a name looked up on
//      PATH). A path that is set but not usable is an error, not a reason to run another binary.
//   2. `server/highlight-ls` inside the extension (the per-platform .vsix bundles a static build).
//   3. `highlight-ls` on PATH.
// Before the client starts, `<binary> --version` must print `highlight-ls X.Y.Z` with X.Y.Z at
// least `minimumServerVersion`; otherwise the user gets a message that says what to do.
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');

/** The oldest server this extension works with (the `highlight/publishDecorations` payload of 0.1.0). */
const minimumServerVersion = '0.1.0';

/** How long `--version` may take before the binary counts as broken. */
const versionTimeoutMilliseconds = 10000;

/** The file name of the server executable on `platform` (`process.platform`). */
function executableName(platform = process.platform) {
  return platform === 'win32' ? 'highlight-ls.exe' : 'highlight-ls';
}

/** The binary bundled inside the extension folder. */
function bundledPath(extensionPath, platform = process.platform) {
  return path.join(extensionPath, 'server', executableName(platform));
}

/** Whether `file` is a regular file this process may execute. */
function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on a PATH string that is an executable file, or undefined. */
function lookUpOnPath(name, pathVariable, isExecutable = isExecutableFile, platform = process.platform) {
  const separator = platform === 'win32' ? ';' : ':';
  for (const directory of (pathVariable || '').split(separator)) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Finds the server. `options`: `extensionPath`, `configuredPath` (the setting, '' or undefined
 * when unset), `pathVariable` (PATH), `home`, `platform`, `isExecutable` (for tests).
 * Returns `{ path, source }` with source `setting`, `bundled` or `PATH`, or
 * `{ problem: 'setting-unusable' | 'missing', ... }` describing what was looked at.
 */
function findServer(options) {
  const platform = options.platform || process.platform;
  const isExecutable = options.isExecutable || isExecutableFile;
  const name = executableName(platform);
  const configured = typeof options.configuredPath === 'string' ? options.configuredPath.trim() : '';
  if (configured !== '') {
    let candidate = configured;
    if (candidate === '~' || candidate.startsWith('~/')) candidate = path.join(options.home || os.homedir(), candidate.slice(1));
    const resolved = candidate.includes('/') || candidate.includes(path.sep)
      ? (isExecutable(candidate) ? candidate : undefined)
      : lookUpOnPath(candidate, options.pathVariable, isExecutable, platform);
    if (resolved) return { path: resolved, source: 'setting' };
    return { problem: 'setting-unusable', configuredPath: configured };
  }
  const looked = [];
  if (options.extensionPath) {
    const bundled = bundledPath(options.extensionPath, platform);
    if (isExecutable(bundled)) return { path: bundled, source: 'bundled' };
    looked.push(bundled);
  }
  const onPath = lookUpOnPath(name, options.pathVariable, isExecutable, platform);
  if (onPath) return { path: onPath, source: 'PATH' };
  looked.push(`${name} on PATH`);
  return { problem: 'missing', looked };
}

/** `[major, minor, patch]` of `X.Y.Z` (a pre-release or build suffix is ignored), or undefined. */
function parseVersion(text) {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(text || '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Negative, zero or positive as version `a` is below, equal to or above `b`. */
function compareVersions(a, b) {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (!x || !y) return Number.NaN;
  for (let index = 0; index < 3; index += 1) {
    if (x[index] !== y[index]) return x[index] - y[index];
  }
  return 0;
}

/**
 * Judges the output of `--version`. Returns `{ version }` when it is a highlight-ls new enough,
 * else `{ problem: 'unrecognised' | 'too-old', output, version }`.
 */
function judgeVersionOutput(output, minimum = minimumServerVersion) {
  const match = /^highlight-ls (\d+\.\d+\.\d+\S*)\s*$/m.exec(output || '');
  if (!match) return { problem: 'unrecognised', output: (output || '').trim() };
  if (compareVersions(match[1], minimum) < 0) return { problem: 'too-old', version: match[1] };
  return { version: match[1] };
}

/** Runs `<binary> --version` and judges it; resolves to `{ version }` or `{ problem, ... }`, never rejects. */
function checkServerVersion(binary, minimum = minimumServerVersion) {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { timeout: versionTimeoutMilliseconds, windowsHide: true }, (error, stdout, stderr) => {
      if (error) {
        const said = (String(stderr).trim() || String(stdout).trim()).split('\n')[0].slice(0, 120);
        const reason = error.code === 'ENOENT' ? 'not found'
          : error.code === 'EACCES' ? 'not executable'
            : error.killed ? `no answer within ${versionTimeoutMilliseconds / 1000} s`
              : typeof error.code === 'number' ? `exit status ${error.code}${said ? `: ${said}` : ''}`
                : (said || error.message);
        resolve({ problem: 'failed', reason });
        return;
      }
      resolve(judgeVersionOutput(String(stdout), minimum));
    });
  });
}

/** How to install the server, for messages. */
const installHint = 'Install the server with `scripts/install.sh` from the highlight-ls repository (it puts `highlight-ls` in ~/.local/bin), install a .vsix built for your platform (it bundles the server), or set `highlightLs.path` to the binary.';

/** A message for the user about a problem from findServer or checkServerVersion: what is wrong, then the fix. */
function problemMessage(problem, binary) {
  switch (problem.problem) {
    case 'setting-unusable':
      return `highlight-ls: highlightLs.path is "${problem.configuredPath}", which is not an executable file. Correct the setting, or clear it to use the bundled server or highlight-ls on PATH.`;
    case 'missing':
      return `highlight-ls: the server binary was not found (looked for ${problem.looked.join(', ')}). ${installHint}`;
    case 'too-old':
      return `highlight-ls: ${binary} is version ${problem.version}, and this extension needs ${minimumServerVersion} or later. Install a newer server, or point highlightLs.path at one. ${installHint}`;
    case 'unrecognised':
      return `highlight-ls: ${binary} --version printed "${problem.output.slice(0, 80)}", not "highlight-ls X.Y.Z", so it is not the highlight-ls server. Point highlightLs.path at highlight-ls. ${installHint}`;
    case 'failed':
      return `highlight-ls: ${binary} could not be run (${problem.reason}); it may be built for another platform. ${installHint}`;
    default:
      return `highlight-ls: the server could not be started. ${installHint}`;
  }
}

module.exports = {
  minimumServerVersion, executableName, bundledPath, isExecutableFile, lookUpOnPath, findServer,
  parseVersion, compareVersions, judgeVersionOutput, checkServerVersion, problemMessage,
};
