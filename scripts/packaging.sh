# Sourced by release.sh, wheel.sh and deb.sh: what every package of the static binary starts with.
# The caller sets `script` (its name, for messages) and `tools` (the commands it needs, with the
# Debian packages that have them in `tools_from`), then calls these in order:
#
#   package_options "$@"     --out DIR (default dist), --binary FILE (default: build it), --help
#   package_tools            every tool of `tools` on PATH, or exit 2
#   package_binary           `binary` built (`swift build` as release.sh builds it) when not given,
#                            an executable that reports `version` (scripts/version.sh), or exit
#   package_stage            `out` made absolute, and `stage`, a folder removed on exit
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
version="$(scripts/version.sh)"

package_options() {
  out="dist"
  binary=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --out) out="${2:?--out needs a folder}"; shift 2 ;;
      --binary) binary="${2:?--binary needs a file}"; shift 2 ;;
      -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
      *) echo "$script: unknown argument $1" >&2; exit 2 ;;
    esac
  done
}

package_tools() {
  local tool
  for tool in $tools; do
    command -v "$tool" >/dev/null 2>&1 || { echo "$script: $tool is needed (Debian: $tools_from)" >&2; exit 2; }
  done
}

package_binary() {
  if [ -z "$binary" ]; then
    swift build -c release --static-swift-stdlib -Xswiftc -static-executable --product highlight-ls \
      --scratch-path .build-release >&2
    binary=".build-release/release/highlight-ls"
  fi
  [ -x "$binary" ] || { echo "$script: $binary is not an executable" >&2; exit 2; }
  # The one version: what the binary says must be what the source says.
  local said
  said="$("$binary" --version)"
  if [ "$said" != "highlight-ls $version" ]; then
    echo "$script: $binary --version says '$said', the source says $version" >&2
    exit 1
  fi
}

package_stage() {
  mkdir -p "$out"
  out="$(cd "$out" && pwd)"
  stage="$(mktemp -d)"
  trap 'rm -rf "$stage"' EXIT
}
