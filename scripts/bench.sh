#!/usr/bin/env bash
# The benchmark: our csi-attacher against the upstream Go external-attacher and
# the floor (the minimum writes, see bench/floor_controller.h), on one local
# control plane per run (the tests' launcher: etcd + kube-apiserver, TLS, RBAC)
# with our fault-csi-driver in no-fault mode. Prints the markdown report and
# keeps raw CSV + logs under the results directory.
#
#   scripts/bench.sh [--quick] [--workloads=backlog,stream,storm,scale]
#                    [--qps=5,1000] [--latencies=0,50] [--reps=N] [--results=DIR]
#                    [--backlog-n=N] [--storm-n=N] [--storm-attaches=N]
#                    [--stream-duration=S] [--scale-n=N] [--contenders=ours,upstream,floor]
#
# --qps lists the QPS settings: 5 means --kube-api-qps=5 --kube-api-burst=10
# (upstream's defaults), any other value Q means qps = burst = Q. Scale runs at
# driver latency 0 only (nothing is published). Default: every workload, both
# QPS settings, both latencies, 3 repetitions (A B A B A B), full sizes;
# --quick: 1 repetition and small sizes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true

WORKLOADS=backlog,stream,storm,scale
QPS_LIST=5,1000
LATENCIES=0,50
REPS=3
BACKLOG_N=2000 STORM_N=1000 STORM_ATTACHES=100 STREAM_DURATION=60 SCALE_N=20000
CONTENDERS=ours,upstream,floor
RESULTS=
for arg in "$@"; do
  case $arg in
    --quick) REPS=1 BACKLOG_N=200 STORM_N=200 STORM_ATTACHES=20 STREAM_DURATION=20 SCALE_N=2000 ;;
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
    --contenders=*) CONTENDERS=${arg#*=} ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "bench: unknown argument $arg (see --help)" >&2; exit 2 ;;
  esac
done
RESULTS=${RESULTS:-bench/results/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$RESULTS"
RESULTS=$(cd "$RESULTS" && pwd)
CSV=$RESULTS/results.csv

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

log "building (log: $RESULTS/build.log)"
# Configure only once: configuring stamps the git version into every object,
# so re-running it after a commit would rebuild everything; the build itself
# re-configures when a CMakeLists.txt changes.
{ [[ -f build/default/CMakeCache.txt ]] || cmake --preset default
  cmake --build --preset default --target attacher-bench bench-report; } \
  >"$RESULTS/build.log" 2>&1 || { tail -n 30 "$RESULTS/build.log" >&2; exit 1; }
PEERS=$(tools/peers/build.sh etcd kube upstream)
eval "$(grep -E '^[A-Z_]+_BIN=' <<<"$PEERS")"
export ETCD_BIN KUBE_APISERVER_BIN

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command: scripts/bench.sh $*"
  echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo -dirty)"
  echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {print int($2/1024) " MiB"}' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "upstream: $UPSTREAM_ATTACHER_BIN"
} >"$RESULTS/run-info.txt"

run_cell() {  # workload latency qps extra-args...
  local workload=$1 latency=$2 qps=$3; shift 3
  local burst=$qps
  [[ $qps == 5 ]] && burst=10
  log "$workload: latency ${latency}ms, qps $qps/$burst, $REPS rep(s)"
  build/default/bench/attacher-bench --workload="$workload" --latency-ms="$latency" \
    --qps="$qps" --burst="$burst" --workers=10 --timeout=30s --reps="$REPS" \
    --contenders="$CONTENDERS" --upstream-bin="$UPSTREAM_ATTACHER_BIN" \
    --csv="$CSV" --work-dir="$RESULTS/logs" "$@" \
    || log "$workload (latency ${latency}ms, qps $qps) FAILED; see $RESULTS/logs"
}

IFS=, read -ra workloads <<<"$WORKLOADS"
IFS=, read -ra qps_list <<<"$QPS_LIST"
IFS=, read -ra latencies <<<"$LATENCIES"
for workload in "${workloads[@]}"; do
  for qps in "${qps_list[@]}"; do
    case $workload in
      backlog) for l in "${latencies[@]}"; do run_cell backlog "$l" "$qps" --n="$BACKLOG_N"; done ;;
      stream) for l in "${latencies[@]}"; do run_cell stream "$l" "$qps" --n=0 --duration="$STREAM_DURATION"; done ;;
      storm) for l in "${latencies[@]}"; do
               run_cell storm "$l" "$qps" --n="$STORM_N" --attaches="$STORM_ATTACHES"; done ;;
      scale) run_cell scale 0 "$qps" --n="$SCALE_N" ;;
      *) log "unknown workload $workload" ;;
    esac
  done
done

build/default/bench/bench-report "$CSV" >"$RESULTS/report.md"
cat "$RESULTS/report.md"
log "results: $RESULTS (results.csv, report.md, run-info.txt, logs/)"
