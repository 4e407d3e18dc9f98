#!/usr/bin/env bash
# The benchmark: ours against upstream's Go binaries and the floor (the
# minimum writes), on one local control plane per run (the tests' launcher:
# etcd + kube-apiserver, TLS, RBAC) with our fault-csi-driver in no-fault mode.
# Prints the markdown report and keeps raw CSV + logs under the results
# directory. Three stacks:
#   attacher  our csi-attacher vs external-attacher v4.12.0 (bench/floor_controller.h)
#   snapshot  our snapshot-controller + csi-snapshotter vs external-snapshotter
#             v8.7.0's two binaries (bench/snapshot_stack.h); "mixed" (upstream's
#             controller + our sidecar) measures our sidecar alone
#   resizer   our csi-resizer vs external-resizer v2.3.0 (bench/resize_stack.h,
#             bench/floor_resizer.h)
#   provisioner  our csi-provisioner vs external-provisioner v6.4.0
#             (bench/provision_stack.h, bench/floor_provisioner.h)
#   pod       one driver's controller Pod (bench/pod_stack.h): upstream's four
#             sidecars (upstream4) vs ours as four binaries (ours4) vs
#             csi-sidecars running all four (kube-controller-manager binds)
#
#   scripts/bench.sh [--stack=attacher|snapshot|resizer|provisioner|pod] [--quick] [--workloads=W,...]
#                    [--qps=5,1000] [--latencies=0,50] [--reps=N] [--results=DIR]
#                    [--backlog-n=N] [--storm-n=N] [--storm-attaches=N]
#                    [--stream-duration=S] [--scale-n=N] [--pods-n=N] [--ready-after=K]
#                    [--capacity-nodes=N] [--contenders=C,...] [--phase-timeout=S]
#
# Workloads: attacher backlog,stream,storm,scale (default all); snapshot
# backlog,stream,readiness,scale (default all); resizer backlog (N bound
# claims raised from 1Gi to 2Gi at once) and pods (--pods-n running Pods
# using claims cached by the in-use gate: RSS; ours and upstream only, once
# per QPS setting); default both; provisioner backlog (N claims before the
# start), stream, scale (--scale-existing bound claims cached, then N new
# claims at once; N is --backlog-n) and capacity (--capacity-nodes Nodes in 10
# zones, 10 classes, --enable-capacity: GetCapacity calls and
# CSIStorageCapacity writes per poll period; ours and upstream only); default
# all; pod mix (N claims provisioned and bound, attached, resized and
# snapshotted, phase after phase; N is --backlog-n) and scale
# (--scale-existing bound claims cached, then N new claims); default mix.
# Contenders: ours,upstream,floor (pod: upstream4,ours4,csi-sidecars)
# (the default); snapshot also mixed. --qps lists the QPS
# settings: 5 means --kube-api-qps=5 --kube-api-burst=10 (upstream's
# defaults), any other value Q means qps = burst = Q. Latency is the driver's
# publish/unpublish (attacher), CreateSnapshot (snapshot) or
# ControllerExpandVolume (resizer) or CreateVolume (provisioner) time; scale
# runs at latency 0 only.
# --ready-after: the snapshot readiness workload's driver
# answers ready from its K-th answer (default 3: the create and two polls).
# Default: both QPS settings, latencies 0 and 50 (resizer, provisioner: 0), 3 repetitions
# (A B A B A B), full sizes (attacher backlog 2000, scale 20000; snapshot
# backlog 1000, scale 20000; resizer backlog 1000; provisioner backlog 1000,
# scale 20000 existing + 1000 new, capacity 1000 Nodes; pod mix 1000, scale
# 20000 existing + 1000 new); --quick: 1
# repetition and small sizes (resizer backlog 100, pods 1000; provisioner
# 100 claims, 2000 existing, 100 Nodes; pod 50 claims, 2000 existing; flags
# after it still count).
# --phase-timeout: seconds one phase (e.g. all ready) may take before the run
# is abandoned (default 1800; a QPS 5 backlog of 1000 snapshots needs more).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true

STACK=attacher
WORKLOADS=
QPS_LIST=5,1000
LATENCIES=
REPS=3
BACKLOG_N= STORM_N=1000 STORM_ATTACHES=100 STREAM_DURATION=60 SCALE_N=20000 READY_AFTER=3
PODS_N=10000 SCALE_EXISTING=20000 CAPACITY_NODES=1000
QUICK=
PHASE_TIMEOUT=1800
CONTENDERS=
RESULTS=
for arg in "$@"; do
  case $arg in
    --stack=*) STACK=${arg#*=} ;;
    --quick) QUICK=1 REPS=1 STORM_N=200 STORM_ATTACHES=20 STREAM_DURATION=20 SCALE_N=2000
             PODS_N=1000 SCALE_EXISTING=2000 CAPACITY_NODES=100 ;;
    --workloads=*) WORKLOADS=${arg#*=} ;;
    --qps=*) QPS_LIST=${arg#*=} ;;
    --latencies=*) LATENCIES=${arg#*=} ;;
    --reps=*) REPS=${arg#*=} ;;
    --results=*) RESULTS=${arg#*=} ;;
    --backlog-n=*) BACKLOG_N=${arg#*=} ;;
    --storm-n=*) STORM_N=${arg#*=} ;;
    --storm-attaches=*) STORM_ATTACHES=${arg#*=} ;;
    --stream-duration=*) STREAM_DURATION=${arg#*=} ;;
    --scale-n=*) SCALE_N=${arg#*=} ;;
    --pods-n=*) PODS_N=${arg#*=} ;;
    --scale-existing=*) SCALE_EXISTING=${arg#*=} ;;
    --capacity-nodes=*) CAPACITY_NODES=${arg#*=} ;;
    --ready-after=*) READY_AFTER=${arg#*=} ;;
    --contenders=*) CONTENDERS=${arg#*=} ;;
    --phase-timeout=*) PHASE_TIMEOUT=${arg#*=} ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "bench: unknown argument $arg (see --help)" >&2; exit 2 ;;
  esac
done
case $STACK in
  attacher)
    WORKLOADS=${WORKLOADS:-backlog,stream,storm,scale}
    BACKLOG_N=${BACKLOG_N:-$([[ -n $QUICK ]] && echo 200 || echo 2000)}
    CONTENDERS=${CONTENDERS:-ours,upstream,floor}
    BENCH=attacher-bench
    PEER_NAMES="etcd kube upstream" ;;
  snapshot)
    WORKLOADS=${WORKLOADS:-backlog,stream,readiness,scale}
    BACKLOG_N=${BACKLOG_N:-$([[ -n $QUICK ]] && echo 100 || echo 1000)}
    CONTENDERS=${CONTENDERS:-ours,upstream,floor}
    BENCH=snapshot-bench
    PEER_NAMES="etcd kube snapshot crds" ;;
  resizer)
    WORKLOADS=${WORKLOADS:-backlog,pods}
    LATENCIES=${LATENCIES:-0}
    BACKLOG_N=${BACKLOG_N:-$([[ -n $QUICK ]] && echo 100 || echo 1000)}
    CONTENDERS=${CONTENDERS:-ours,upstream,floor}
    BENCH=resize-bench
    PEER_NAMES="etcd kube resizer" ;;
  provisioner)
    WORKLOADS=${WORKLOADS:-backlog,stream,scale,capacity}
    LATENCIES=${LATENCIES:-0}
    BACKLOG_N=${BACKLOG_N:-$([[ -n $QUICK ]] && echo 100 || echo 1000)}
    CONTENDERS=${CONTENDERS:-ours,upstream,floor}
    BENCH=provision-bench
    PEER_NAMES="etcd kube provisioner" ;;
  pod)
    WORKLOADS=${WORKLOADS:-mix}
    LATENCIES=${LATENCIES:-0}
    BACKLOG_N=${BACKLOG_N:-$([[ -n $QUICK ]] && echo 50 || echo 1000)}
    CONTENDERS=${CONTENDERS:-upstream4,ours4,csi-sidecars}
    BENCH=pod-bench
    PEER_NAMES="etcd kube controller-manager upstream provisioner resizer snapshot crds" ;;
  *) echo "bench: unknown stack $STACK (attacher, snapshot, resizer, provisioner or pod)" >&2; exit 2 ;;
esac
LATENCIES=${LATENCIES:-0,50}
RESULTS=${RESULTS:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
CSV=$RESULTS/results.csv

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

log "building $BENCH (log: $RESULTS/build.log)"
# Configure only once: configuring stamps the git version into every object,
# so re-running it after a commit would rebuild everything; the build itself
# re-configures when a CMakeLists.txt changes.
{ [[ -f build/default/CMakeCache.txt ]] || cmake --preset default
  cmake --build --preset default --target "$BENCH" bench-report; } \
  >"$RESULTS/build.log" 2>&1 || { tail -n 30 "$RESULTS/build.log" >&2; exit 1; }
# An UPSTREAM_*_BIN already in the environment wins over the peer cache's:
# two builds of ours side by side (an older commit's binary as "upstream").
PRESET_UPSTREAM=$(env | grep -E '^UPSTREAM_[A-Z_]+_BIN=' || true)
# shellcheck disable=SC2086 # PEER_NAMES is a word list
PEERS=$(tools/peers/build.sh $PEER_NAMES)
eval "$(grep -E '^[A-Z_]+=' <<<"$PEERS")"
[[ -z $PRESET_UPSTREAM ]] || eval "$PRESET_UPSTREAM"
export ETCD_BIN KUBE_APISERVER_BIN
# The pod stack's control plane runs kube-controller-manager.
[[ -z ${KUBE_CONTROLLER_MANAGER_BIN:-} ]] || export KUBE_CONTROLLER_MANAGER_BIN

case $STACK in
  attacher)
    UPSTREAM_INFO="$UPSTREAM_ATTACHER_BIN"
    STACK_ARGS=(--upstream-bin="$UPSTREAM_ATTACHER_BIN") ;;
  snapshot)
    UPSTREAM_INFO="$UPSTREAM_SNAPSHOT_CONTROLLER_BIN $UPSTREAM_SNAPSHOTTER_BIN"
    STACK_ARGS=(--upstream-bin="$UPSTREAM_SNAPSHOTTER_BIN"
                --upstream-controller-bin="$UPSTREAM_SNAPSHOT_CONTROLLER_BIN"
                --crds-dir="$SNAPSHOT_CRDS_DIR") ;;
  resizer)
    UPSTREAM_INFO="$UPSTREAM_RESIZER_BIN"
    STACK_ARGS=(--upstream-bin="$UPSTREAM_RESIZER_BIN") ;;
  provisioner)
    UPSTREAM_INFO="$UPSTREAM_PROVISIONER_BIN"
    STACK_ARGS=(--upstream-bin="$UPSTREAM_PROVISIONER_BIN") ;;
  pod)
    UPSTREAM_INFO="$UPSTREAM_ATTACHER_BIN $UPSTREAM_PROVISIONER_BIN $UPSTREAM_RESIZER_BIN"
    UPSTREAM_INFO+=" $UPSTREAM_SNAPSHOTTER_BIN"
    STACK_ARGS=(--upstream-attacher-bin="$UPSTREAM_ATTACHER_BIN"
                --upstream-provisioner-bin="$UPSTREAM_PROVISIONER_BIN"
                --upstream-resizer-bin="$UPSTREAM_RESIZER_BIN"
                --upstream-snapshotter-bin="$UPSTREAM_SNAPSHOTTER_BIN"
                --crds-dir="$SNAPSHOT_CRDS_DIR") ;;
esac

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: scripts/bench.sh $*"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo -dirty)"
  echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {print int($2/1024) " MiB"}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "stack: $STACK, contenders: $CONTENDERS"
  echo "upstream: $UPSTREAM_INFO"
} >"$RESULTS/run-info.txt"

run_cell() {  # workload latency qps extra-args...
  local workload=$1 latency=$2 qps=$3; shift 3
  local burst=$qps
  [[ $qps == 5 ]] && burst=10
  log "$workload: latency ${latency}ms, qps $qps/$burst, $REPS rep(s), load $(cut -d' ' -f1 /proc/loadavg)"
  build/default/bench/"$BENCH" --workload="$workload" --latency-ms="$latency" \
    --qps="$qps" --burst="$burst" --workers=10 --timeout=30s --reps="$REPS" \
    --contenders="$CONTENDERS" --phase-timeout="$PHASE_TIMEOUT" "${STACK_ARGS[@]}" \
    --csv="$CSV" --work-dir="$RESULTS/logs" "$@" \
    || log "$workload (latency ${latency}ms, qps $qps) FAILED; see $RESULTS/logs"
}

# The snapshot, resizer and provisioner stacks' workloads are named
# snap-<workload>, resize-<workload> and prov-<workload> in the CSV, so every
# stack's cells can share one report.
cell_name() {
  case $STACK in
    snapshot) echo "snap-$1" ;;
    resizer) echo "resize-$1" ;;
    provisioner) echo "prov-$1" ;;
    pod) echo "pod-$1" ;;
    *) echo "$1" ;;
  esac
}

IFS=, read -ra workloads <<<"$WORKLOADS"
IFS=, read -ra qps_list <<<"$QPS_LIST"
IFS=, read -ra latencies <<<"$LATENCIES"
for workload in "${workloads[@]}"; do
  for qps in "${qps_list[@]}"; do
    case $STACK/$workload in
      */backlog) for l in "${latencies[@]}"; do
                   run_cell "$(cell_name backlog)" "$l" "$qps" --n="$BACKLOG_N"; done ;;
      */stream) for l in "${latencies[@]}"; do
                  run_cell "$(cell_name stream)" "$l" "$qps" --n=0 --duration="$STREAM_DURATION"; done ;;
      attacher/storm) for l in "${latencies[@]}"; do
                        run_cell storm "$l" "$qps" --n="$STORM_N" --attaches="$STORM_ATTACHES"; done ;;
      snapshot/readiness) for l in "${latencies[@]}"; do
                            run_cell snap-readiness "$l" "$qps" --n=0 --duration="$STREAM_DURATION" \
                              --ready-after="$READY_AFTER"; done ;;
      provisioner/scale) run_cell prov-scale 0 "$qps" --n="$BACKLOG_N" --existing="$SCALE_EXISTING" ;;
      pod/mix) run_cell pod-mix 0 "$qps" --n="$BACKLOG_N" ;;
      pod/scale) run_cell pod-scale 0 "$qps" --n="$BACKLOG_N" --existing="$SCALE_EXISTING" ;;
      */scale) run_cell "$(cell_name scale)" 0 "$qps" --n="$SCALE_N" ;;
      provisioner/capacity) run_cell prov-capacity 0 "$qps" --n="$CAPACITY_NODES" ;;
      resizer/pods) run_cell resize-pods 0 "$qps" --n="$PODS_N" ;;
      *) log "unknown $STACK workload $workload" ;;
    esac
  done
done

build/default/bench/bench-report "$CSV" >"$RESULTS/report.md"
cat "$RESULTS/report.md"
log "results: $RESULTS (results.csv,$([[ -f $RESULTS/latencies.csv ]] && echo " latencies.csv,") report.md, run-info.txt, logs/)"
