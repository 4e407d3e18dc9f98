#!/usr/bin/env bash
# The demo: on a fresh machine, installs what is missing, builds, starts a local
# control plane (etcd + kube-apiserver with RBAC and real TLS), the CSI mock
# driver (Kubernetes' e2e mock, attach-capable) and our csi-attacher running as
# its RBAC-limited ServiceAccount; creates volumes, PVs, a CSINode and
# VolumeAttachments, shows them attach, deletes them and shows the detach; then
# runs our snapshot-controller and our csi-snapshotter (each as its own
# ServiceAccount) on the same control plane and driver, takes a VolumeSnapshot
# of a bound PVC and shows it ready; a PVC restoring from it (Pending: no
# provisioner runs) holds its deletion, with the controller's Event naming that
# PVC; once the PVC is gone the snapshot, its content and the driver's snapshot
# go; then stops everything. Logs stay in $DEMO_DIR (printed at the
# end).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true

COUNT=${DEMO_VOLUMES:-5}
DRIVER=csi-mock.demo.example.com
NODE=demo-node
DEMO_DIR=${DEMO_DIR:-$(mktemp -d /tmp/csi-attacher-demo.XXXXXX)}
mkdir -p "$DEMO_DIR"

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

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
PEERS=$(tools/peers/build.sh etcd kube csi-mock crds)
eval "$(grep -E '^[A-Z_]+_(BIN|DIR)=' <<<"$PEERS")"
export ETCD_BIN KUBE_APISERVER_BIN
cmake --preset default >/dev/null
cmake --build --preset default --target csi-attacher csi-snapshotter snapshot-controller local-control-plane

say "Starting etcd + kube-apiserver"
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
ADMIN_TOKEN=$(sed -n 's/^ *token: *//p' "$ADMIN_KUBECONFIG" | head -1)
echo "API server: $SERVER"

# kapi METHOD PATH [JSON-BODY [CONTENT-TYPE]]: one API call as the admin.
kapi() {
  local args=(-sS --fail-with-body --cacert "$CA_FILE" -H "Authorization: Bearer $ADMIN_TOKEN"
    -H "Content-Type: ${4:-application/json}" -X "$1" "$SERVER$2")
  [ $# -ge 3 ] && args+=(--data "$3")
  curl "${args[@]}"
}

say "Starting the CSI driver ($DRIVER) with $COUNT volumes"
"$CSI_MOCK_BIN" --endpoint "$DEMO_DIR/csi.sock" --name "$DRIVER" --create-volumes "$COUNT" \
  >"$DEMO_DIR/csi-driver.log" 2>&1 &
PIDS+=($!)

say "Starting csi-attacher as ServiceAccount default/csi-attacher"
build/default/cmd/csi-attacher/csi-attacher --kubeconfig "$ATTACHER_KUBECONFIG" \
  --csi-address "$DEMO_DIR/csi.sock" --timeout 15s --worker-threads 4 -v=2 \
  >"$DEMO_DIR/attacher.log" 2>&1 &
PIDS+=($!)

say "Creating a CSINode, $COUNT PersistentVolumes and $COUNT VolumeAttachments"
# The mock driver's node ID is its driver name.
kapi POST /apis/storage.k8s.io/v1/csinodes \
  "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"CSINode\",\"metadata\":{\"name\":\"$NODE\"},\"spec\":{\"drivers\":[{\"name\":\"$DRIVER\",\"nodeID\":\"$DRIVER\"}]}}" >/dev/null
for i in $(seq 1 "$COUNT"); do
  handle=$((i + 3))  # created volumes follow the mock's three built-in ones
  kapi POST /api/v1/persistentvolumes \
    "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"demo-pv-$i\"},\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},\"accessModes\":[\"ReadWriteOnce\"],\"persistentVolumeReclaimPolicy\":\"Retain\",\"csi\":{\"driver\":\"$DRIVER\",\"volumeHandle\":\"$handle\",\"fsType\":\"ext4\"}}}" >/dev/null
  kapi POST /apis/storage.k8s.io/v1/volumeattachments \
    "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"VolumeAttachment\",\"metadata\":{\"name\":\"demo-va-$i\"},\"spec\":{\"attacher\":\"$DRIVER\",\"nodeName\":\"$NODE\",\"source\":{\"persistentVolumeName\":\"demo-pv-$i\"}}}" >/dev/null
  echo "  demo-pv-$i (volume $handle) -> demo-va-$i on $NODE"
done

# Prints one line per VA: name attached finalizers; returns how many are attached.
show_vas() {
  kapi GET /apis/storage.k8s.io/v1/volumeattachments | jq -r '.items[]
    | select(.metadata.name | startswith("demo-va-"))
    | "  \(.metadata.name)  attached=\(.status.attached // false)  finalizers=\(.metadata.finalizers // [] | join(","))  node-id=\(.metadata.annotations["csi.alpha.kubernetes.io/node-id"] // "-")\(if .status.attachError then "  error=" + .status.attachError.message else "" end)"'
}
count_attached() {
  kapi GET /apis/storage.k8s.io/v1/volumeattachments |
    jq '[.items[] | select(.metadata.name | startswith("demo-va-")) | select(.status.attached == true)] | length'
}
count_vas() {
  kapi GET /apis/storage.k8s.io/v1/volumeattachments |
    jq '[.items[] | select(.metadata.name | startswith("demo-va-"))] | length'
}

say "Waiting for the attacher to attach them"
last=-1
for _ in $(seq 1 120); do
  n=$(count_attached)
  [ "$n" != "$last" ] && { echo "  $n/$COUNT attached"; last=$n; }
  [ "$n" -eq "$COUNT" ] && break
  sleep 0.5
done
show_vas
[ "$(count_attached)" -eq "$COUNT" ] || { echo "not all attached; see $DEMO_DIR/attacher.log"; exit 1; }
echo "  PV finalizers: $(kapi GET /api/v1/persistentvolumes/demo-pv-1 | jq -c '.metadata.finalizers')"

say "Deleting the VolumeAttachments: the attacher detaches, then drops its finalizer"
for i in $(seq 1 "$COUNT"); do kapi DELETE "/apis/storage.k8s.io/v1/volumeattachments/demo-va-$i" >/dev/null; done
last=-1
for _ in $(seq 1 120); do
  n=$(count_vas)
  [ "$n" != "$last" ] && { echo "  $n VolumeAttachments left"; last=$n; }
  [ "$n" -eq 0 ] && break
  sleep 0.5
done
[ "$(count_vas)" -eq 0 ] || { show_vas; echo "detach did not finish; see $DEMO_DIR/attacher.log"; exit 1; }

say "Deleting the PersistentVolumes: the attacher removes its PV finalizer"
for i in $(seq 1 "$COUNT"); do kapi DELETE "/api/v1/persistentvolumes/demo-pv-$i" >/dev/null; done
for _ in $(seq 1 60); do
  left=$(kapi GET /api/v1/persistentvolumes | jq '[.items[] | select(.metadata.name | startswith("demo-pv-"))] | length')
  [ "$left" -eq 0 ] && break
  sleep 0.5
done
echo "  $left demo PersistentVolumes left"
[ "$left" -eq 0 ] || exit 1

say "What the attacher logged (last lines)"
tail -n 8 "$DEMO_DIR/attacher.log"

# await SECONDS LOG COMMAND...: polls COMMAND until it succeeds; after SECONDS
# the demo fails, pointing at LOG.
await() {
  local seconds=$1 log=$2 deadline=$((SECONDS + $1))
  shift 2
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "gave up after ${seconds}s waiting for: $*; see $log"; exit 1; }
    sleep 0.5
  done
}

say "Starting our snapshot-controller (kube-system/snapshot-controller) and csi-snapshotter (default/csi-snapshotter)"
# A free local port for its metrics: the first one nothing answers on.
CONTROLLER_PORT=18080
while (exec 3<>"/dev/tcp/127.0.0.1/$CONTROLLER_PORT") 2>/dev/null; do CONTROLLER_PORT=$((CONTROLLER_PORT + 1)); done
build/default/cmd/snapshot-controller/snapshot-controller --kubeconfig "$SNAPSHOT_CONTROLLER_KUBECONFIG" \
  --http-endpoint "127.0.0.1:$CONTROLLER_PORT" -v=2 >"$DEMO_DIR/snapshot-controller.log" 2>&1 &
PIDS+=($!)
build/default/cmd/csi-snapshotter/csi-snapshotter --kubeconfig "$SNAPSHOTTER_KUBECONFIG" \
  --csi-address "$DEMO_DIR/csi.sock" -v=2 >"$DEMO_DIR/snapshotter.log" 2>&1 &
PIDS+=($!)

SNAP_VOLUME=4  # the first created volume; its PV above is gone, the volume is not
say "Creating a PVC bound to a PV of volume $SNAP_VOLUME, a VolumeSnapshotClass and a VolumeSnapshot"
PVC_UID=$(kapi POST /api/v1/namespaces/default/persistentvolumeclaims \
  '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"demo-pvc"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"","volumeName":"demo-snap-pv"}}' |
  jq -r .metadata.uid)
kapi POST /api/v1/persistentvolumes \
  "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"demo-snap-pv\"},\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},\"accessModes\":[\"ReadWriteOnce\"],\"persistentVolumeReclaimPolicy\":\"Retain\",\"claimRef\":{\"namespace\":\"default\",\"name\":\"demo-pvc\",\"uid\":\"$PVC_UID\"},\"csi\":{\"driver\":\"$DRIVER\",\"volumeHandle\":\"$SNAP_VOLUME\"}}}" >/dev/null
# No kube-controller-manager runs: the binding's status is ours to write.
for path in /api/v1/persistentvolumes/demo-snap-pv /api/v1/namespaces/default/persistentvolumeclaims/demo-pvc; do
  kapi PATCH "$path/status" '{"status":{"phase":"Bound"}}' application/merge-patch+json >/dev/null
done
kapi POST /apis/snapshot.storage.k8s.io/v1/volumesnapshotclasses \
  "{\"apiVersion\":\"snapshot.storage.k8s.io/v1\",\"kind\":\"VolumeSnapshotClass\",\"metadata\":{\"name\":\"demo-snapclass\"},\"driver\":\"$DRIVER\",\"deletionPolicy\":\"Delete\"}" >/dev/null
kapi POST /apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots \
  '{"apiVersion":"snapshot.storage.k8s.io/v1","kind":"VolumeSnapshot","metadata":{"name":"demo-snapshot"},"spec":{"volumeSnapshotClassName":"demo-snapclass","source":{"persistentVolumeClaimName":"demo-pvc"}}}' >/dev/null
echo "  demo-pvc <-> demo-snap-pv (volume $SNAP_VOLUME), phase $(kapi GET /api/v1/namespaces/default/persistentvolumeclaims/demo-pvc | jq -r .status.phase)"
echo "  demo-snapshot of demo-pvc, class demo-snapclass (driver $DRIVER, deletionPolicy Delete)"

SNAPSHOT_PATH=/apis/snapshot.storage.k8s.io/v1/namespaces/default/volumesnapshots/demo-snapshot
snapshot_ready() { [ "$(kapi GET "$SNAPSHOT_PATH" | jq -r '.status.readyToUse // false')" = true ]; }
say "Waiting for the snapshot to become readyToUse"
await 120 "$DEMO_DIR/snapshotter.log and $DEMO_DIR/snapshot-controller.log" snapshot_ready
CONTENT=$(kapi GET "$SNAPSHOT_PATH" | jq -r .status.boundVolumeSnapshotContentName)
CONTENT_PATH=/apis/snapshot.storage.k8s.io/v1/volumesnapshotcontents/$CONTENT
kapi GET "$SNAPSHOT_PATH" | jq -r '"  demo-snapshot  readyToUse=\(.status.readyToUse)  restoreSize=\(.status.restoreSize)  creationTime=\(.status.creationTime)\n  content=\(.status.boundVolumeSnapshotContentName)"'
kapi GET "$CONTENT_PATH" | jq -r '"  \(.metadata.name)  snapshotHandle=\(.status.snapshotHandle)  restoreSize=\(.status.restoreSize)  finalizers=\(.metadata.finalizers // [] | join(","))"'

gone() { [ "$(kapi GET "$1" 2>/dev/null | jq -r .code)" = 404 ]; }
driver_deleted_snapshot() { grep -q 'csi-mock call /csi.v1.Controller/DeleteSnapshot: OK' "$DEMO_DIR/csi-driver.log"; }
say "Creating demo-restore, a PVC restoring from demo-snapshot (it stays Pending: no provisioner runs)"
kapi POST /api/v1/namespaces/default/persistentvolumeclaims \
  '{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"demo-restore"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}},"storageClassName":"","dataSource":{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"demo-snapshot"}}}' >/dev/null
kapi PATCH /api/v1/namespaces/default/persistentvolumeclaims/demo-restore/status '{"status":{"phase":"Pending"}}' application/merge-patch+json >/dev/null
delete_pending_event() {
  kapi GET "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=demo-snapshot,reason=SnapshotDeletePending" |
    jq -e '.items | length > 0' >/dev/null
}
say "Deleting the VolumeSnapshot: the controller holds it while demo-restore restores from it"
kapi DELETE "$SNAPSHOT_PATH" >/dev/null
await 60 "$DEMO_DIR/snapshot-controller.log" delete_pending_event
kapi GET "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name=demo-snapshot,reason=SnapshotDeletePending" |
  jq -r '.items[0] | "  Event \(.type) \(.reason): \(.message)"'
kapi GET "$SNAPSHOT_PATH" | jq -r '"  demo-snapshot still there, deletionTimestamp=\(.metadata.deletionTimestamp), finalizers=\(.metadata.finalizers | join(","))"'
say "Deleting demo-restore: the controller deletes the content, the snapshotter the driver's snapshot"
kapi DELETE /api/v1/namespaces/default/persistentvolumeclaims/demo-restore >/dev/null
await 120 "$DEMO_DIR/snapshot-controller.log" gone "$SNAPSHOT_PATH"
echo "  demo-snapshot gone"
await 120 "$DEMO_DIR/snapshotter.log" gone "$CONTENT_PATH"
echo "  $CONTENT gone"
await 120 "$DEMO_DIR/csi-driver.log" driver_deleted_snapshot
echo "  the driver's snapshot calls:"
grep -o 'csi-mock call /csi.v1.Controller/[A-Za-z]*Snapshot: [A-Za-z]*' "$DEMO_DIR/csi-driver.log" | sort | uniq -c | sed 's/^ */    /'

say "What the snapshotter logged (last lines)"
tail -n 8 "$DEMO_DIR/snapshotter.log"
say "The snapshot-controller's metrics"
curl -sS "http://127.0.0.1:$CONTROLLER_PORT/metrics" | grep -E '^snapshot_controller_(operation_total_seconds_count|operations_in_flight)' | sed 's/^/  /' || true
say "Demo finished"
