#!/usr/bin/env bash
# Runs every test from a fresh machine: installs packages, builds (or finds
# cached) the real peers in the background while it builds the shipped
# binaries, integration tests and benchmarks under `default` and the unit
# tests under `asan`, runs the unit tests under `asan`, and the integration
# tests (real etcd + kube-apiserver + CSI driver; the shipped binaries also
# from their image roots, scripts/image-rootfs.sh) and the binaries' checks
# under `default`. Prints how long each phase took and a closing
# "N passed, N failed" line over both runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# ccache keyed on paths relative to the clone, so a fresh clone (CI) reuses the
# objects an earlier clone compiled.
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true

declare -a PHASES=()
phase() {
  local name=$1; shift
  local start=$SECONDS
  echo "=== $name"
  "$@"
  PHASES+=("$(printf '%-28s %5ds' "$name" $((SECONDS - start)))")
}

PASSED=0
FAILED=0
# What failed, repeated at the end of the run: a CI page shows only the tail.
FAILURES=$(mktemp)
run_ctest() {
  local preset=$1 label=$2 log
  log=$(mktemp)
  local rc=0
  ctest --preset "$preset" -L "$label" -j2 --output-on-failure 2>&1 | tee "$log" || rc=$?
  # Each failed test's line and the last lines of its output, which ctest
  # prints right after it.
  awk -v run="$preset/$label" '
    / Test +#[0-9]+: .*\*\*\*/ { if (keep) flush(); name = $0; n = 0; keep = 1; next }
    keep && (/^ +Start +[0-9]+:/ || / Test +#[0-9]+: / || /tests passed, /) { flush(); keep = 0 }
    keep { line[n++ % 30] = $0 }
    END { if (keep) flush() }
    function flush(   i, from) {
      print "--- " run ": " name
      from = n > 30 ? n - 30 : 0
      for (i = from; i < n; i++) print line[i % 30]
      n = 0
    }' "$log" >>"$FAILURES"
  local summary
  summary=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$summary" ]; then
    echo "test.sh: ctest ($preset, $label) printed no summary" >&2
    FAILED=$((FAILED + 1))
  else
    local failed total
    failed=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$summary")
    total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$summary")
    PASSED=$((PASSED + total - failed))
    FAILED=$((FAILED + failed))
  fi
  rm -f "$log"
  return 0
}

# build PRESET [TARGET...]: all targets unless some are named.
build() {
  local preset=$1; shift
  cmake --preset "$preset" >/dev/null
  if [ $# -gt 0 ]; then
    cmake --build --preset "$preset" --target "$@"
  else
    cmake --build --preset "$preset"
  fi
}

# Only the integration tests need the peers: they build (or are found in their
# cache) in the background while the C++ builds and the unit tests run, so
# their module downloads and links overlap the compile instead of preceding it.
# A run that stops early leaves them building: they land in their cache for
# the next run.
PEERS_LOG=$(mktemp)
trap 'rm -f "$PEERS_LOG" "$FAILURES"' EXIT
peers_start() {
  {
    local start=$SECONDS rc=0
    tools/peers/build.sh || rc=$?
    echo "peers: built or found in $((SECONDS - start))s (in the background)"
    exit "$rc"
  } >"$PEERS_LOG" 2>&1 &
  PEERS_PID=$!
}

peers_wait() {
  local rc=0
  wait "$PEERS_PID" || rc=$?
  cat "$PEERS_LOG"
  [ "$rc" -eq 0 ] || { echo "test.sh: tools/peers/build.sh failed ($rc)" >&2; return "$rc"; }
  eval "$(grep -E '^[A-Z_]+_(BIN|DIR)=' "$PEERS_LOG")"
  export ETCD_BIN KUBE_APISERVER_BIN KUBECTL_BIN KUBE_CONTROLLER_MANAGER_BIN KUBE_SCHEDULER_BIN \
    CSI_MOCK_BIN UPSTREAM_ATTACHER_BIN UPSTREAM_SNAPSHOTTER_BIN UPSTREAM_SNAPSHOT_CONTROLLER_BIN \
    SNAPSHOT_CRDS_DIR GATEWAY_CRDS_DIR UPSTREAM_PROVISIONER_BIN UPSTREAM_RESIZER_BIN
}

TOTAL_START=$SECONDS
phase "install packages" scripts/install-deps.sh
peers_start
# The unit tests build and run under `asan` only: under `default` they would
# take a third of a cold build to run the same cases again without the
# sanitizers. `default` builds what ships, the integration tests, the demo's
# control plane and the benchmarks.
phase "build default" build default integration_tests benchmarks local-control-plane
phase "build asan" build asan unit_tests
phase "unit tests (asan)" run_ctest asan unit
phase "peers (wait for build)" peers_wait
phase "integration tests" run_ctest default 'integration|binaries'

echo
echo "Phase timings:"
printf '  %s\n' "${PHASES[@]}"
printf '  %-28s %5ds\n' "total" $((SECONDS - TOTAL_START))
if [ -s "$FAILURES" ]; then
  echo
  echo "Failed tests (last lines of each one's output):"
  cat "$FAILURES"
fi
echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
