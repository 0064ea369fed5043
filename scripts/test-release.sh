#!/usr/bin/env bash
# Checks the release path end to end, as a new user on a machine without Swift would meet it:
#
#   scripts/test-release.sh [--binary FILE]
#
# 1. scripts/release.sh builds the archive (or packages FILE, a binary built as it builds one,
#    when given) and its .sha256.
# 2. The archive is unpacked in a temporary folder and its binary run with a PATH that has no
#    Swift toolchain and LD_LIBRARY_PATH unset: `--version` prints the one version, `print`
#    highlights examples/demo.txt (through a pseudo-terminal, so with colours), `list --json`
#    agrees with $HIGHLIGHT_LS_REFERENCE when that names another build (CI: the debug build),
#    the binary needs no shared library (`ldd`: not a dynamic executable), and it is stripped.
#    In the unstripped binary, VEX-encoded instructions appear in VectorKernels' and
#    VectorKernels512's functions only, AVX-512 registers in VectorKernels512's only, and Foundation is not linked (FoundationEssentials is).
# 3. Packaging the same binary at the same commit gives the same archive, byte for byte.
# 4. scripts/install.sh installs it into a temporary prefix, from the archive and from the
#    unpacked folder; a damaged archive is refused.
# 5. scripts/package-vscode.sh --stage-only bundles it into the extension folder, and the
#    extension's own lookup finds and accepts the bundled binary.
# 6. scripts/version.sh checks tags and finds the CHANGELOG section; every script that
#    .github/workflows/release.yml runs exists and is executable.
#
# Prints one line per check and "N checks passed"; exits 1 at the first failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

binary_args=()
unstripped="$root/.build-release/release/highlight-ls"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary_args=(--binary "${2:?--binary needs a file}"); unstripped="$2"; shift 2 ;;
    *) echo "test-release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
checks=0
pass() { checks=$((checks + 1)); echo "ok $checks - $1"; }
fail() { echo "not ok - $1" >&2; exit 1; }

version="$(scripts/version.sh)"

# A PATH without the Swift toolchain, and no LD_LIBRARY_PATH: what a machine without Swift has.
# The PATH is one folder of links to the ordinary tools the scripts use, so that it has no Swift
# even where Swift lives in /usr/bin (the swift container images).
bare_path="$work/bare-bin"
mkdir "$bare_path"
for tool in sh bash env dirname basename mktemp rm mkdir cp mv install find tar gzip sha256sum cat head tail \
  grep sed awk tr wc stat chmod cmp ls uname printf script node; do
  located="$(command -v "$tool" 2>/dev/null || true)"
  case "$located" in /*) ln -s "$located" "$bare_path/$tool" ;; esac
done
bare() { env -u LD_LIBRARY_PATH PATH="$bare_path" "$@"; }
if bare sh -c 'command -v swift || command -v swiftc' >/dev/null 2>&1; then
  fail "the bare PATH still has a Swift toolchain; the check would prove nothing"
fi
pass "no Swift toolchain on the PATH of the checks below, and no LD_LIBRARY_PATH"

# 1. Build the archive.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
archive="$(scripts/release.sh --out "$work/dist" "${binary_args[@]}" | tail -n 1)"
name="highlight-ls-$version-linux-$(uname -m)"
[ "$archive" = "$work/dist/$name.tar.gz" ] || fail "release.sh wrote $archive, expected $name.tar.gz"
pass "release.sh wrote $name.tar.gz"
(cd "$work/dist" && sha256sum --check --quiet "$name.tar.gz.sha256") || fail "the .sha256 does not match"
pass "the .sha256 matches"

# The AVX2 loops stay in VectorKernels and the AVX-512 ones in VectorKernels512 (docs/ARCHITECTURE.md): in
# the unstripped binary, no other Swift function has a VEX- or EVEX-encoded (v-prefixed) instruction, and none
# but VectorKernels512's uses an AVX-512 register (zmm, a mask register, xmm or ymm 16 to 31), so the binary
# runs on any x86-64 CPU and only VectorUnit's checks lead to them; and both modules have some, so the check
# can fail.
if [ "$(uname -m)" = x86_64 ]; then
  command -v objdump >/dev/null || fail "objdump (binutils) is needed to check where the AVX2 code is"
  vex="$(objdump -d --no-show-raw-insn "$unstripped" | awk '
    /^[0-9a-f]+ <.*>:$/ { name = $2; next }
    name !~ /^<\$s/ { next }
    $2 ~ /^v/ { print (name ~ /^<\$s13VectorKernels/ ? "kernel" : name ~ /^<\$s16VectorKernels512/ ? "kernel512" : name) }
    /%(zmm|k[0-7]|[xy]mm(1[6-9]|2[0-9]|3[01]))/ && name !~ /^<\$s16VectorKernels512/ { print "avx512 " name }' | sort | uniq -c)"
  leaked="$(printf '%s\n' "$vex" | grep -v ' kernel$' | grep -v ' kernel512$' | head -5 || true)"
  [ -z "$leaked" ] || fail "AVX instructions outside VectorKernels, or AVX-512 outside VectorKernels512: $leaked"
  printf '%s\n' "$vex" | grep -q ' kernel$' || fail "no AVX instructions in VectorKernels: the check would prove nothing"
  printf '%s\n' "$vex" | grep -q ' kernel512$' || fail "no AVX instructions in VectorKernels512: the check would prove nothing"
  pass "AVX instructions only in VectorKernels' and VectorKernels512's functions, AVX-512 only in VectorKernels512's"
fi

# Foundation stays out (docs/ARCHITECTURE.md, Threads): the product imports FoundationEssentials only, and the
# whole of Foundation would bring ICU's tables (34 MB) and slow every start. FoundationEssentials is there, so
# the symbol check can tell.
command -v nm >/dev/null || fail "nm (binutils) is needed to check which Foundation is linked"
symbols="$(nm "$unstripped")"
! grep -q -e '\$s10Foundation' -e 'icudt' <<<"$symbols" || fail "the binary links Foundation (or ICU's data)"
grep -q '\$s20FoundationEssentials' <<<"$symbols" || fail "no FoundationEssentials symbols: the check would prove nothing"
pass "FoundationEssentials linked, Foundation and ICU's data not"

# 2. Unpack and run it without Swift.
mkdir "$work/unpacked"
tar -xzf "$archive" -C "$work/unpacked"
tree="$work/unpacked/$name"
for file in bin/highlight-ls LICENSE README.md CHANGELOG.md install.sh; do
  [ -f "$tree/$file" ] || fail "the archive lacks $file"
done
pass "the archive has bin/highlight-ls, LICENSE, README.md, CHANGELOG.md and install.sh"
grep -q "^MIT License" "$tree/LICENSE" || fail "LICENSE is not the MIT licence"
pass "LICENSE is MIT"
server="$tree/bin/highlight-ls"

said="$(bare "$server" --version)" || fail "--version failed without Swift"
[ "$said" = "highlight-ls $version" ] || fail "--version printed '$said', expected 'highlight-ls $version'"
pass "--version prints 'highlight-ls $version' without Swift"

plain="$(cd examples && bare "$server" print demo.txt)" || fail "print failed without Swift"
[ "$plain" = "$(cat examples/demo.txt)" ] || fail "print without a terminal is not the file as it is"
pass "print examples/demo.txt runs without Swift (plain text off a terminal)"
if command -v script >/dev/null 2>&1; then
  coloured="$(cd examples && bare script -qec "$server print demo.txt" /dev/null)" || fail "print on a terminal failed"
  escape=$'\e['
  [[ "$coloured" == *"$escape"* ]] || fail "print on a terminal drew no colours"
  stripped="$(printf '%s' "$coloured" | sed 's/\x1b\[[0-9;]*m//g' | tr -d '\r')"
  [ "$stripped" = "$(cat examples/demo.txt)" ] || fail "print on a terminal changed the text"
  pass "print on a terminal colours the highlights and keeps the text"
fi
matches="$(bare "$server" list --json examples/demo.txt)" || fail "list failed"
[ "$(printf '%s\n' "$matches" | grep -c '"rule"')" -ge 5 ] || fail "list found fewer than 5 matches in examples/demo.txt"
printf '%s\n' "$matches" | grep -q '"rule":"ticket","text":"ABC-123"' || fail "list finds no ticket id in examples/demo.txt (examples/.highlights.json)"
pass "list --json finds $(printf '%s\n' "$matches" | wc -l) matches in examples/demo.txt, the ticket id among them"
if [ -n "${HIGHLIGHT_LS_REFERENCE:-}" ]; then
  reference="$("$HIGHLIGHT_LS_REFERENCE" list --json examples/demo.txt)"
  [ "$matches" = "$reference" ] || fail "list --json differs from $HIGHLIGHT_LS_REFERENCE"
  pass "list --json agrees with $HIGHLIGHT_LS_REFERENCE"
fi

libraries="$(ldd "$server" 2>&1)" || true
if ! printf '%s\n' "$libraries" | grep -q 'not a dynamic executable'; then
  printf '%s\n' "$libraries" >&2
  fail "the binary needs shared libraries"
fi
pass "the binary needs no shared library (ldd: $libraries)"
if command -v readelf >/dev/null 2>&1; then
  ! readelf -S "$server" | grep -q '\.symtab' || fail "the binary is not stripped"
  # SwiftPM sets RUNPATH [$ORIGIN]; a toolchain path there would find Swift's libraries only here.
  runpath="$(readelf -d "$server" | sed -n 's/.*R\(UN\)\{0,1\}PATH.*\[\(.*\)\]/\2/p')"
  case "$runpath" in
    ""|'$ORIGIN') ;;
    *) fail "the binary's RUNPATH is $runpath" ;;
  esac
  pass "the binary is stripped, its RUNPATH is ${runpath:-empty} ($(stat -c %s "$server") bytes)"
fi

# 3. Reproducible for a commit.
again="$(scripts/release.sh --out "$work/again" --binary "$server" 2>/dev/null | tail -n 1)"
cmp -s "$archive" "$again" || fail "packaging the same binary again at the same commit gave another archive"
pass "packaging the same binary again at the same commit gives the same archive, byte for byte"

# 4. Install.
bare "$tree/install.sh" "$work/prefix-a" > "$work/install-a.log" || fail "install.sh inside the archive failed"
[ "$(bare "$work/prefix-a/bin/highlight-ls" --version)" = "highlight-ls $version" ] || fail "the installed binary does not run"
grep -q "is not on your PATH" "$work/install-a.log" || fail "install.sh gave no PATH hint for a prefix off PATH"
pass "install.sh in the unpacked archive installs PREFIX/bin/highlight-ls (and says PREFIX/bin is not on PATH)"
bare scripts/install.sh --archive "$archive" "$work/prefix b" > /dev/null || fail "install.sh --archive failed"
cmp -s "$work/prefix b/bin/highlight-ls" "$server" || fail "install.sh --archive installed another binary"
pass "scripts/install.sh --archive ARCHIVE 'PREFIX with a space' installs the same binary"
cp "$archive" "$work/damaged.tar.gz"
cp "$archive.sha256" "$work/damaged.tar.gz.sha256"
sed -i "s/$name.tar.gz/damaged.tar.gz/" "$work/damaged.tar.gz.sha256"
# One byte changed for sure: its bits inverted (writing a fixed byte left an archive whose byte 4096 was that byte
# as it was).
byte="$(od -An -tu1 -j 4096 -N 1 "$work/damaged.tar.gz" | tr -d ' ')"
printf "\\$(printf '%03o' $((255 - byte)))" | dd of="$work/damaged.tar.gz" bs=1 seek=4096 conv=notrunc 2>/dev/null
cmp -s "$archive" "$work/damaged.tar.gz" && fail "the damaged copy is the archive: the check would prove nothing"
if bare scripts/install.sh --archive "$work/damaged.tar.gz" "$work/prefix-c" > /dev/null 2>&1; then fail "a damaged archive was installed"; fi
[ ! -e "$work/prefix-c/bin/highlight-ls" ] || fail "a damaged archive left a binary"
pass "install.sh refuses an archive that does not match its .sha256"

# 5. The VS Code extension with the binary bundled (no npm).
stage="$(scripts/package-vscode.sh --target linux-x64 --server "$archive" --out "$work/vscode" --stage-only | tail -n 1)"
for file in package.json extension.js languageClient.js serverBinary.js schema/highlights.schema.json LICENSE CHANGELOG.md server/highlight-ls; do
  [ -f "$stage/$file" ] || fail "the staged extension lacks $file"
done
[ ! -e "$stage/test" ] && [ ! -e "$stage/bench" ] || fail "the staged extension has its tests or benchmark"
cmp -s "$stage/server/highlight-ls" "$server" || fail "the staged extension bundles another binary"
pass "package-vscode.sh stages the extension with server/highlight-ls, LICENSE and the schema, without tests"
found="$(cd "$stage" && bare node -e '
  const binary = require("./serverBinary");
  const found = binary.findServer({ extensionPath: process.cwd(), pathVariable: "" });
  binary.checkServerVersion(found.path).then((checked) => console.log(found.source, checked.version || JSON.stringify(checked)));
')"
[ "$found" = "bundled $version" ] || fail "the staged extension's lookup gave '$found', expected 'bundled $version'"
pass "the staged extension finds its bundled server and accepts its version"
if scripts/package-vscode.sh --target linux-arm64 --server "$archive" --out "$work/vscode" --stage-only > /dev/null 2>&1; then
  fail "package-vscode.sh bundled an $(uname -m) archive for linux-arm64"
fi
pass "package-vscode.sh refuses an archive built for another platform"

# 6. Versions and the workflow.
scripts/version.sh --check-tag "v$version" || fail "version.sh rejects v$version"
if scripts/version.sh --check-tag "v$version.1" 2>/dev/null; then fail "version.sh accepts v$version.1"; fi
[ "$(scripts/version.sh --notes | grep -c .)" -ge 3 ] || fail "CHANGELOG.md has no notes for $version"
pass "version.sh accepts only v$version and finds its CHANGELOG notes"
workflow=.github/workflows/release.yml
[ -f "$workflow" ] || fail "$workflow is missing"
named="$(grep -oE 'scripts/[A-Za-z0-9_.-]+' "$workflow" | sort -u)"
[ -n "$named" ] || fail "$workflow runs no scripts"
for script in $named; do
  [ -x "$script" ] || fail "$workflow runs $script, which is not an executable file"
done
pass "$workflow runs only scripts that exist: $(echo $named)"
if python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$workflow" <<'EOF' || fail "$workflow is not the expected YAML"
import sys, yaml
workflow = yaml.safe_load(open(sys.argv[1]))
triggers = workflow.get("on", workflow.get(True))
assert triggers["push"]["tags"], "runs on tags"
for name, job in workflow["jobs"].items():
    for step in job["steps"]:
        assert "run" in step or "uses" in step, f"{name}: a step with neither run nor uses"
EOF
  pass "$workflow parses as YAML, runs on tags, and every step runs or uses something"
fi

echo "$checks checks passed"
