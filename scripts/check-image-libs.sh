#!/usr/bin/env bash
# Checks that deploy/image/runtime-packages.txt (what the Dockerfile's runtime
# stage installs) names exactly the Debian packages owning the shared
# libraries each shipped binary loads, per `ldd` and `dpkg -S`: a missing
# package would make the image fail at start, an extra one only bloats it.
# The three images share the list, so it must be exact for every binary.
#
#   scripts/check-image-libs.sh [PACKAGE_LIST [BINARY...]]
#   (default: the list and the default preset's three binaries)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

list=${1:-deploy/image/runtime-packages.txt}
shift || true
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=(build/default/cmd/csi-attacher/csi-attacher
  build/default/cmd/csi-snapshotter/csi-snapshotter
  build/default/cmd/snapshot-controller/snapshot-controller)

# The package owning a library path. ldd may report /lib/... for a file dpkg
# registered under /usr/lib/... (merged /usr), or a symlink's name.
owner() {
  local path=$1 candidate
  for candidate in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
    if out=$(dpkg -S "$candidate" 2>/dev/null); then
      cut -d: -f1 <<<"$out" | head -1
      return 0
    fi
  done
  echo "check-image-libs: no package owns $path" >&2
  return 1
}

listed=$(grep -v -E '^\s*(#|$)' "$list" | sort -u)
status=0
for binary in "${binaries[@]}"; do
  [ -x "$binary" ] || { echo "check-image-libs: no binary at $binary" >&2; exit 1; }
  needed=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' |
    while read -r lib; do owner "$lib"; done | sort -u)
  if [ "$needed" != "$listed" ]; then
    echo "check-image-libs: $list does not match the libraries of $binary" >&2
    diff <(echo "$listed") <(echo "$needed") | sed -n 's/^</  listed but not needed:/p; s/^>/  needed but not listed:/p' >&2
    status=1
  else
    echo "check-image-libs: $(wc -l <<<"$needed") runtime packages match $binary"
  fi
done
exit $status
