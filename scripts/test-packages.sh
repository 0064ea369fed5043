#!/usr/bin/env bash
# Checks the packages built around the static binary, as users install them:
#
#   scripts/test-packages.sh [--binary FILE]
#
# FILE is a binary built as scripts/release.sh builds one (default .build-release/release/
# highlight-ls, which scripts/test-release.sh leaves in CI); nothing is built with Swift here.
# The tools come from PyPI into .venv-packages (wheel, twine, auditwheel, pre-commit, pipx, uv).
#
# 1. The wheel (scripts/wheel.sh): its RECORD's hashes hold (`wheel unpack`), `twine check`
#    passes, `auditwheel show` finds no shared library; `pip install` into a fresh virtual
#    environment, `pipx install` and `uv tool install` each put a `highlight-ls` that runs from a
#    folder outside the clone with no Swift on PATH: `--version`, and `list` on a sample tree.
# 2. pre-commit: both hooks of .pre-commit-hooks.yaml through `pre-commit try-repo` on a scratch
#    repository, with the wheel's highlight-ls on PATH: a blocking "DO NOT MERGE" fails them and
#    is named; once removed they pass. Then README's other way, a local hook with
#    `language: python` that installs the wheel itself.
# 3. The Debian package (scripts/deb.sh), when dpkg and apt-get exist and we are root: lintian
#    (when installed) reports no error or warning; `apt-get install ./…deb`, `--version`,
#    `man -w`, the bash completion, then `apt-get remove --purge` leaves none of its files.
#
# Prints one line per check and "N checks passed"; exits 1 at the first failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

binary="$root/.build-release/release/highlight-ls"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$(cd "$(dirname "${2:?--binary needs a file}")" && pwd)/$(basename "$2")"; shift 2 ;;
    *) echo "test-packages.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$binary" ] || { echo "test-packages.sh: no binary at $binary (run scripts/release.sh, or pass --binary)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
checks=0
pass() { checks=$((checks + 1)); echo "ok $checks - $1"; }
fail() { echo "not ok - $1" >&2; exit 1; }
version="$(scripts/version.sh)"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"

tools="$root/.venv-packages"
requirements='wheel>=0.40 twine>=6.1 auditwheel>=6 pre-commit>=3.2 pipx>=1.4 uv>=0.4'
if [ "$(cat "$tools/.requirements" 2>/dev/null || true)" != "$requirements" ]; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  # shellcheck disable=SC2086
  "$tools/bin/pip" install --quiet --disable-pip-version-check $requirements
  echo "$requirements" > "$tools/.requirements"
fi

# A sample tree outside the clone, and a PATH with no Swift: only the folder under test.
sample="$work/sample"
mkdir -p "$sample/src"
printf 'int main(void) { return 0; } // TODO: check the arguments\n' > "$sample/src/main.c"
printf '# FIXME: a real title\n' > "$sample/notes.md"
expected_list="$(cd "$sample" && "$binary" list --color never | sort)"
[ "$(printf '%s\n' "$expected_list" | grep -c .)" -eq 2 ] || fail "the sample tree does not have its two matches: $expected_list"
# Runs PROGRAM from the sample tree with PATH=FOLDER alone and no other environment.
run_from() {
  local folder=$1; shift
  (cd "$sample" && env -i HOME="$work/home" PATH="$folder" "$@")
}
installed_works() {
  local folder=$1 how=$2
  [ -x "$folder/highlight-ls" ] || fail "$how put no highlight-ls in $folder"
  if run_from "$folder" /bin/sh -c 'command -v swift || command -v swiftc' >/dev/null 2>&1; then
    fail "$folder has a Swift toolchain: the check would prove nothing"
  fi
  [ "$(run_from "$folder" highlight-ls --version)" = "highlight-ls $version" ] || fail "$how: highlight-ls --version is not $version"
  [ "$(run_from "$folder" highlight-ls list --color never | sort)" = "$expected_list" ] || fail "$how: highlight-ls list gave another list"
  pass "$how: highlight-ls --version and list run outside the clone with no Swift on PATH"
}
mkdir -p "$work/home"

# 1. The wheel.
wheel="$(scripts/wheel.sh --binary "$binary" --out "$work/dist" | tail -n 1)"
wheel_name="highlight_ls-$version-py3-none-manylinux_2_17_$(uname -m).whl"
[ "$(basename "$wheel")" = "$wheel_name" ] || fail "wheel.sh wrote $wheel, expected $wheel_name"
pass "wheel.sh wrote $wheel_name"
scripts/wheel.sh --binary "$binary" --out "$work/dist-again" > /dev/null
cmp -s "$wheel" "$work/dist-again/$wheel_name" || fail "the same binary at the same commit gave another wheel"
pass "the wheel is reproducible"
"$tools/bin/wheel" unpack --dest "$work/unpacked" "$wheel" > /dev/null || fail "wheel unpack (which checks RECORD's hashes) failed"
unpacked="$work/unpacked/highlight_ls-$version"
[ "$(find "$unpacked" -type f | sed "s|^$unpacked/||" | LC_ALL=C sort | tr '\n' ' ')" = \
  "highlight_ls-$version.data/scripts/highlight-ls highlight_ls-$version.dist-info/METADATA highlight_ls-$version.dist-info/RECORD highlight_ls-$version.dist-info/WHEEL highlight_ls-$version.dist-info/licenses/LICENSE " ] \
  || fail "the wheel holds other files: $(find "$unpacked" -type f)"
grep -qx 'Root-Is-Purelib: false' "$unpacked/highlight_ls-$version.dist-info/WHEEL" || fail "WHEEL does not say Root-Is-Purelib: false"
for field in "Name: highlight-ls" "Version: $version" "Summary: " "License-Expression: MIT" "Requires-Python: " "Description-Content-Type: text/markdown"; do
  grep -q "^$field" "$unpacked/highlight_ls-$version.dist-info/METADATA" || fail "METADATA has no '$field'"
done
pass "the wheel holds the binary as its script, METADATA, WHEEL, LICENSE and RECORD, whose hashes hold"
"$tools/bin/twine" check --strict "$wheel" > "$work/twine.log" 2>&1 || { cat "$work/twine.log" >&2; fail "twine check failed"; }
pass "twine check --strict passes"
"$tools/bin/auditwheel" show "$wheel" > "$work/auditwheel.log" 2>&1 || { cat "$work/auditwheel.log" >&2; fail "auditwheel show failed"; }
grep -q 'requires no external shared libraries' "$work/auditwheel.log" || { cat "$work/auditwheel.log" >&2; fail "auditwheel found shared libraries"; }
pass "auditwheel show: $(tr '\n' ' ' < "$work/auditwheel.log" | sed 's/  */ /g; s/ *$//')"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel" || fail "pip install of the wheel failed"
installed_works "$work/venv/bin" "pip install into a fresh venv"
cmp -s "$work/venv/bin/highlight-ls" "$unpacked/highlight_ls-$version.data/scripts/highlight-ls" || fail "pip installed another file than the wheel's binary"
pass "pip installed the wheel's binary as it is (no Python wrapper)"
env PIPX_HOME="$work/pipx" PIPX_BIN_DIR="$work/pipx-bin" PIPX_MAN_DIR="$work/pipx-man" \
  "$tools/bin/pipx" install --quiet "$wheel" > "$work/pipx.log" 2>&1 || { cat "$work/pipx.log" >&2; fail "pipx install failed"; }
installed_works "$work/pipx-bin" "pipx install"
env UV_TOOL_DIR="$work/uv-tools" UV_TOOL_BIN_DIR="$work/uv-bin" UV_CACHE_DIR="$work/uv-cache" \
  "$tools/bin/uv" tool install --quiet --offline "$wheel" > "$work/uv.log" 2>&1 || { cat "$work/uv.log" >&2; fail "uv tool install failed"; }
installed_works "$work/uv-bin" "uv tool install"

# 2. pre-commit, with the wheel's highlight-ls on PATH (and git, which pre-commit runs).
precommit_path="$work/venv/bin:$(dirname "$(command -v git)")"
scratch="$work/scratch"
git init --quiet "$scratch"
git -C "$scratch" config user.email ci@example.com
git -C "$scratch" config user.name ci
printf '{"rules":[{"name":"dnm","words":["DO NOT MERGE"],"blocking":true}]}\n' > "$scratch/.highlights.json"
printf 'ship it\n' > "$scratch/README.txt"
git -C "$scratch" add -A && git -C "$scratch" commit --quiet -m "a clean start"
printf 'first line\nDO NOT MERGE: the retry is a stub\n' > "$scratch/change.txt"
git -C "$scratch" add change.txt
# try-repo takes the clone's committed hooks, with uncommitted changes to tracked files; a
# .pre-commit-hooks.yaml not yet committed is tried from a one-file repository instead.
hooks_repo="$root"
if [ -z "$(git ls-files .pre-commit-hooks.yaml 2>/dev/null)" ]; then
  hooks_repo="$work/hooks-repo"
  git init --quiet "$hooks_repo"
  cp .pre-commit-hooks.yaml "$hooks_repo/"
  git -C "$hooks_repo" add -A
  git -C "$hooks_repo" -c user.email=ci@example.com -c user.name=ci commit --quiet -m hooks
  echo "# .pre-commit-hooks.yaml is not committed: trying it from a copy in a repository of its own"
fi
try_repo() {
  (cd "$scratch" && env PRE_COMMIT_HOME="$work/pre-commit-home" PATH="$precommit_path" \
    "$tools/bin/pre-commit" try-repo "$hooks_repo" "$@")
}
for hook in highlight-ls-check highlight-ls-check-all; do
  if try_repo "$hook" > "$work/try-repo.log" 2>&1; then
    cat "$work/try-repo.log" >&2; fail "pre-commit try-repo $hook passed with a blocking marker staged"
  fi
  grep -q 'change.txt:2:1: dnm: DO NOT MERGE' "$work/try-repo.log" || { cat "$work/try-repo.log" >&2; fail "$hook did not name the match"; }
  pass "pre-commit try-repo $hook fails on a staged DO NOT MERGE and names it (change.txt:2:1: dnm)"
done
printf 'first line\nthe retry is done\n' > "$scratch/change.txt"
git -C "$scratch" add change.txt
for hook in highlight-ls-check highlight-ls-check-all; do
  try_repo "$hook" > "$work/try-repo.log" 2>&1 || { cat "$work/try-repo.log" >&2; fail "pre-commit try-repo $hook failed with the marker removed"; }
  pass "pre-commit try-repo $hook passes once the marker is removed"
done

# README's wheel variant: a local hook that installs the wheel into pre-commit's own environment.
cat > "$scratch/.pre-commit-config.yaml" <<EOF
repos:
  - repo: local
    hooks:
      - id: highlight-ls-check
        name: highlight-ls check
        entry: highlight-ls check --staged
        language: python
        additional_dependencies: ["highlight-ls @ file://$wheel"]
        types: [text]
        exclude: '(^|/)\\.highlights\\.json\$'
EOF
printf 'DO NOT MERGE\n' > "$scratch/change.txt"
git -C "$scratch" add -A
run_local() {
  (cd "$scratch" && env PRE_COMMIT_HOME="$work/pre-commit-home" PATH="$(dirname "$(command -v git)")" \
    "$tools/bin/pre-commit" run "$@")
}
if run_local > "$work/local.log" 2>&1; then cat "$work/local.log" >&2; fail "the local wheel hook passed a blocking marker"; fi
grep -q 'change.txt:1:1: dnm: DO NOT MERGE' "$work/local.log" || { cat "$work/local.log" >&2; fail "the local wheel hook did not name the match"; }
printf 'done\n' > "$scratch/change.txt"
git -C "$scratch" add -A
run_local > "$work/local.log" 2>&1 || { cat "$work/local.log" >&2; fail "the local wheel hook failed with the marker removed"; }
pass "a local hook with language: python and the wheel in additional_dependencies fails, then passes"

# 3. The Debian package.
if ! command -v dpkg-deb >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
  echo "SKIPPED: the Debian package checks need dpkg-deb, apt-get and root"
  echo "$checks checks passed"
  exit 0
fi
deb="$(scripts/deb.sh --binary "$binary" --out "$work/dist" | tail -n 1)"
deb_name="highlight-ls_${version}_$(dpkg --print-architecture).deb"
[ "$(basename "$deb")" = "$deb_name" ] || fail "deb.sh wrote $deb, expected $deb_name"
pass "deb.sh wrote $deb_name"
dpkg-deb -c "$deb" | awk '$2 != "root/root" { bad = 1 } END { exit bad }' || fail "a file of the package is not root:root"
pass "every file of the package is root:root"
if command -v lintian >/dev/null 2>&1; then
  lintian --fail-on error,warning "$deb" > "$work/lintian.log" 2>&1 || { cat "$work/lintian.log" >&2; fail "lintian reports errors or warnings"; }
  pass "lintian: no error or warning"
else
  echo "SKIPPED: lintian is not installed"
fi
dpkg -s highlight-ls >/dev/null 2>&1 && fail "highlight-ls is installed already; the install check would prove nothing"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get install of the package failed"; }
files="$(dpkg -L highlight-ls | while read -r path; do [ -f "$path" ] && echo "$path"; done)"
[ "$(/usr/bin/highlight-ls --version)" = "highlight-ls $version" ] || fail "the installed /usr/bin/highlight-ls does not say $version"
[ "$(man -w highlight-ls)" = /usr/share/man/man1/highlight-ls.1.gz ] || fail "man -w highlight-ls found $(man -w highlight-ls 2>&1)"
bash -c 'source /usr/share/bash-completion/completions/highlight-ls && complete -p highlight-ls' > /dev/null || fail "the bash completion does not complete highlight-ls"
pass "apt-get install: --version, man -w highlight-ls and the bash completion work ($(echo "$files" | wc -l) files)"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq highlight-ls > "$work/apt.log" 2>&1 || { cat "$work/apt.log" >&2; fail "apt-get remove --purge failed"; }
for path in $files /usr/share/doc/highlight-ls; do
  [ ! -e "$path" ] || fail "$path is left after apt-get remove --purge"
done
dpkg -s highlight-ls >/dev/null 2>&1 && fail "dpkg still knows highlight-ls after the purge"
pass "apt-get remove --purge leaves none of its files"

echo "$checks checks passed"
