#!/usr/bin/env bash
# Runs a program from an image root (scripts/image-rootfs.sh) as the image
# does: chrooted, as user 65532:65532 (or $IMAGE_USER, e.g. 0:0 for the node
# sidecars' images, whose Dockerfile stages say USER 0:0), with /dev and /proc
# like a container runtime provides them, and with host directories (a
# kubeconfig, a CSI socket) bind-mounted at the same paths inside the root.
# Everything happens in a private mount namespace, so the mounts vanish when
# the program exits; the program replaces this script (same pid, signals reach
# it). Needs root.
#
#   scripts/image-run.sh ROOT [HOST_DIR...] -- PROGRAM [ARG...]
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 ROOT [HOST_DIR...] -- PROGRAM [ARG...]" >&2; exit 2; }
root=$1
shift
dirs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  dirs+=("$1")
  shift
done
[ $# -ge 2 ] || { echo "image-run: no program after --" >&2; exit 2; }
shift
[ -d "$root/etc" ] || { echo "image-run: $root is not a root filesystem" >&2; exit 1; }

exec unshare --mount --propagation private /bin/bash -euc '
  root=$1 count=$2 user=${IMAGE_USER:-65532:65532}
  shift 2
  mount --rbind /dev "$root/dev"
  mount -t proc proc "$root/proc"
  for dir in "${@:1:count}"; do
    mkdir -p "$root$dir"
    mount --bind "$dir" "$root$dir"
  done
  shift "$count"
  exec chroot --userspec="$user" "$root" "$@"' \
  _ "$root" "${#dirs[@]}" "${dirs[@]}" "$@"
