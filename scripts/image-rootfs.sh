#!/usr/bin/env bash
# Builds the root filesystem of the Dockerfile's runtime stage for one binary,
# without a container engine, the way the Dockerfile describes it: a Debian
# bookworm minbase root (what debian:bookworm-slim is built from), the runtime
# packages (deploy/image/runtime-packages.txt, the list the Dockerfile
# installs) installed with apt inside it, the binary copied in as /<binary>
# with its debug info stripped. Needs root (debootstrap, chroot).
#
#   scripts/image-rootfs.sh BINARY OUT_DIR     -> OUT_DIR/root
#
# The minbase root and the root with the packages installed are cached outside
# the clone under $IMAGE_CACHE (default ~/.cache/csi-sidecars-image), keyed on
# the mirror and on the package list, so only the first run downloads; each
# call copies the cached root to OUT_DIR/root and adds the binary. Debian is
# fetched from the mirror apt uses on this machine.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

[ $# -eq 2 ] || { echo "usage: $0 BINARY OUT_DIR" >&2; exit 2; }
binary=$1 out=$2
name=$(basename "$binary")
packages=deploy/image/runtime-packages.txt
[ -x "$binary" ] || { echo "image-rootfs: no binary at $binary" >&2; exit 1; }
[ -f "$packages" ] || { echo "image-rootfs: no package list $packages" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "image-rootfs: needs root (debootstrap, chroot)" >&2; exit 1; }

SUITE=bookworm
IMAGE_CACHE=${IMAGE_CACHE:-$HOME/.cache/csi-sidecars-image}
log() { printf '[image-rootfs %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# The host's Debian sources file naming $SUITE (deb822 first, then one-line).
sources_file() {
  local f
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    [ -f "$f" ] && grep -Eq "^(Suites:.*[[:space:]]|deb .*[[:space:]])$SUITE([[:space:]]|$)" "$f" &&
      { echo "$f"; return 0; }
  done
  echo "image-rootfs: no apt source for $SUITE under /etc/apt" >&2
  return 1
}
# The mirror URI of $SUITE in that file.
mirror_of() {
  awk -v suite="$SUITE" '
    /^URIs:/ { uri = $2 }
    /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) { print uri; exit } }
    $1 == "deb" { sub(/\[[^]]*\] */, ""); if ($3 == suite) { print $2; exit } }' "$1"
}

source scripts/quiet.sh

sources=$(sources_file)
mirror=$(mirror_of "$sources")
[ -n "$mirror" ] || { echo "image-rootfs: no mirror for $SUITE in $sources" >&2; exit 1; }
base_key=$(printf '%s\n' "$SUITE" minbase "$mirror" | sha256sum | cut -c1-12)
runtime_key=$(cat <(echo "$base_key") "$sources" "$packages" | sha256sum | cut -c1-12)
base=$IMAGE_CACHE/base-$SUITE-$base_key
runtime=$IMAGE_CACHE/runtime-$runtime_key

mkdir -p "$IMAGE_CACHE"
exec 9>"$IMAGE_CACHE/.lock"
flock 9  # one builder at a time; the others then find the cache

if [ ! -d "$base" ]; then
  log "debootstrap --variant=minbase $SUITE from $mirror"
  start=$SECONDS
  rm -rf "$base.tmp"
  quiet debootstrap --variant=minbase "$SUITE" "$base.tmp" "$mirror"
  mv "$base.tmp" "$base"
  log "debootstrap: done in $((SECONDS - start))s"
fi

if [ ! -d "$runtime" ]; then
  log "installing $(grep -cv -E '^\s*(#|$)' "$packages") packages of $packages"
  start=$SECONDS
  rm -rf "$runtime.tmp"
  cp -a "$base" "$runtime.tmp"
  # The host's sources for the suite (with its updates and security), as the
  # debian image's own debian.sources names them.
  rm -f "$runtime.tmp/etc/apt/sources.list"
  cp "$sources" "$runtime.tmp/etc/apt/sources.list.d/"
  cp /etc/resolv.conf "$runtime.tmp/etc/resolv.conf"
  grep -v -E '^\s*(#|$)' "$packages" >"$runtime.tmp/tmp/runtime-packages"
  # The Dockerfile's RUN line, in a private mount namespace so /proc goes away
  # with it.
  quiet unshare --mount --propagation private sh -c '
    mount -t proc proc "$1/proc" &&
    DEBIAN_FRONTEND=noninteractive chroot "$1" sh -c "apt-get update &&
      xargs apt-get install -y --no-install-recommends </tmp/runtime-packages &&
      apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages"' _ "$runtime.tmp"
  rm -f "$runtime.tmp/etc/resolv.conf"
  mv "$runtime.tmp" "$runtime"
  log "packages: done in $((SECONDS - start))s"
fi

rm -rf "$out/root"
mkdir -p "$out"
cp -a "$runtime" "$out/root"
strip --strip-debug -o "$out/root/$name" "$binary"
chmod 0755 "$out/root/$name"
log "$out/root: $(du -sh --apparent-size "$out/root" | cut -f1) ($name $(du -h --apparent-size "$out/root/$name" | cut -f1))"
echo "ROOTFS=$out/root"
