// ProvisionStack: the csi-provisioner under benchmark (provision-bench).
// Workloads (--workload): prov-backlog, prov-stream, prov-scale and
// prov-capacity (provision_workload.h and one file each).
// Control planes get the provisioner's ServiceAccount with the RBAC of
// deploy/kubernetes/csi-provisioner/ and the benchmark's StorageClass
// (Delete, Immediate; provision_objects.h). No kube-controller-manager: the
// claims carry the storage-provisioner annotation from their creation and
// nothing binds them. The fault driver creates volumes (its default
// capabilities); with --latency-ms a faults.json rule makes CreateVolume
// take that long; the capacity workload adds topology and GetCapacity.
//
// Contenders, each binary with the same flags whoever built it (the
// provisioner ServiceAccount's kubeconfig, the driver socket, --timeout,
// --worker-threads, --kube-api-qps and --kube-api-burst, the workload's;
// default verbosity, no leader election, default retry intervals):
//   ours      our csi-provisioner
//   upstream  external-provisioner's
//   floor     in process: FloorProvisioner with the same identity, workers
//             and QPS (floor_provisioner.h).
// Requests counted: every resource a provisioner reads or writes, without
// the generator's creation of claims (POST persistentvolumeclaims).
#pragma once

#include <memory>

#include "base/result.h"
#include "bench/stack.h"

namespace bench {

// An empty --ours-bin becomes this build's csi-provisioner. `options` must
// outlive the stack.
base::Result<std::unique_ptr<Stack>> MakeProvisionStack(BenchOptions& options);

}  // namespace bench
