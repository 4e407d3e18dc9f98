#!/usr/bin/env bash
# Runs csi-sidecars as one controller sidecar, so the sidecar's suites run it
# with the command line they give the sidecar (docs/csi-sidecars.md):
#   as_csi_sidecars.sh CONTROLLER CSI_SIDECARS [SIDECAR FLAGS...]
# adds --controllers=CONTROLLER and gives every flag csi-sidecars does not
# share the prefix CONTROLLER- (--worker-threads=5 -> --attacher-worker-threads=5).
# exec keeps the process id, so signals and /proc reach csi-sidecars itself.
set -euo pipefail
controller=$1
binary=$2
shift 2
# The flags csi-sidecars takes once, for all its controllers.
shared=" csi-address kubeconfig master kube-api-qps kube-api-burst leader-election
  leader-election-namespace leader-election-lease-duration leader-election-renew-deadline
  leader-election-retry-period leader-election-labels http-endpoint metrics-address metrics-path
  feature-gates version automaxprocs v vmodule logging-format log-flush-frequency
  log-json-info-buffer-size log-json-split-stream log-text-info-buffer-size log-text-split-stream
  timeout max-grpc-log-length "
shared=$(echo $shared | tr '\n' ' ')
shared=" $shared "
args=("--controllers=$controller")
for arg in "$@"; do
  if [[ $arg == -?* && $arg != -- ]]; then
    name=${arg#-}
    name=${name#-}
    if [[ $shared != *" ${name%%=*} "* ]]; then arg="--$controller-$name"; fi
  fi
  args+=("$arg")
done
exec "$binary" "${args[@]}"
