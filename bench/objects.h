// The objects the attacher benchmark populates: one CSINode, and
// PersistentVolume + VolumeAttachment pairs for the benchmark's CSI driver,
// either fresh (the attacher has work to do) or already attached
// (finalizers, node-id annotation and status.attached=true, as an attacher
// would have left them). All creation goes through the admin client. The
// driver's name and ObjectName serve every stack.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

inline constexpr const char* kDriverName = "bench.csi.test";
inline constexpr const char* kNodeName = "node-1";

// "<prefix>-000042": fixed width, so the API server lists them in index order.
std::string ObjectName(const std::string& prefix, size_t index);

base::Status CreateCsiNode(kube::Client& admin);

// PV `name` (volume handle = name) and VA `name` pointing at it.
base::Status CreatePv(kube::Client& admin, const std::string& name);
base::Status CreateVa(kube::Client& admin, const std::string& name);
base::Status CreatePair(kube::Client& admin, const std::string& name);

// The pair as left by a completed attach: PV and VA carry the attacher's
// finalizer, the VA its node-id annotation and status.attached=true.
base::Status CreateAttachedPair(kube::Client& admin, const std::string& name);

base::Status DeleteVa(kube::Client& admin, const std::string& name);

}  // namespace bench
