#!/usr/bin/env bash
# Packages the VS Code extension for one platform, with the static server bundled (as
# rust-analyzer does), into dist/highlight-ls-TARGET-VERSION.vsix:
#
#   scripts/package-vscode.sh --target TARGET [--server FILE] [--out DIR] [--stage-only]
#
#   --target      a vsce target: linux-x64, linux-arm64 (the targets release.sh can build for)
#   --server      the server to bundle: a binary, or a release archive (.tar.gz) from
#                 scripts/release.sh. Default: build it with scripts/release.sh, which only works
#                 when TARGET is this machine's platform.
#   --out         where the staging folder and the .vsix go (default dist/)
#   --stage-only  stop after staging OUT/vscode-TARGET/ (no npm): what CI checks
#
# Steps: check that the generated settings are current (scripts/vscode-settings.js --check);
# stage editors/vscode without its tests, plus LICENSE, CHANGELOG.md and server/highlight-ls;
# check the bundled binary's --version against package.json when it runs here; then, in the
# staging folder, `npm ci` (`npm install` while no package-lock.json is committed) and
# `npx @vscode/vsce package --target TARGET`. Set HIGHLIGHT_LS_REPOSITORY_URL to record the
# repository in the packaged manifest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

target=""
server=""
out="dist"
stage_only=false
# The vsce release the packages are made with.
vsce_version="3.2.1"
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="${2:?--target needs a platform}"; shift 2 ;;
    --server) server="${2:?--server needs a file}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --stage-only) stage_only=true; shift ;;
    -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "package-vscode.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

case "$target" in
  linux-x64) machine=x86_64 ;;
  linux-arm64) machine=aarch64 ;;
  "") echo "package-vscode.sh: --target is required (linux-x64, linux-arm64)" >&2; exit 2 ;;
  *) echo "package-vscode.sh: no server build for target $target (linux-x64, linux-arm64)" >&2; exit 2 ;;
esac
native=false
[ "$(uname -s)-$(uname -m)" = "Linux-$machine" ] && native=true

command -v node >/dev/null 2>&1 || { echo "package-vscode.sh: node is needed" >&2; exit 2; }
node scripts/vscode-settings.js --check

version="$(scripts/version.sh)"
manifest_version="$(node -p 'require("./editors/vscode/package.json").version')"
if [ "$manifest_version" != "$version" ]; then
  echo "package-vscode.sh: editors/vscode/package.json has version $manifest_version, the server $version" >&2
  exit 1
fi

mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The server binary for the target.
if [ -z "$server" ]; then
  $native || { echo "package-vscode.sh: this machine cannot build for $target; pass --server" >&2; exit 2; }
  server="$(scripts/release.sh --out "$out" | tail -n 1)"
fi
[ -f "$server" ] || { echo "package-vscode.sh: no server $server" >&2; exit 2; }
case "$server" in
  *.tar.gz)
    tar -xzf "$server" -C "$work"
    set -- "$work"/highlight-ls-*/bin/highlight-ls
    [ $# -eq 1 ] && [ -f "$1" ] || { echo "package-vscode.sh: $server is not a release archive" >&2; exit 1; }
    binary="$1"
    case "$server" in
      *"-linux-$machine.tar.gz") ;;
      *) echo "package-vscode.sh: $server is not built for $target (linux-$machine)" >&2; exit 1 ;;
    esac
    ;;
  *) binary="$server" ;;
esac

# Stage the extension folder as it is published.
stage="$out/vscode-$target"
rm -rf "$stage"
mkdir -p "$stage/server"
(cd editors/vscode && find . -path ./test -prune -o -path ./bench -prune -o -path ./node_modules -prune -o -type f -print) | while read -r file; do
  mkdir -p "$stage/$(dirname "$file")"
  cp "$root/editors/vscode/$file" "$stage/$file"
done
cp LICENSE CHANGELOG.md "$stage/"
cp "$binary" "$stage/server/highlight-ls"
chmod 755 "$stage/server/highlight-ls"
if [ -n "${HIGHLIGHT_LS_REPOSITORY_URL:-}" ]; then
  node -e '
    const fs = require("fs");
    const file = process.argv[1];
    const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
    manifest.repository = { type: "git", url: process.argv[2] };
    fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + "\n");
  ' "$stage/package.json" "$HIGHLIGHT_LS_REPOSITORY_URL"
fi

if $native; then
  said="$("$stage/server/highlight-ls" --version)"
  if [ "$said" != "highlight-ls $version" ]; then
    echo "package-vscode.sh: the bundled server says '$said', the extension is $version" >&2
    exit 1
  fi
fi
echo "package-vscode.sh: staged $stage" >&2

if $stage_only; then
  echo "$stage"
  exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "package-vscode.sh: npm is needed (or use --stage-only)" >&2; exit 2; }
cd "$stage"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  echo "package-vscode.sh: no package-lock.json in editors/vscode; using npm install (commit the lock file it writes)" >&2
  npm install --no-audit --no-fund
fi
vsix="$out/highlight-ls-$target-$version.vsix"
repository_flag=()
[ -n "${HIGHLIGHT_LS_REPOSITORY_URL:-}" ] || repository_flag=(--allow-missing-repository)
npx --yes "@vscode/vsce@$vsce_version" package --target "$target" --out "$vsix" "${repository_flag[@]}"
echo "$vsix"
