// PodStack: one driver's controller Pod under benchmark (pod-bench, issue
// 40): the four controller sidecars (attacher, provisioner, resizer,
// snapshotter) as upstream's four binaries, as ours, and as csi-sidecars,
// one process running all four. Workloads (--workload): pod-mix and
// pod-scale (pod_workload.h and one file each).
// Control planes get kube-controller-manager (the PV binder binds the
// provisioned claims), the snapshot CRDs (--crds-dir), the benchmark's
// expandable StorageClass, its VolumeSnapshotClass and the one CSINode
// naming the driver. The fault driver publishes and expands besides its
// default capabilities (it creates volumes and snapshots) and keeps no
// state file, so it stays cheap.
//
// Contenders, every process with the admin kubeconfig (the same for all: the
// benchmark compares processes, not RBAC), the driver socket, --timeout,
// --kube-api-qps and --kube-api-burst and the same worker count for each
// controller, default verbosity, no leader election:
//   upstream4     upstream's four binaries (--upstream-<name>-bin each)
//   ours4         this build's csi-attacher, csi-provisioner, csi-resizer
//                 and csi-snapshotter
//   csi-sidecars  this build's csi-sidecars with all four controllers (each
//                 with its own QPS budget, as docs/csi-sidecars.md says)
// Each process's role is its controller's name ("sidecars" for
// csi-sidecars), so the runner writes their totals (all_cpu_s,
// max_peak_rss_mb, all_tcp_connections ...).
// Requests counted: every resource the four controllers read or write,
// without the generator's writes (claims, their resize, attachments,
// contents); kube-controller-manager's binding writes to claims and PVs are
// in the count, the same for every contender.
#pragma once

#include <memory>

#include "base/result.h"
#include "bench/stack.h"

namespace bench {

// `options` must outlive the stack.
base::Result<std::unique_ptr<Stack>> MakePodStack(BenchOptions& options);

}  // namespace bench
