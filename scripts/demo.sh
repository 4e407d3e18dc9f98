#!/usr/bin/env bash
# The demo, driven with kubectl and the manifests of examples/: on a fresh
# machine, installs what is missing, builds our binaries and the peers
# (kubectl and kube-controller-manager of the API server's version among
# them), starts a local control plane (etcd + kube-apiserver with RBAC and real
# TLS, the snapshot CRDs, kube-controller-manager with its PersistentVolume
# binder and attach-detach controller), the CSI mock driver (Kubernetes' e2e
# mock) and our csi-provisioner, csi-attacher, snapshot-controller and
# csi-snapshotter, each as its own RBAC-limited ServiceAccount (the
# provisioner's from deploy/kubernetes/csi-provisioner/rbac.yaml, applied with
# kubectl, its token from `kubectl create token`). No kubelet runs. Then:
#   1. provision and attach, as in a cluster: `kubectl apply -f
#      examples/attach.yaml` (a Node, its CSINode, the CSIDriver, the driver's
#      StorageClass and three claims of it): the provisioner makes a volume
#      and a PV for each claim, which the binder binds (`kubectl describe pvc`
#      shows the Provisioning Events); then examples/attach-pod.yaml (a Pod on
#      the Node using the claims): the attach-detach controller creates a
#      VolumeAttachment per volume, watched until the attacher has attached
#      each; the Node lists them;
#   2. detach: deleting the Pod makes the controller delete the
#      VolumeAttachments, which go once the attacher has detached and dropped
#      its finalizer; deleting the claims then makes the provisioner delete
#      their volumes and PVs (reclaimPolicy Delete);
#   3. snapshot: a claim the provisioner provisions, a VolumeSnapshotClass
#      and a VolumeSnapshot, watched until readyToUse;
#   4. restore: a claim restoring from the snapshot, which our provisioner
#      makes from the snapshot's handle and binds (the restored PV shown);
#      the snapshot, no longer a restore's source, is deleted with its
#      content and the driver's snapshot; the restored claim's deletion
#      deletes its volume and PV;
#   5. each binary's /metrics, the interesting lines.
# Leaves nothing running. Logs stay in $DEMO_DIR (printed at the end).
#
# scripts/demo.sh --csi-sidecars: the same, with one csi-sidecars process
# (--controllers=attacher,provisioner,snapshotter, docs/csi-sidecars.md) as
# the ServiceAccount of deploy/kubernetes/csi-sidecars/rbac.yaml in place of
# our csi-provisioner, csi-attacher and csi-snapshotter.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SIDECARS=0
case "${1:-}" in
  "") ;;
  --csi-sidecars) SIDECARS=1 ;;
  *) echo "usage: scripts/demo.sh [--csi-sidecars]" >&2; exit 2 ;;
esac
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
  echo "Everything stopped. Logs: $DEMO_DIR (provisioner.log, attacher.log, snapshotter.log or csi-sidecars.log, snapshot-controller.log, csi-driver.log, cp/*.log: etcd, kube-apiserver, kube-controller-manager)"
}
trap cleanup EXIT

say "Installing packages and building (cached after the first run)"
scripts/install-deps.sh
PEERS=$(tools/peers/build.sh etcd kube kubectl controller-manager csi-mock crds)
eval "$(grep -E '^[A-Z_]+_(BIN|DIR)=' <<<"$PEERS")"
export ETCD_BIN KUBE_APISERVER_BIN KUBE_CONTROLLER_MANAGER_BIN
cmake --preset default >/dev/null
cmake --build --preset default --target csi-provisioner csi-attacher csi-snapshotter snapshot-controller \
  csi-sidecars local-control-plane

say "Starting etcd + kube-apiserver (with the snapshot CRDs) + kube-controller-manager (PV binder, attach-detach)"
build/default/local-control-plane --dir "$DEMO_DIR/cp" --crds "$SNAPSHOT_CRDS_DIR" --controller-manager \
  >"$DEMO_DIR/control-plane.out" 2>&1 &
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
# account_kubeconfig ACCOUNT RBAC_YAML FILE: applies the account's RBAC as a
# cluster installs it and writes FILE, a kubeconfig with a day-long token of
# default/ACCOUNT from the TokenRequest API, naming the API server and its CA
# as the control plane's other kubeconfigs do; returns once its rules apply.
account_kubeconfig() {
  local account=$1 rbac=$2 file=$3 token
  run kubectl apply -f "$rbac"
  token=$(kubectl create token "$account" --namespace default --duration 24h)
  (
    export KUBECONFIG=$file
    umask 077
    kubectl config set-cluster demo --server "$SERVER" --certificate-authority "$CA_FILE" >/dev/null
    kubectl config set-credentials "$account" --token "$token" >/dev/null
    kubectl config set-context demo --cluster demo --user "$account" --namespace default >/dev/null
    kubectl config use-context demo >/dev/null
  )
  # RBAC objects reach the authorizer a moment after they are created.
  local deadline=$((SECONDS + 60))
  until kubectl --kubeconfig "$file" get persistentvolumes,storageclasses >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "the RBAC rules of default/$account never took effect"; exit 1; }
    sleep 0.5
  done
  run kubectl auth can-i create persistentvolumes --all-namespaces --as "system:serviceaccount:default:$account"
}

if [ "$SIDECARS" = 1 ]; then
  say "csi-sidecars' ServiceAccount and RBAC (the union of the four sidecars' roles); a kubeconfig with its token"
  SIDECARS_KUBECONFIG=$DEMO_DIR/csi-sidecars.kubeconfig
  account_kubeconfig csi-sidecars deploy/kubernetes/csi-sidecars/rbac.yaml "$SIDECARS_KUBECONFIG"
else
  say "The provisioner's ServiceAccount and RBAC, as a cluster installs them; a kubeconfig with its token"
  PROVISIONER_KUBECONFIG=$DEMO_DIR/provisioner.kubeconfig
  account_kubeconfig csi-provisioner deploy/kubernetes/csi-provisioner/rbac.yaml "$PROVISIONER_KUBECONFIG"
fi

# await_metrics NAME PORT: waits until NAME serves /metrics (so it started,
# connected to the driver and the API server); fails with its log's tail.
await_metrics() {
  local deadline=$((SECONDS + 120))
  until curl -sf -o /dev/null "http://127.0.0.1:$2/metrics"; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "$1 serves no /metrics on :$2:"; tail -n 5 "$DEMO_DIR/$1.log"; exit 1; }
    sleep 0.5
  done
}
if [ "$SIDECARS" = 1 ]; then
  say "Starting the CSI driver ($DRIVER), our snapshot-controller and one csi-sidecars"
else
  say "Starting the CSI driver ($DRIVER) and our four binaries"
fi
start csi-driver "$CSI_MOCK_BIN" --endpoint "$DEMO_DIR/csi.sock" --name "$DRIVER"
free_port CONTROLLER_PORT
start snapshot-controller build/default/cmd/snapshot-controller/snapshot-controller \
  --kubeconfig "$SNAPSHOT_CONTROLLER_KUBECONFIG" --http-endpoint "127.0.0.1:$CONTROLLER_PORT" -v=2
if [ "$SIDECARS" = 1 ]; then
  # One endpoint serves the three controllers' metrics: the scrapes below ask it for each.
  free_port PROVISIONER_PORT
  ATTACHER_PORT=$PROVISIONER_PORT SNAPSHOTTER_PORT=$PROVISIONER_PORT
  start csi-sidecars build/default/cmd/csi-sidecars/csi-sidecars --kubeconfig "$SIDECARS_KUBECONFIG" \
    --controllers=attacher,provisioner,snapshotter --csi-address "$DEMO_DIR/csi.sock" --timeout 15s \
    --snapshotter-timeout 1m --http-endpoint "127.0.0.1:$PROVISIONER_PORT" -v=2
  await_metrics csi-sidecars "$PROVISIONER_PORT"
  await_metrics snapshot-controller "$CONTROLLER_PORT"
  echo "  csi-sidecars        as default/csi-sidecars,            metrics on :$PROVISIONER_PORT"
  echo "    (--controllers=attacher,provisioner,snapshotter)"
else
  free_port PROVISIONER_PORT
  free_port ATTACHER_PORT
  free_port SNAPSHOTTER_PORT
  start provisioner build/default/cmd/csi-provisioner/csi-provisioner --kubeconfig "$PROVISIONER_KUBECONFIG" \
    --csi-address "$DEMO_DIR/csi.sock" --timeout 15s --http-endpoint "127.0.0.1:$PROVISIONER_PORT" -v=2
  start attacher build/default/cmd/csi-attacher/csi-attacher --kubeconfig "$ATTACHER_KUBECONFIG" \
    --csi-address "$DEMO_DIR/csi.sock" --timeout 15s --http-endpoint "127.0.0.1:$ATTACHER_PORT" -v=2
  start snapshotter build/default/cmd/csi-snapshotter/csi-snapshotter --kubeconfig "$SNAPSHOTTER_KUBECONFIG" \
    --csi-address "$DEMO_DIR/csi.sock" --http-endpoint "127.0.0.1:$SNAPSHOTTER_PORT" -v=2
  await_metrics provisioner "$PROVISIONER_PORT"
  await_metrics attacher "$ATTACHER_PORT"
  await_metrics snapshot-controller "$CONTROLLER_PORT"
  await_metrics snapshotter "$SNAPSHOTTER_PORT"
  echo "  csi-provisioner     as default/csi-provisioner,         metrics on :$PROVISIONER_PORT"
  echo "  csi-attacher        as default/csi-attacher,            metrics on :$ATTACHER_PORT"
  echo "  csi-snapshotter     as default/csi-snapshotter,         metrics on :$SNAPSHOTTER_PORT"
fi
echo "  snapshot-controller as kube-system/snapshot-controller, metrics on :$CONTROLLER_PORT"

# await_volumeattachments N: waits until N VolumeAttachments exist (the
# attach-detach controller makes them; `kubectl wait` needs them to exist).
await_volumeattachments() {
  local deadline=$((SECONDS + 120))
  until [ "$(kubectl get volumeattachments -o name | wc -l)" -ge "$1" ]; do
    [ "$SECONDS" -lt "$deadline" ] || { echo "the attach-detach controller made no $1 VolumeAttachments; see $DEMO_DIR/cp/kube-controller-manager.log"; exit 1; }
    sleep 0.5
  done
}
VA_COLUMNS='NAME:.metadata.name,PV:.spec.source.persistentVolumeName,NODE:.spec.nodeName,ATTACHED:.status.attached,FINALIZERS:.metadata.finalizers,NODE-ID:.metadata.annotations.csi\.alpha\.kubernetes\.io/node-id'

say "1. Provision, as in a cluster: a Node, its CSINode, the CSIDriver, the driver's StorageClass and three claims of it"
watch_start pvc-watch.txt pvc -l demo=attach
run kubectl apply -f examples/attach.yaml
run kubectl wait pvc -l demo=attach --for=jsonpath='{.status.phase}'=Bound --timeout=$WAIT
watch_show pvc pvc-watch.txt
run kubectl get storageclass demo-sc
run kubectl get pvc,pv
PV_COLUMNS='NAME:.metadata.name,CLAIM:.spec.claimRef.name,VOLUME:.spec.csi.volumeHandle,RECLAIM:.spec.persistentVolumeReclaimPolicy,PROVISIONED-BY:.metadata.annotations.pv\.kubernetes\.io/provisioned-by,FINALIZERS:.metadata.finalizers'
run kubectl get pv -o custom-columns="$PV_COLUMNS"
run kubectl describe pvc demo-claim-1
scrape csi-provisioner "$PROVISIONER_PORT" '^controller_persistentvolumeclaim_provision_total'
say "   ...and a Pod on the Node using the three claims: the attach-detach controller creates the VolumeAttachments"
watch_start va-watch.txt volumeattachments
run kubectl apply -f examples/attach-pod.yaml
await_volumeattachments 3
run kubectl wait volumeattachments --all --for=jsonpath='{.status.attached}'=true --timeout=$WAIT
watch_show volumeattachments va-watch.txt
run kubectl get volumeattachments -o custom-columns="$VA_COLUMNS"
run kubectl get pv -o custom-columns="$PV_COLUMNS"
# The controller reports a volume attached once the attacher has attached it.
deadline=$((SECONDS + 120))
until [ "$(kubectl get node demo-node -o jsonpath='{range .status.volumesAttached[*]}{.name}{"\n"}{end}' | grep -c .)" -ge 3 ]; do
  [ "$SECONDS" -lt "$deadline" ] || { echo "demo-node never listed its 3 volumes; see $DEMO_DIR/cp/kube-controller-manager.log"; exit 1; }
  sleep 0.5
done
NODE_COLUMNS='NODE:.metadata.name,VOLUMES-ATTACHED:.status.volumesAttached[*].name'
run kubectl get node demo-node -o custom-columns="$NODE_COLUMNS"
run kubectl get events --field-selector involvedObject.name=demo-app
scrape csi-attacher "$ATTACHER_PORT" '^csi_attacher_volumeattachments'

say "2. Detach: deleting the Pod makes the controller delete its VolumeAttachments, which go once the attacher has detached"
# --force --grace-period=0: no kubelet will confirm the containers' end.
run kubectl delete pod demo-app --force --grace-period=0
run kubectl wait volumeattachments --all --for=delete --timeout=$WAIT
run kubectl get volumeattachments
run kubectl get node demo-node -o custom-columns="$NODE_COLUMNS"
say "   ...then the claims: the provisioner deletes their volumes and PVs (the attacher has removed its PV finalizer)"
ATTACH_PVS=$(kubectl get pvc -l demo=attach -o jsonpath='{range .items[*]}pv/{.spec.volumeName}{" "}{end}')
watch_start pv-watch.txt pv
run kubectl delete pvc -l demo=attach --wait --timeout=$WAIT
# shellcheck disable=SC2086  # one word per PV
run kubectl wait $ATTACH_PVS --for=delete --timeout=$WAIT
watch_show pv pv-watch.txt
run kubectl get pvc,pv

say "3. Snapshot: a claim the provisioner provisions, a VolumeSnapshotClass and a VolumeSnapshot of the claim"
run kubectl apply -f examples/snapshot-source.yaml
run kubectl wait pvc/demo-pvc --for=jsonpath='{.status.phase}'=Bound --timeout=$WAIT
run kubectl get pvc,pv
watch_start snap-watch.txt volumesnapshots
run kubectl apply -f examples/volumesnapshotclass.yaml -f examples/volumesnapshot.yaml
run kubectl wait volumesnapshot/demo-snapshot --for=jsonpath='{.status.readyToUse}'=true --timeout=$WAIT
watch_show volumesnapshots snap-watch.txt
CONTENT=$(kubectl get volumesnapshot demo-snapshot -o jsonpath='{.status.boundVolumeSnapshotContentName}')
run kubectl get volumesnapshots,volumesnapshotcontents
run kubectl describe volumesnapshot demo-snapshot

say "4. A claim restoring from demo-snapshot: our provisioner makes its volume from the snapshot"
run kubectl apply -f examples/restore-pvc.yaml
run kubectl wait pvc/demo-restore --for=jsonpath='{.status.phase}'=Bound --timeout=$WAIT
RESTORED_PV=$(kubectl get pvc demo-restore -o jsonpath='{.spec.volumeName}')
run kubectl get pvc demo-restore -o custom-columns='NAME:.metadata.name,STATUS:.status.phase,VOLUME:.spec.volumeName,SOURCE-KIND:.spec.dataSource.kind,SOURCE:.spec.dataSource.name'
run kubectl get "pv/$RESTORED_PV" -o custom-columns='NAME:.metadata.name,CLAIM:.spec.claimRef.name,HANDLE:.spec.csi.volumeHandle,CAPACITY:.spec.capacity.storage'
run kubectl get events --field-selector involvedObject.name=demo-restore
say "   Deleting demo-snapshot: nothing restores from it any more, so the snapshot, its content and the driver's snapshot go"
run kubectl delete volumesnapshot demo-snapshot --wait=false
run kubectl wait volumesnapshot/demo-snapshot --for=delete --timeout=$WAIT
run kubectl wait "volumesnapshotcontent/$CONTENT" --for=delete --timeout=$WAIT
deadline=$((SECONDS + 120))
until grep -q 'csi-mock call /csi.v1.Controller/DeleteSnapshot: OK' "$DEMO_DIR/csi-driver.log"; do
  [ "$SECONDS" -lt "$deadline" ] || { echo "the driver saw no DeleteSnapshot; see $DEMO_DIR/snapshotter.log"; exit 1; }
  sleep 0.5
done
say "   Deleting demo-restore: the provisioner deletes its volume and PV"
run kubectl delete pvc demo-restore
run kubectl wait "pv/$RESTORED_PV" --for=delete --timeout=$WAIT
run kubectl get volumesnapshots,volumesnapshotcontents
echo "  the driver's calls:"
grep -o 'csi-mock call /csi.v1.Controller/[A-Za-z]*: [A-Za-z]*' "$DEMO_DIR/csi-driver.log" | sort | uniq -c | sed 's/^ */    /'

say "5. Metrics (the interesting lines of each /metrics)"
if [ "$SIDECARS" = 1 ]; then
  # One connection: every controller's CSI calls in one family, the driver named once.
  scrape csi-sidecars "$PROVISIONER_PORT" \
    '^controller_persistentvolume(claim_provision(_failed)?|_delete)_total|^csi_sidecar_operations_seconds_count|^leader_election_master_status'
else
  scrape csi-provisioner "$PROVISIONER_PORT" \
    '^controller_persistentvolume(claim_provision(_failed)?|_delete)_total|^csi_sidecar_operations_seconds_count.*(Create|Delete)Volume'
  scrape csi-attacher "$ATTACHER_PORT" '^csi_sidecar_operations_seconds_count'
  scrape csi-snapshotter "$SNAPSHOTTER_PORT" '^csi_sidecar_operations_seconds_count'
fi
scrape snapshot-controller "$CONTROLLER_PORT" '^snapshot_controller_(operation_total_seconds_count|operations_in_flight)'
say "Demo finished"
