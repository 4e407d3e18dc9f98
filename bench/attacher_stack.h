// AttacherStack: the csi-attacher under benchmark (attacher-bench). Control
// planes get the CSINode of the benchmark node; the fault driver publishes
// and unpublishes with --latency-ms; "ours" and "upstream" are the two
// attacher binaries (the attacher ServiceAccount's kubeconfig, the driver
// socket, --timeout and ClientFlags), "floor" the in-process FloorController
// with the same identity, workers and QPS. Requests counted: volumeattachments,
// persistentvolumes, csinodes, secrets, events, without the generator's POSTs
// and DELETEs of VAs and PVs.
#pragma once

#include <memory>

#include "base/result.h"
#include "bench/stack.h"

namespace bench {

// An empty --ours-bin becomes this build's csi-attacher. `options` must
// outlive the stack.
base::Result<std::unique_ptr<Stack>> MakeAttacherStack(BenchOptions& options);

}  // namespace bench
