#!/usr/bin/env bash
# Builds the Debian package of highlight-ls for this machine with dpkg-deb:
#
#   scripts/deb.sh [--out DIR] [--binary FILE]
#
# writes DIR/highlight-ls_VERSION_ARCH.deb (DIR defaults to dist/; ARCH is dpkg's name, amd64 or
# arm64) and prints its path as the last line. `--binary FILE` packages a binary built as
# scripts/release.sh builds one (wholly static) instead of building; CI builds once.
#
# The package installs
#
#   /usr/bin/highlight-ls                                       stripped, static
#   /usr/share/man/man1/highlight-ls.1.gz                       docs/highlight-ls.1
#   /usr/share/bash-completion/completions/highlight-ls         completions/highlight-ls.bash
#   /usr/share/zsh/vendor-completions/_highlight-ls             completions/_highlight-ls
#   /usr/share/fish/vendor_completions.d/highlight-ls.fish      completions/highlight-ls.fish
#   /usr/share/doc/highlight-ls/copyright                       machine-readable (DEP-5), from LICENSE
#   /usr/share/doc/highlight-ls/changelog.Debian.gz             the package's own changelog
#   /usr/share/doc/highlight-ls/changelog.gz                    CHANGELOG.md, the project's
#   /usr/share/lintian/overrides/highlight-ls                   why the static binary is static
#
# owned by root (dpkg-deb --root-owner-group), directories and the binary 0755, files 0644, every
# date the last commit's (SOURCE_DATE_EPOCH), so the same binary at the same commit gives the same
# package. The version is ServerInfo.version as it is (0.1.0): the project builds its own package
# from its own tree, a native package in Debian's terms, so the version has no Debian revision.
# `lintian` (Debian 12's) then reports nothing, not even information, but for its spelling check
# of strings inside the Swift runtime; scripts/test-packages.sh fails on any error or warning.
# The maintainer is a role address (DEB_MAINTAINER overrides it); lintian accepts `.invalid`.
#
# The static binary: it depends on no package (Depends: none; `ldd` says it is not a dynamic
# executable), so one .deb installs on any Debian or Ubuntu release of its architecture. Lintian
# flags static executables because a library fix would not reach them; the override says why this
# one is static on purpose.
script=deb.sh
tools="dpkg-deb strip gzip md5sum"
tools_from="dpkg, binutils, gzip, coreutils"
# shellcheck source=packaging.sh
source "$(dirname "$0")/packaging.sh"
package_options "$@"
package_tools
upstream="$version"
case "$(uname -m)" in
  x86_64) arch=amd64 ;;
  aarch64) arch=arm64 ;;
  *) echo "deb.sh: no Debian architecture is chosen for $(uname -m)" >&2; exit 2 ;;
esac
package_binary
package_stage
umask 022
tree="$stage/highlight-ls"
doc="$tree/usr/share/doc/highlight-ls"
mkdir -p "$tree/DEBIAN" "$tree/usr/bin" "$tree/usr/share/man/man1" "$doc" \
  "$tree/usr/share/bash-completion/completions" "$tree/usr/share/zsh/vendor-completions" \
  "$tree/usr/share/fish/vendor_completions.d" "$tree/usr/share/lintian/overrides"

epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH="$epoch"
date_rfc2822="$(LC_ALL=C date -u -R -d "@$epoch")"
year="$(date -u -d "@$epoch" +%Y)"
maintainer="${DEB_MAINTAINER:-highlight-ls maintainers <maintainers@highlight-ls.invalid>}"

strip --strip-all --remove-section=.comment --remove-section=.note -o "$tree/usr/bin/highlight-ls" "$binary"
chmod 755 "$tree/usr/bin/highlight-ls"
gzip -n -9 -c docs/highlight-ls.1 > "$tree/usr/share/man/man1/highlight-ls.1.gz"
install -m 644 completions/highlight-ls.bash "$tree/usr/share/bash-completion/completions/highlight-ls"
install -m 644 completions/_highlight-ls "$tree/usr/share/zsh/vendor-completions/_highlight-ls"
install -m 644 completions/highlight-ls.fish "$tree/usr/share/fish/vendor_completions.d/highlight-ls.fish"
gzip -n -9 -c CHANGELOG.md > "$doc/changelog.gz"

# The copyright file, machine-readable: the license is LICENSE's text (MIT is "Expat" in Debian's
# names), each paragraph line indented, empty lines as " .".
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: highlight-ls"
  echo
  echo "Files: *"
  echo "Copyright: $(sed -n 's/^Copyright (c) //p' LICENSE | head -n 1)"
  echo "License: Expat"
  echo
  echo "License: Expat"
  # The text after the title and copyright lines.
  awk 'NR > 1 && !/^Copyright/ { print }' LICENSE | sed -e '/./,$!d' | sed -e 's/^$/./' -e 's/^/ /'
} > "$doc/copyright"
grep -q 'Permission is hereby granted' "$doc/copyright" || { echo "deb.sh: LICENSE is not the MIT license this script expects" >&2; exit 1; }

# The package's changelog, in Debian's format.
cat > "$stage/changelog.Debian" <<EOF
highlight-ls ($version) unstable; urgency=medium

  * highlight-ls $upstream: the static binary, its man page and its bash, zsh
    and fish completions. The release's changes are in changelog.gz.

 -- $maintainer  $date_rfc2822
EOF
gzip -n -9 -c "$stage/changelog.Debian" > "$doc/changelog.Debian.gz"

cat > "$tree/usr/share/lintian/overrides/highlight-ls" <<'EOF'
# Static on purpose: one binary that needs no shared library, the same in the release archive,
# the wheel and this package, and no Swift runtime package to depend on.
highlight-ls: statically-linked-binary [usr/bin/highlight-ls]
EOF

find "$tree" -type d -exec chmod 755 {} +
find "$tree/usr" -type f ! -path '*/usr/bin/*' -exec chmod 644 {} +

installed_size="$(du -k -s --apparent-size --exclude=DEBIAN "$tree" | cut -f1)"
cat > "$tree/DEBIAN/control" <<EOF
Package: highlight-ls
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Section: devel
Priority: optional
Description: language server that highlights TODO, FIXME and ticket ids
 highlight-ls highlights the words and patterns a team cares about (TODO,
 FIXME, ticket ids such as ABC-123, deprecated names, words of its own) in
 every editor that speaks the Language Server Protocol, from one
 configuration file checked into the repository.
 .
 On the command line, "highlight-ls list" prints every match as
 path:line:column, "highlight-ls print" shows files with their highlights in
 colour, and "highlight-ls check" fails when a blocking rule matches (a
 "DO NOT MERGE" gate for CI or pre-commit).
 .
 The binary is statically linked and needs no shared library.
EOF
(cd "$tree" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$tree/DEBIAN/md5sums"
chmod 644 "$tree/DEBIAN/control" "$tree/DEBIAN/md5sums"
find "$tree" -exec touch -h -d "@$epoch" {} +

deb="$out/highlight-ls_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >&2
echo "$deb"
