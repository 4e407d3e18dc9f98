#!/usr/bin/env bash
# Builds the real test peers from the Go module proxy into a cache outside the
# clone, keyed by version:  $PEERS_CACHE/<peer>-<version>/bin/<binary>.
# A peer whose binary is already cached is skipped, so a warm run takes seconds.
# Prints the path of every peer on the last lines as NAME=PATH (binaries, and
# SNAPSHOT_CRDS_DIR for the snapshot CRD YAMLs), whether or not this run built it.
#
# Usage: tools/peers/build.sh [etcd] [kube] [kubectl] [controller-manager] [scheduler]
#                             [csi-mock] [upstream] [snapshot] [crds] [provisioner] [resizer]
#        (default: all)
#   kubectl   kubectl of the same Kubernetes version as kube-apiserver
#   controller-manager, scheduler  kube-controller-manager and kube-scheduler, same version
#   upstream  external-attacher's csi-attacher
#   snapshot  external-snapshotter's csi-snapshotter and snapshot-controller
#   crds      the six snapshot CRD YAMLs of external-snapshotter's client module
#   provisioner  external-provisioner's csi-provisioner
#   resizer   external-resizer's csi-resizer
set -euo pipefail

ETCD_VERSION=v3.6.14
KUBE_VERSION=v1.36.3   # v1.36.4 is not on the module proxy
ATTACHER_VERSION=v4.12.0
SNAPSHOTTER_VERSION=v8.7.0   # csi-snapshotter, snapshot-controller and the CRDs
PROVISIONER_VERSION=v6.4.0
GATEWAY_API_VERSION=v1.6.2 # the ReferenceGrant CRD (the version upstream's provisioner v6.4.0 uses)
RESIZER_VERSION=v2.3.0

PEERS_CACHE=${PEERS_CACHE:-$HOME/.cache/csi-attacher-peers}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-trimpath

log() { printf '[peers %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

source "$HERE/../../scripts/quiet.sh"

# Runs a long go command with a heartbeat so it is never silent for minutes.
with_progress() {
  local what=$1; shift
  local start=$SECONDS
  "$@" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 30
    kill -0 "$pid" 2>/dev/null && log "$what: still building ($((SECONDS - start))s)"
  done
  wait "$pid"
  log "$what: done in $((SECONDS - start))s"
}

# Throwaway module that replaces every k8s.io staging module of k8s.io/kubernetes
# $1 (e.g. v1.36.4) with its published v0.Y.Z tag: the kubernetes go.mod points
# them at ./staging, which is not in the module zip.
init_kube_module() {
  local dir=$1 kver=$2
  local sver="v0.${kver#v1.}"
  rm -rf "$dir" && mkdir -p "$dir"
  local gomod
  gomod=$(cd / && go mod download -json "k8s.io/kubernetes@$kver" | jq -r .GoMod)
  (cd "$dir" && go mod init peers.invalid/build >/dev/null 2>&1
   for m in $(sed -n 's|^[[:space:]]*\(k8s.io/[^ ]*\) => ./staging/.*|\1|p' "$gomod"); do
     go mod edit -replace="$m=$m@$sver"
   done)
}

build_etcd() {
  local out=$PEERS_CACHE/etcd-$ETCD_VERSION
  [ -x "$out/bin/etcd" ] && return 0
  log "etcd $ETCD_VERSION: building"
  local work=$PEERS_CACHE/src/etcd
  rm -rf "$work" && mkdir -p "$work" "$out/bin.tmp"
  (cd "$work" && go mod init peers.invalid/etcd >/dev/null 2>&1 &&
   quiet go get "go.etcd.io/etcd/server/v3@${ETCD_VERSION}" &&
   with_progress etcd go build -ldflags "-s -w" -o "$out/bin.tmp/etcd" go.etcd.io/etcd/server/v3)
  mv "$out/bin.tmp" "$out/bin"
}

# k8s.io/kubernetes/cmd/<cmd> at $KUBE_VERSION into
# $PEERS_CACHE/<cache>-$KUBE_VERSION/bin/<cmd>, its version stamped where
# `--version` and `kubectl version` read it (component-base and client-go).
# kube-apiserver and kubectl share the module download and most compiled
# packages (client-go, apimachinery, api) through Go's caches, so the second
# costs little on top of the first.
build_kube_command() {
  local cmd=$1 cache=$2 how_long=$3
  local out=$PEERS_CACHE/$cache-$KUBE_VERSION
  [ -x "$out/bin/$cmd" ] && return 0
  log "$cmd $KUBE_VERSION: building$how_long"
  local work=$PEERS_CACHE/src/$cache minor ldflags="-s -w" pkg
  minor=$(echo "$KUBE_VERSION" | cut -d. -f2)
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  done
  init_kube_module "$work" "$KUBE_VERSION"
  rm -rf "$out/bin.tmp" && mkdir -p "$out/bin.tmp"
  (cd "$work" &&
   quiet go get -tool "k8s.io/kubernetes/cmd/$cmd@$KUBE_VERSION" &&
   with_progress "$cmd" go build -ldflags "$ldflags" -o "$out/bin.tmp/" "k8s.io/kubernetes/cmd/$cmd")
  mv "$out/bin.tmp" "$out/bin"
}

build_kube() { build_kube_command kube-apiserver kube " (10-20 min cold on 2 cores)"; }
build_kubectl() { build_kube_command kubectl kubectl ""; }
# The controllers a real cluster runs beside the API server: the PV binder
# annotates and binds claims, the attach-detach controller creates
# VolumeAttachments for Pods; the scheduler places Pods where volumes can follow.
build_controller_manager() { build_kube_command kube-controller-manager kube-controller-manager " (5-10 min after kube-apiserver)"; }
build_scheduler() { build_kube_command kube-scheduler kube-scheduler ""; }

# The Kubernetes e2e mock CSI driver behind a small main of ours (csi-mock/).
# csi-driver-host-path would be the first choice, but the module proxy answers
# 403 for every version of it.
# Keyed by our main.go as well, so a change to it is rebuilt.
csimock_dir() {
  echo "$PEERS_CACHE/csi-mock-$KUBE_VERSION-$(sha256sum "$HERE/csi-mock/main.go" | cut -c1-12)"
}

build_csimock() {
  local out
  out=$(csimock_dir)
  [ -x "$out/bin/csi-mock" ] && return 0
  log "csi-mock (k8s.io/kubernetes $KUBE_VERSION e2e mock driver): building"
  local work=$PEERS_CACHE/src/csi-mock
  init_kube_module "$work" "$KUBE_VERSION"
  mkdir -p "$out/bin.tmp" "$work/csi-mock"
  cp "$HERE/csi-mock/main.go" "$work/csi-mock/"
  (cd "$work" &&
   quiet go get "k8s.io/kubernetes@$KUBE_VERSION" &&
   quiet go mod tidy &&
   with_progress csi-mock go build -ldflags "-s -w" -o "$out/bin.tmp/csi-mock" ./csi-mock)
  mv "$out/bin.tmp" "$out/bin"
}

# The upstream sidecars, each from its release tag: SIDECARS lists
# "binary module version" for each. All of them build in one throwaway main
# module (`go install` refuses them: their go.mod files carry replace
# directives, which only a main module may), so Go's minimal version selection
# gives them one version of client-go, api, apimachinery and gRPC - the newest
# any of them asks for, a patch or minor release above some of theirs - and
# that stack compiles once instead of once per sidecar (a cold machine spends
# most of a sidecar's build on it).
# Each line: binary, the variable that names its path in this script's output,
# module, version.
SIDECARS=(
  "csi-attacher UPSTREAM_ATTACHER_BIN github.com/kubernetes-csi/external-attacher/v4 $ATTACHER_VERSION"
  "csi-snapshotter UPSTREAM_SNAPSHOTTER_BIN github.com/kubernetes-csi/external-snapshotter/v8 $SNAPSHOTTER_VERSION"
  "snapshot-controller UPSTREAM_SNAPSHOT_CONTROLLER_BIN github.com/kubernetes-csi/external-snapshotter/v8 $SNAPSHOTTER_VERSION"
  "csi-provisioner UPSTREAM_PROVISIONER_BIN github.com/kubernetes-csi/external-provisioner/v6 $PROVISIONER_VERSION"
  "csi-resizer UPSTREAM_RESIZER_BIN github.com/kubernetes-csi/external-resizer/v2 $RESIZER_VERSION"
)

# Where a sidecar's binary is cached: $PEERS_CACHE/<repo>-<version>/bin/<binary>.
sidecar_bin() {
  local name=$1 module=$2 version=$3
  local repo=${module#github.com/kubernetes-csi/}
  echo "$PEERS_CACHE/${repo%%/*}-$version/bin/$name"
}

# build_sidecars BINARY...: those of SIDECARS named, unless already cached.
build_sidecars() {
  local wanted=" $* " spec name var module version missing=() packages=()
  for spec in "${SIDECARS[@]}"; do
    read -r name var module version <<<"$spec"
    [[ $wanted == *" $name "* ]] || continue
    [ -x "$(sidecar_bin "$name" "$module" "$version")" ] && continue
    missing+=("$spec")
    packages+=("$module/cmd/$name@$version")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "upstream sidecars (${packages[*]}): building"
  local work=$PEERS_CACHE/src/sidecars bin
  rm -rf "$work" && mkdir -p "$work"
  (cd "$work" && go mod init peers.invalid/sidecars >/dev/null 2>&1 && quiet go get "${packages[@]}")
  for spec in "${missing[@]}"; do
    read -r name var module version <<<"$spec"
    bin=$(sidecar_bin "$name" "$module" "$version")
    mkdir -p "$(dirname "$bin")"
    (cd "$work" &&
     with_progress "$name" go build -ldflags "-s -w -X main.version=$version" \
       -o "$bin.tmp" "$module/cmd/$name")
    mv "$bin.tmp" "$bin"
  done
}

# The CRD YAMLs ship in the client module's zip under config/crd/ (its
# kustomization.yaml is left out: it is no object).
build_crds() {
  local out=$PEERS_CACHE/snapshot-crds-$SNAPSHOTTER_VERSION
  [ -d "$out/crd" ] && return 0
  log "snapshot CRDs $SNAPSHOTTER_VERSION: fetching"
  local dir
  dir=$(cd / && go mod download -json \
          "github.com/kubernetes-csi/external-snapshotter/client/v8@$SNAPSHOTTER_VERSION" | jq -r .Dir)
  [ -d "$dir/config/crd" ] || { echo "peers: no config/crd in $dir" >&2; return 1; }
  rm -rf "$out/crd.tmp" && mkdir -p "$out/crd.tmp"
  cp "$dir"/config/crd/*storage.k8s.io_*.yaml "$out/crd.tmp/"
  chmod u+w "$out"/crd.tmp/*.yaml
  local count
  count=$(ls "$out"/crd.tmp/*.yaml | wc -l)
  [ "$count" -eq 6 ] || { echo "peers: expected 6 CRD files in $dir/config/crd, found $count" >&2; return 1; }
  mv "$out/crd.tmp" "$out/crd"
}

# The ReferenceGrant CRD (cross-namespace data sources) from the Gateway API
# module's zip, config/crd/standard/.
build_gateway_crds() {
  local out=$PEERS_CACHE/gateway-crds-$GATEWAY_API_VERSION
  [ -d "$out/crd" ] && return 0
  log "gateway-api CRDs $GATEWAY_API_VERSION: fetching"
  local dir file
  dir=$(cd / && go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" | jq -r .Dir)
  file=$dir/config/crd/standard/gateway.networking.k8s.io_referencegrants.yaml
  [ -f "$file" ] || { echo "peers: no ReferenceGrant CRD at $file" >&2; return 1; }
  rm -rf "$out/crd.tmp" && mkdir -p "$out/crd.tmp"
  cp "$file" "$out/crd.tmp/" && chmod u+w "$out"/crd.tmp/*.yaml
  mv "$out/crd.tmp" "$out/crd"
}

command -v go >/dev/null || { echo "peers: go is required to build the test peers" >&2; exit 1; }
command -v jq >/dev/null || { echo "peers: jq is required (scripts/install-deps.sh)" >&2; exit 1; }
mkdir -p "$PEERS_CACHE"

targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(etcd kube kubectl controller-manager scheduler csi-mock upstream snapshot crds gateway-crds provisioner resizer)
sidecars=()
for t in "${targets[@]}"; do
  case $t in
    etcd) build_etcd ;;
    kube) build_kube ;;
    kubectl) build_kubectl ;;
    controller-manager) build_controller_manager ;;
    scheduler) build_scheduler ;;
    csi-mock) build_csimock ;;
    upstream) sidecars+=(csi-attacher) ;;
    snapshot) sidecars+=(csi-snapshotter snapshot-controller) ;;
    crds) build_crds ;;
    gateway-crds) build_gateway_crds ;;
    provisioner) sidecars+=(csi-provisioner) ;;
    resizer) sidecars+=(csi-resizer) ;;
    *) echo "peers: unknown peer '$t'" >&2; exit 2 ;;
  esac
done
[ ${#sidecars[@]} -eq 0 ] || build_sidecars "${sidecars[@]}"

echo "ETCD_BIN=$PEERS_CACHE/etcd-$ETCD_VERSION/bin/etcd"
echo "KUBE_APISERVER_BIN=$PEERS_CACHE/kube-$KUBE_VERSION/bin/kube-apiserver"
echo "KUBECTL_BIN=$PEERS_CACHE/kubectl-$KUBE_VERSION/bin/kubectl"
echo "KUBE_CONTROLLER_MANAGER_BIN=$PEERS_CACHE/kube-controller-manager-$KUBE_VERSION/bin/kube-controller-manager"
echo "KUBE_SCHEDULER_BIN=$PEERS_CACHE/kube-scheduler-$KUBE_VERSION/bin/kube-scheduler"
echo "CSI_MOCK_BIN=$(csimock_dir)/bin/csi-mock"
for spec in "${SIDECARS[@]}"; do
  read -r name var module version <<<"$spec"
  echo "$var=$(sidecar_bin "$name" "$module" "$version")"
done
echo "SNAPSHOT_CRDS_DIR=$PEERS_CACHE/snapshot-crds-$SNAPSHOTTER_VERSION/crd"
echo "GATEWAY_CRDS_DIR=$PEERS_CACHE/gateway-crds-$GATEWAY_API_VERSION/crd"
