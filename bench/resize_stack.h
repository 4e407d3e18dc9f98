// ResizeStack: the csi-resizer under benchmark (resize-bench). Workloads
// (--workload): resize-backlog, resize-pods (resize_workload.h and one file
// each).
// Control planes get the resizer's ServiceAccount with the RBAC of
// deploy/kubernetes/csi-resizer/ and the benchmark's StorageClass that
// allows expansion (resize_objects.h). The fault driver advertises
// EXPAND_VOLUME and answers ControllerExpandVolume with the size asked for
// and no node step; with --latency-ms a faults.json rule makes the call take
// that long.
//
// Contenders, each binary with the same flags whoever built it (the
// resizer ServiceAccount's kubeconfig, the driver socket, --timeout,
// --workers, --kube-api-qps and --kube-api-burst; default verbosity, no
// leader election, default retry intervals):
//   ours      our csi-resizer
//   upstream  external-resizer's
//   floor     in process: FloorResizer with the same identity, workers and
//             QPS (floor_resizer.h).
// Requests counted: claims, volumes, pods, events, secrets and
// VolumeAttributesClasses, without the generator's raises of the claims'
// requests (PATCH persistentvolumeclaims; the resizers' writes go to
// persistentvolumeclaims/status).
#pragma once

#include <memory>

#include "base/result.h"
#include "bench/stack.h"

namespace bench {

// An empty --ours-bin becomes this build's csi-resizer. `options` must
// outlive the stack.
base::Result<std::unique_ptr<Stack>> MakeResizeStack(BenchOptions& options);

}  // namespace bench
