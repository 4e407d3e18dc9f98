// SnapshotStack: the snapshot pair under benchmark (snapshot-bench):
// snapshot-controller + csi-snapshotter. Workloads (--workload): snap-backlog,
// snap-stream, snap-readiness, snap-scale (snapshot_workload.h and one file
// each). Control planes get the snapshot CRDs (--crds-dir), both
// ServiceAccounts of deploy/kubernetes/ with their RBAC, and the benchmark
// VolumeSnapshotClass (policy Delete). The fault driver knows the workload's
// source volumes; with --latency-ms or a readiness workload a faults.json
// rule makes CreateSnapshot take that long and answer ready only from its
// ReadyAfter()-th answer.
//
// Contenders, each binary with the same flags whoever built it
// (--kubeconfig of its ServiceAccount and ClientFlags; the sidecar also the
// driver socket and --timeout; default verbosity, no leader election):
//   ours      our snapshot-controller + our csi-snapshotter
//   upstream  upstream's two binaries
//   mixed     upstream's snapshot-controller + our csi-snapshotter (our
//             sidecar's share of a difference, measured alone)
//   floor     in process: FloorSnapshotController + FloorSnapshotSidecar,
//             each with its component's identity and the same QPS and
//             workers, polling an unready snapshot every second.
// Requests counted: the snapshot kinds, claims, volumes, events, secrets
// and CRDs, without the generator's POSTs and DELETEs of VolumeSnapshots.
#pragma once

#include <memory>

#include "base/result.h"
#include "bench/stack.h"

namespace bench {

// Empty --ours-bin / --ours-controller-bin become this build's csi-snapshotter
// and snapshot-controller. `options` must outlive the stack.
base::Result<std::unique_ptr<Stack>> MakeSnapshotStack(BenchOptions& options);

}  // namespace bench
