#!/usr/bin/env bash
# Installs every Debian package the project needs. Idempotent and quiet when
# everything is already present; needs root (or sudo) only when something is missing.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config clang-format
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  nlohmann-json3-dev libyaml-cpp-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libssl-dev libnghttp2-dev zlib1g-dev
  jq openssl curl procps psmisc
  debootstrap  # scripts/image-rootfs.sh: the image's runtime root without a container engine
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
