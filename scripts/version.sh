#!/usr/bin/env bash
# The project's one version, read from where it is defined (ServerInfo.version in
# Sources/LanguageServer/Server+Lifecycle.swift).
#
#   scripts/version.sh                  prints it (0.1.0)
#   scripts/version.sh --check-tag TAG  exits 1 unless TAG is vVERSION or VERSION (for the release workflow)
#   scripts/version.sh --notes          prints the version's section of CHANGELOG.md (exit 1 when it has none)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source_file="$root/Sources/LanguageServer/Server+Lifecycle.swift"

version="$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' "$source_file")"
if [ -z "$version" ] || [ "$(printf '%s\n' "$version" | wc -l)" -ne 1 ]; then
  echo "version.sh: no single 'public static let version = \"...\"' in $source_file" >&2
  exit 2
fi

case "${1:-}" in
  "")
    echo "$version"
    ;;
  --check-tag)
    tag="${2:?usage: scripts/version.sh --check-tag TAG}"
    if [ "$tag" != "v$version" ] && [ "$tag" != "$version" ]; then
      echo "version.sh: tag $tag does not match the version $version (ServerInfo.version)" >&2
      exit 1
    fi
    ;;
  --notes)
    # From the heading "## VERSION ..." (or "## [VERSION]") to the next "## ".
    notes="$(awk -v version="$version" '
      /^## / { if (found) exit; heading = $2; gsub(/[][]/, "", heading); if (heading == version) { found = 1; next } }
      found { print }
    ' "$root/CHANGELOG.md")"
    if [ -z "$(printf '%s' "$notes" | tr -d '[:space:]')" ]; then
      echo "version.sh: CHANGELOG.md has no section for $version" >&2
      exit 1
    fi
    printf '%s\n' "$notes"
    ;;
  *)
    echo "usage: scripts/version.sh [--check-tag TAG | --notes]" >&2
    exit 2
    ;;
esac
