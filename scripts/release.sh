#!/usr/bin/env bash
# Builds the release archive of highlight-ls for this machine:
#
#   scripts/release.sh [--out DIR] [--binary FILE]
#
# writes DIR/highlight-ls-VERSION-linux-ARCH.tar.gz (DIR defaults to dist/) and its .sha256, and
# prints the archive's path as the last line. The binary is linked wholly statically: the Swift
# standard library and FoundationEssentials (`--static-swift-stdlib`) and the C libraries too
# (`-static-executable`), so it needs no shared library at all and starts without the dynamic
# loader (3 ms sooner, BENCHMARKS.md); it calls none of the C library's name services, the one
# part a static C library would want at run time. It is stripped. `--binary FILE` packages a binary
# built that way beforehand instead of building (the release workflow and the tests build once).
#
# The archive unpacks to one folder laid out like an installation prefix:
#
#   highlight-ls-VERSION-linux-ARCH/
#     bin/highlight-ls
#     share/man/man1/highlight-ls.1                        when the repository has a man page
#     share/bash-completion/completions/highlight-ls       when it has completions
#     share/zsh/site-functions/_highlight-ls
#     share/fish/vendor_completions.d/highlight-ls.fish
#     install.sh  LICENSE  README.md  CHANGELOG.md
#
# so `install.sh` inside it (or scripts/install.sh --archive) copies it into a prefix. The archive
# is reproducible for a commit: sorted names, owner 0, mtimes of the last commit, gzip without a
# timestamp.
script=release.sh
tools="strip tar gzip sha256sum"
tools_from="binutils, tar, gzip, coreutils"
# shellcheck source=packaging.sh
source "$(dirname "$0")/packaging.sh"
package_options "$@"
package_tools
case "$(uname -s)" in
  Linux) os=linux ;;
  *) echo "release.sh: only Linux archives are built here (this is $(uname -s))" >&2; exit 2 ;;
esac
arch="$(uname -m)"
name="highlight-ls-$version-$os-$arch"
package_binary
package_stage
tree="$stage/$name"
mkdir -p "$tree/bin"
strip -o "$tree/bin/highlight-ls" "$binary"
chmod 755 "$tree/bin/highlight-ls"
cp LICENSE README.md CHANGELOG.md "$tree/"
cp scripts/install.sh "$tree/install.sh"
chmod 755 "$tree/install.sh"

# The man page and shell completions, wherever the repository keeps them (they are optional).
tracked() { git ls-files 2>/dev/null | grep -E "$1" | head -n 1 || true; }
place() {
  local source=$1 target=$2
  [ -n "$source" ] && [ -f "$source" ] || return 0
  mkdir -p "$(dirname "$tree/$target")"
  cp "$source" "$tree/$target"
  echo "release.sh: + $target (from $source)" >&2
}
place "$(tracked '(^|/)highlight-ls\.1$')" share/man/man1/highlight-ls.1
place "$(tracked '(^|/)completions?/(highlight-ls\.bash|highlight-ls)$|(^|/)highlight-ls\.bash$')" share/bash-completion/completions/highlight-ls
place "$(tracked '(^|/)_highlight-ls$')" share/zsh/site-functions/_highlight-ls
place "$(tracked '(^|/)highlight-ls\.fish$')" share/fish/vendor_completions.d/highlight-ls.fish

epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
archive="$out/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$stage" -cf - "$name" | gzip -n -9 > "$archive"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

size() { stat -c %s "$1"; }
echo "release.sh: binary $(size "$binary") bytes, stripped $(size "$tree/bin/highlight-ls") bytes, archive $(size "$archive") bytes" >&2
echo "$archive"
