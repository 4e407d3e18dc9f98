#!/usr/bin/env bash
# The demo, driven with kubectl and the manifests of examples/: on a fresh
# machine, installs what is missing, builds our binaries and the peers
# (kubectl of the API server's version among them), starts a local control
# plane (etcd + kube-apiserver with RBAC and real TLS, the snapshot CRDs), the
# CSI mock driver (Kubernetes' e2e mock) and our csi-attacher,
# snapshot-controller and csi-snapshotter, each as its own RBAC-limited
# ServiceAccount. Then:
#   1. attach: `kubectl apply -f examples/attach.yaml` (CSINode, PVs,
#      VolumeAttachments), watched until every VolumeAttachment is attached;
#   2. detach: deleting the VolumeAttachments waits for the attacher to detach
#      and drop its finalizer; the PVs go the same way;
#   3. snapshot: a bound PVC, a VolumeSnapshotClass and a VolumeSnapshot,
#      watched until readyToUse;
#   4. a PVC restoring from the snapshot holds the snapshot's deletion
#      (`kubectl describe` shows the controller's Event naming it); once the
#      PVC is gone the snapshot, its content and the driver's snapshot go;
#   5. each binary's /metrics, the interesting lines.
# Leaves nothing running. Logs stay in $DEMO_DIR (printed at the end).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true

DEMO_DIR=${DEMO_DIR:-$(mktemp -d /tmp/csi-demo.XXXXXX)}
mkdir -p "$DEMO_DIR"
WAIT=120s  # every kubectl wait: generous, the machine may be busy

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# run CMD...: shows a command, then runs it with its output indented.
run() {
  printf '\033[2m$ %s\033[0m\n' "$*"
  "$@" 2>&1 | sed 's/^/  /'
}

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  echo
  echo "Everything stopped. Logs: $DEMO_DIR (attacher.log, snapshotter.log, snapshot-controller.log, csi-driver.log, cp/*.log)"
}
trap cleanup EXIT

say "Installing packages and building (cached after the first run)"
scripts/install-deps.sh
PEERS=$(tools/peers/build.sh etcd kube kubectl csi-mock crds)
eval "$(grep -E '^[A-Z_]+_(BIN|DIR)=' <<<"$PEERS")"
export ETCD_BIN KUBE_APISERVER_BIN
cmake --preset default >/dev/null
cmake --build --preset default --target csi-attacher csi-snapshotter snapshot-controller local-control-plane

say "Starting etcd + kube-apiserver (with the snapshot CRDs)"
build/default/local-control-plane --dir "$DEMO_DIR/cp" --crds "$SNAPSHOT_CRDS_DIR" >"$DEMO_DIR/control-plane.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 240); do
  grep -q '^ready' "$DEMO_DIR/control-plane.out" 2>/dev/null && break
  kill -0 "${PIDS[0]}" 2>/dev/null || { cat "$DEMO_DIR/control-plane.out"; exit 1; }
  sleep 0.5
done
grep -q '^ready' "$DEMO_DIR/control-plane.out" || { echo "control plane not ready"; exit 1; }
# shellcheck disable=SC1091
source "$DEMO_DIR/cp/env"
export KUBECONFIG=$ADMIN_KUBECONFIG
kubectl() { "$KUBECTL_BIN" "$@"; }
run kubectl version

# free_port VAR: sets VAR to a free local port for a binary's /metrics, the
# next one from 18080 on that nothing answers on.
NEXT_PORT=18080
free_port() {
  while (exec 3<>"/dev/tcp/127.0.0.1/$NEXT_PORT") 2>/dev/null; do NEXT_PORT=$((NEXT_PORT + 1)); done
  printf -v "$1" '%s' "$NEXT_PORT"
  NEXT_PORT=$((NEXT_PORT + 1))
}
# start NAME COMMAND...: runs a binary in the background, output to NAME.log.
start() {
  local name=$1; shift
  "$@" >"$DEMO_DIR/$name.log" 2>&1 &
  PIDS+=($!)
}
# watch_start FILE RESOURCE [ARGS...]: `kubectl get -w` in the background,
# printed by watch_show once the step is done.
watch_start() {
  local file=$1; shift
  kubectl get "$@" --watch --output-watch-events >"$DEMO_DIR/$file" 2>&1 &
  WATCH_PID=$!
  PIDS+=("$WATCH_PID")
}
watch_show() {
  kill "$WATCH_PID" 2>/dev/null || true
  wait "$WATCH_PID" 2>/dev/null || true
  printf '\033[2m$ kubectl get %s -w --output-watch-events   (as it streamed)\033[0m\n' "$1"
  sed 's/^/  /' "$DEMO_DIR/$2"
}

# scrape NAME PORT REGEX: the lines of a binary's /metrics that match.
scrape() {
  printf '\033[2m$ curl http://127.0.0.1:%s/metrics | grep -E %q\033[0m   (%s)\n' "$2" "$3" "$1"
  curl -sS "http://127.0.0.1:$2/metrics" | grep -E "$3" | sed 's/^/  /' || true
}

DRIVER=csi-mock.demo.example.com
say "Starting the CSI driver ($DRIVER) and our three binaries"
start csi-driver "$CSI_MOCK_BIN" --endpoint "$DEMO_DIR/csi.sock" --name "$DRIVER" --create-volumes 3
free_port ATTACHER_PORT
free_port SNAPSHOTTER_PORT
free_port CONTROLLER_PORT
start attacher build/default/cmd/csi-attacher/csi-attacher --kubeconfig "$ATTACHER_KUBECONFIG" \
  --csi-address "$DEMO_DIR/csi.sock" --timeout 15s --http-endpoint "127.0.0.1:$ATTACHER_PORT" -v=2
start snapshot-controller build/default/cmd/snapshot-controller/snapshot-controller \
  --kubeconfig "$SNAPSHOT_CONTROLLER_KUBECONFIG" --http-endpoint "127.0.0.1:$CONTROLLER_PORT" -v=2
start snapshotter build/default/cmd/csi-snapshotter/csi-snapshotter --kubeconfig "$SNAPSHOTTER_KUBECONFIG" \
  --csi-address "$DEMO_DIR/csi.sock" --http-endpoint "127.0.0.1:$SNAPSHOTTER_PORT" -v=2
# await_metrics NAME PORT: waits until NAME serves /metrics (so it started,
# connected to the driver and the API server); fails with its log's tail.
await_metrics() {
  local deadline=$((SECONDS + 120))
  until curl -sf -o /dev/null "http://127.0.0.1:$2/metrics"; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "$1 serves no /metrics on :$2:"; tail -n 5 "$DEMO_DIR/$1.log"; exit 1; }
    sleep 0.5
  done
}
await_metrics attacher "$ATTACHER_PORT"
await_metrics snapshot-controller "$CONTROLLER_PORT"
await_metrics snapshotter "$SNAPSHOTTER_PORT"
echo "  csi-attacher        as default/csi-attacher,            metrics on :$ATTACHER_PORT"
echo "  snapshot-controller as kube-system/snapshot-controller, metrics on :$CONTROLLER_PORT"
echo "  csi-snapshotter     as default/csi-snapshotter,         metrics on :$SNAPSHOTTER_PORT"

say "1. Attach: a CSINode, three PVs and a VolumeAttachment for each"
watch_start va-watch.txt volumeattachments -l demo=attach
run kubectl apply -f examples/attach.yaml
run kubectl wait volumeattachments -l demo=attach --for=jsonpath='{.status.attached}'=true --timeout=$WAIT
watch_show "volumeattachments -l demo=attach" va-watch.txt
run kubectl get volumeattachments -l demo=attach \
  -o custom-columns='NAME:.metadata.name,ATTACHED:.status.attached,FINALIZERS:.metadata.finalizers,NODE-ID:.metadata.annotations.csi\.alpha\.kubernetes\.io/node-id'
run kubectl get pv -l demo=attach -o custom-columns='NAME:.metadata.name,VOLUME:.spec.csi.volumeHandle,FINALIZERS:.metadata.finalizers'
scrape csi-attacher "$ATTACHER_PORT" '^csi_attacher_volumeattachments'

say "2. Detach: deleting the VolumeAttachments waits for the attacher to detach and drop its finalizer"
run kubectl delete volumeattachments -l demo=attach --wait --timeout=$WAIT
say "   ...and the PVs: the attacher removes its PV finalizer"
run kubectl delete pv -l demo=attach --wait --timeout=$WAIT

say "3. Snapshot: a bound PVC, a VolumeSnapshotClass and a VolumeSnapshot of the PVC"
run kubectl apply -f examples/snapshot-source.yaml
# No kube-controller-manager runs: the binding's last steps are ours.
PVC_UID=$(kubectl get pvc demo-pvc -o jsonpath='{.metadata.uid}')
run kubectl patch pv demo-snap-pv --type merge -p "{\"spec\":{\"claimRef\":{\"uid\":\"$PVC_UID\"}}}"
run kubectl patch pv demo-snap-pv --subresource status --type merge -p '{"status":{"phase":"Bound"}}'
run kubectl patch pvc demo-pvc --subresource status --type merge -p '{"status":{"phase":"Bound"}}'
watch_start snap-watch.txt volumesnapshots
run kubectl apply -f examples/volumesnapshotclass.yaml -f examples/volumesnapshot.yaml
run kubectl wait volumesnapshot/demo-snapshot --for=jsonpath='{.status.readyToUse}'=true --timeout=$WAIT
watch_show volumesnapshots snap-watch.txt
CONTENT=$(kubectl get volumesnapshot demo-snapshot -o jsonpath='{.status.boundVolumeSnapshotContentName}')
run kubectl get volumesnapshots,volumesnapshotcontents
run kubectl describe volumesnapshot demo-snapshot

say "4. A PVC restoring from demo-snapshot holds its deletion"
run kubectl apply -f examples/restore-pvc.yaml
run kubectl patch pvc demo-restore --subresource status --type merge -p '{"status":{"phase":"Pending"}}'
run kubectl delete volumesnapshot demo-snapshot --wait=false
delete_pending() {
  [ -n "$(kubectl get events --field-selector involvedObject.name=demo-snapshot,reason=SnapshotDeletePending -o name)" ]
}
deadline=$((SECONDS + 120))
until delete_pending; do
  [ "$SECONDS" -lt "$deadline" ] || { echo "no SnapshotDeletePending Event; see $DEMO_DIR/snapshot-controller.log"; exit 1; }
  sleep 0.5
done
run kubectl get volumesnapshot demo-snapshot \
  -o custom-columns='NAME:.metadata.name,DELETING-SINCE:.metadata.deletionTimestamp,FINALIZERS:.metadata.finalizers'
run kubectl describe volumesnapshot demo-snapshot
say "   Deleting demo-restore: the snapshot, its content and the driver's snapshot go"
run kubectl delete pvc demo-restore
run kubectl wait volumesnapshot/demo-snapshot --for=delete --timeout=$WAIT
run kubectl wait "volumesnapshotcontent/$CONTENT" --for=delete --timeout=$WAIT
deadline=$((SECONDS + 120))
until grep -q 'csi-mock call /csi.v1.Controller/DeleteSnapshot: OK' "$DEMO_DIR/csi-driver.log"; do
  [ "$SECONDS" -lt "$deadline" ] || { echo "the driver saw no DeleteSnapshot; see $DEMO_DIR/snapshotter.log"; exit 1; }
  sleep 0.5
done
run kubectl get volumesnapshots,volumesnapshotcontents
echo "  the driver's calls:"
grep -o 'csi-mock call /csi.v1.Controller/[A-Za-z]*: [A-Za-z]*' "$DEMO_DIR/csi-driver.log" | sort | uniq -c | sed 's/^ */    /'

say "5. Metrics (the interesting lines of each /metrics)"
scrape csi-attacher "$ATTACHER_PORT" '^csi_sidecar_operations_seconds_count'
scrape snapshot-controller "$CONTROLLER_PORT" '^snapshot_controller_(operation_total_seconds_count|operations_in_flight)'
scrape csi-snapshotter "$SNAPSHOTTER_PORT" '^csi_sidecar_operations_seconds_count'
say "Demo finished"
