#!/usr/bin/env bash
# Installs highlight-ls into a prefix (default ~/.local): the binary into PREFIX/bin, and the man
# page and shell completions into PREFIX/share when there are any.
#
#   scripts/install.sh [PREFIX]                        in the repository: builds the release archive
#                                                      (scripts/release.sh) and installs it; the
#                                                      build is skipped while .build-release's
#                                                      binary is newer than every source file
#   scripts/install.sh --archive FILE.tar.gz [PREFIX]  installs a release archive (its .sha256 is
#                                                      checked when it lies next to it)
#   ./install.sh [PREFIX]                              inside an unpacked release archive: installs it
#
# Prints what it installed, and a hint when PREFIX/bin is not on PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

archive=""
prefix=""
while [ $# -gt 0 ]; do
  case "$1" in
    --archive) archive="${2:?--archive needs a file}"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "install.sh: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$prefix" ] || { echo "install.sh: one PREFIX only" >&2; exit 2; }; prefix="$1"; shift ;;
  esac
done
prefix="${prefix:-$HOME/.local}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ -n "$archive" ]; then
  [ -f "$archive" ] || { echo "install.sh: no archive $archive" >&2; exit 2; }
  if [ -f "$archive.sha256" ]; then
    (cd "$(dirname "$archive")" && sha256sum --check --quiet "$(basename "$archive").sha256") \
      || { echo "install.sh: $archive does not match $archive.sha256" >&2; exit 1; }
  fi
elif [ -x "$here/bin/highlight-ls" ]; then
  # Run from inside an unpacked archive.
  tree="$here"
elif [ -x "$here/release.sh" ]; then
  root="$(cd "$here/.." && pwd)"
  built="$root/.build-release/release/highlight-ls"
  if [ -x "$built" ] && [ -z "$(find "$root/Package.swift" "$root/Sources" -newer "$built" -print -quit 2>/dev/null)" ]; then
    echo "install.sh: .build-release/release/highlight-ls is newer than every source file; not building it again" >&2
    archive="$("$here/release.sh" --out "$work/dist" --binary "$built" | tail -n 1)"
  else
    echo "install.sh: building a static release binary in .build-release (a few minutes the first time, then only what changed); the linker's warnings that 'dlopen' and the like in statically linked applications need shared libraries at run time are expected (scripts/release.sh links statically on purpose)" >&2
    archive="$("$here/release.sh" --out "$work/dist" | tail -n 1)"
  fi
else
  echo "install.sh: run it from the repository (scripts/install.sh), from an unpacked archive, or with --archive" >&2
  exit 2
fi

if [ -n "$archive" ]; then
  mkdir "$work/unpacked"
  tar -xzf "$archive" -C "$work/unpacked"
  set -- "$work/unpacked"/highlight-ls-*/
  [ $# -eq 1 ] && [ -x "$1/bin/highlight-ls" ] || { echo "install.sh: $archive is not a highlight-ls release archive" >&2; exit 1; }
  tree="${1%/}"
fi

install -d "$prefix/bin"
install -m 755 "$tree/bin/highlight-ls" "$prefix/bin/highlight-ls"
echo "installed $prefix/bin/highlight-ls"
if [ -d "$tree/share" ]; then
  (cd "$tree" && find share -type f) | while read -r file; do
    install -D -m 644 "$tree/$file" "$prefix/$file"
    echo "installed $prefix/$file"
  done
fi

"$prefix/bin/highlight-ls" --version
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it, or set your editor's highlight-ls path to $prefix/bin/highlight-ls" ;;
esac
