#!/usr/bin/env bash
# Builds the Python wheel of highlight-ls for this machine, so that `pipx install`, `uv tool
# install`, `pip install` and pre-commit's `additional_dependencies` put the server on PATH:
#
#   scripts/wheel.sh [--out DIR] [--binary FILE]
#
# writes DIR/highlight_ls-VERSION-py3-none-manylinux_2_17_ARCH.whl (DIR defaults to dist/) and
# prints its path as the last line. `--binary FILE` packages a binary built as scripts/release.sh
# builds one (wholly static) instead of building; the release workflow and CI build once.
#
# The wheel holds no Python code. The stripped static binary is the wheel's one script,
# highlight_ls-VERSION.data/scripts/highlight-ls, which installers copy as it is (no `#!python`
# line to rewrite) into the environment's bin folder with its executable bit: the command runs
# the binary itself, no interpreter starts first. The .dist-info has METADATA (the description
# is the README's introduction and its "What it does"), WHEEL (Root-Is-Purelib: false: it is
# platform-specific), the LICENSE and RECORD with the sha256 of every file. The zip is written
# with Python's zipfile, entries sorted and dated from the last commit (SOURCE_DATE_EPOCH), so
# the same binary at the same commit gives the same wheel.
#
# The tag. `py3-none`: any Python 3, no Python ABI (nothing is imported). The platform tag says
# which Linux systems can run the file. The binary links nothing at run time (`ldd`: not a
# dynamic executable; scripts/test-release.sh checks it), so it has no glibc symbol versions to
# constrain the tag, and `auditwheel show` accepts every manylinux policy down to the oldest,
# manylinux_2_5. What remains is the kernel: the static C library from glibc refuses to start on
# a kernel older than the one in the binary's ABI note (NT_GNU_ABI_TAG: Linux 3.2.0 for Debian
# 12's glibc on x86_64, 3.7.0 on aarch64). manylinux_2_5 (CentOS 5, Linux 2.6.18) and
# manylinux_2_12 (CentOS 6, Linux 2.6.32) promise older kernels than that; manylinux_2_17
# (manylinux2014, CentOS 7, Linux 3.10) is the oldest policy whose systems all run it, and
# pip has understood it since 19.3. The script reads the note and refuses a binary that needs a
# kernel newer than 3.10, or one that is dynamically linked (a dynamic binary would need its
# glibc versions audited instead). `musllinux` would be wrong: the binary is not linked against
# musl, and a musl installer accepts manylinux tags only when glibc is present.
#
# aarch64: the script tags a binary for the machine it runs on (manylinux_2_17_aarch64 on an
# aarch64 machine). No aarch64 wheel is built or tested in CI: the CI machine is x86_64 with no
# aarch64 cross toolchain or Swift SDK for cross-compiling, so there is no aarch64 binary to
# package there. The release workflow builds one natively on its arm64 runner (untested so far).
script=wheel.sh
tools="strip readelf python3"
tools_from="binutils, python3"
# shellcheck source=packaging.sh
source "$(dirname "$0")/packaging.sh"
package_options "$@"
package_tools
[ "$(uname -s)" = Linux ] || { echo "wheel.sh: only Linux wheels are built here (this is $(uname -s))" >&2; exit 2; }
arch="$(uname -m)"
case "$arch" in
  x86_64|aarch64) ;;
  *) echo "wheel.sh: no manylinux tag is chosen for $arch" >&2; exit 2 ;;
esac
package_binary

# Static, and no newer kernel than manylinux_2_17's systems have.
if readelf -l "$binary" | grep -q 'INTERP\|Requesting program interpreter'; then
  echo "wheel.sh: $binary is dynamically linked; build it as scripts/release.sh does (-static-executable)" >&2
  exit 1
fi
if readelf -d "$binary" 2>/dev/null | grep -q '(NEEDED)'; then
  echo "wheel.sh: $binary needs shared libraries; build it as scripts/release.sh does" >&2
  exit 1
fi
kernel="$(readelf -n "$binary" | sed -n 's/.*OS: Linux, ABI: \([0-9.]*\).*/\1/p' | head -n 1)"
if [ -n "$kernel" ]; then
  if [ "$(printf '%s\n3.10.0\n' "$kernel" | sort -V | tail -n 1)" != 3.10.0 ]; then
    echo "wheel.sh: $binary needs Linux $kernel, newer than manylinux_2_17's 3.10" >&2
    exit 1
  fi
else
  echo "wheel.sh: $binary has no ABI note naming its oldest kernel; tagging it manylinux_2_17 anyway" >&2
fi

package_stage
strip -o "$stage/highlight-ls" "$binary"
chmod 755 "$stage/highlight-ls"

epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
python3 - "$stage/highlight-ls" "$out" "$version" "$arch" "$epoch" "${HIGHLIGHT_LS_REPOSITORY_URL:-}" <<'EOF'
import base64, hashlib, pathlib, re, sys, time, zipfile

binary, out, version, arch, epoch, repository = sys.argv[1:7]
root = pathlib.Path(".")
name = "highlight_ls"
tag = f"py3-none-manylinux_2_17_{arch}"
wheel_path = pathlib.Path(out) / f"{name}-{version}-{tag}.whl"
dist_info = f"{name}-{version}.dist-info"
data = f"{name}-{version}.data"

# The description: the README's introduction (up to its first "## ") and its "## What it does"
# section. Links into the repository are made absolute when the repository's address is known,
# else left as text.
readme = (root / "README.md").read_text(encoding="utf-8")
sections = re.split(r"(?m)^(?=## )", readme)
features = [s for s in sections if s.startswith("## What it does")]
description = sections[0].rstrip() + "\n\n" + (features[0].rstrip() + "\n" if features else "")
def link(match):
    text, target = match.group(1), match.group(2)
    if re.match(r"[a-z]+:|#", target):
        return match.group(0)
    if repository:
        return f"[{text}]({repository.rstrip('/')}/blob/v{version}/{target})"
    return text
description = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, description)

metadata = [
    "Metadata-Version: 2.4",
    "Name: highlight-ls",
    f"Version: {version}",
    "Summary: A language server and command line tool that highlights TODO, FIXME, ticket ids and words of your own",
    "License-Expression: MIT",
    "License-File: LICENSE",
    "Requires-Python: >=3.8",
    "Keywords: lsp,language-server,todo,fixme,highlight,pre-commit",
    "Classifier: Environment :: Console",
    "Classifier: Intended Audience :: Developers",
    "Classifier: Operating System :: POSIX :: Linux",
    "Classifier: Topic :: Software Development :: Quality Assurance",
    "Classifier: Topic :: Text Editors",
]
if repository:
    metadata.append(f"Project-URL: Source, {repository}")
    metadata.append(f"Project-URL: Changelog, {repository.rstrip('/')}/blob/v{version}/CHANGELOG.md")
metadata.append("Description-Content-Type: text/markdown")
metadata_text = "\n".join(metadata) + "\n\n" + description

wheel_text = "\n".join([
    "Wheel-Version: 1.0",
    "Generator: highlight-ls scripts/wheel.sh",
    "Root-Is-Purelib: false",
    f"Tag: {tag}",
]) + "\n"

files = [
    (f"{data}/scripts/highlight-ls", pathlib.Path(binary).read_bytes(), 0o755),
    (f"{dist_info}/METADATA", metadata_text.encode(), 0o644),
    (f"{dist_info}/WHEEL", wheel_text.encode(), 0o644),
    (f"{dist_info}/licenses/LICENSE", (root / "LICENSE").read_bytes(), 0o644),
]
def record_hash(content):
    digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"
record = "".join(f"{path},{record_hash(content)},{len(content)}\n" for path, content, _ in files)
record += f"{dist_info}/RECORD,,\n"
files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

stamp = time.gmtime(max(int(epoch), 315532800))[:6]  # zip dates start in 1980
tmp = wheel_path.with_suffix(".tmp")
with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
    # The .data folder first and RECORD last, as the wheel specification recommends.
    for path, content, mode in files:
        info = zipfile.ZipInfo(path, date_time=stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = (0o100000 | mode) << 16
        info.create_system = 3  # Unix, so that the mode above is read
        archive.writestr(info, content)
tmp.replace(wheel_path)
print(wheel_path)
EOF
