// The objects the provisioner benchmark populates, through the admin client,
// in one namespace. No kube-controller-manager runs, so the bench does what
// its PV controller would: a claim of the benchmark driver's class carries
// the storage-provisioner annotation from its creation. For the capacity
// workload: Nodes in zones (objects only: no kubelet) with the CSINodes of a
// driver that reports the zone key, and WaitForFirstConsumer classes, some
// allowed in a few zones only.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

inline constexpr const char* kProvisionNamespace = "default";
inline constexpr const char* kProvisionClassName = "bench-provisioned";
inline constexpr const char* kZoneKey = "topology.bench.csi.test/zone";

// Immediate binding, reclaim policy Delete.
base::Status CreateProvisionedClass(kube::Client& admin);

// PVC <name> of 1Gi in `storage_class` (of the benchmark driver),
// annotated for the benchmark driver; returns the name of the PV a
// provisioner makes for it, "pvc-<uid>".
base::Result<std::string> CreatePendingClaim(
    kube::Client& admin, const std::string& name,
    const std::string& storage_class = kProvisionClassName);

// "zone-<index % zones>".
std::string ZoneOf(size_t index, size_t zones);

// Node <name> labelled kZoneKey=<zone> and its CSINode for the benchmark
// driver with the topology key kZoneKey.
base::Status CreateZonedNode(kube::Client& admin, const std::string& name, const std::string& zone);

// WaitForFirstConsumer class <name> of the benchmark driver; allowed in
// `zones` only, unless that is empty.
base::Status CreateZonedClass(kube::Client& admin, const std::string& name,
                              const std::vector<std::string>& zones);

}  // namespace bench
