// The objects the resize benchmark populates, through the admin client, in
// one namespace: the benchmark driver's StorageClass that allows expansion
// (without it the API server's admission refuses a larger request), claims
// of kResizeFrom Bound to their PVs with status.capacity set (bound_claim.h),
// the raise of a claim's request that asks a resizer to expand it, and Pods
// that use claims, as a resizer's in-use Pod cache holds them.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

inline constexpr const char* kResizeNamespace = "default";
inline constexpr const char* kResizeClassName = "bench-expandable";
inline constexpr const char* kResizeFrom = "1Gi";
inline constexpr const char* kResizeTo = "2Gi";

base::Status CreateExpandableClass(kube::Client& admin);

// PVC <name> of kResizeFrom, Bound to PV <name> whose volume handle is <name>;
// with `binder_annotations` also as the PV binder marks them (bound_claim.h).
base::Status CreateResizableClaim(kube::Client& admin, const std::string& name,
                                  bool binder_annotations = false);

// Pod <name> using claim <claim>, with what a running application's Pod
// carries (labels, an owner, two containers with env, resources, probes and
// mounts, scheduling fields) and a Running status as kubelet writes it
// (conditions, IPs, container states): about 4 KB of JSON, so a cache of
// whole Pods costs what it costs in a real cluster.
base::Status CreateRunningPodUsing(kube::Client& admin, const std::string& name,
                                   const std::string& claim);

// Sets the claim's spec.resources.requests.storage (a merge patch).
base::Status RequestStorage(kube::Client& admin, const std::string& name, const std::string& size);

}  // namespace bench
