// The owner of the CSIStorageCapacity objects (docs/provisioner.md §5
// "Owner", --capacity-ownerref-level): starting from the provisioner's own
// Pod ($NAMESPACE/$POD_NAME), level 0 is the Pod itself, 1 its controlling
// owner as the Pod names it (a StatefulSet, a DaemonSet, a ReplicaSet), 2
// that owner's controlling owner (a Deployment), and so on: each level above
// 1 GETs the object it climbs from. So that the garbage collector deletes
// the objects with the deployment that made them.
//
// An owner's REST resource is its kind lowercased plus "s" (replicasets,
// deployments, statefulsets, daemonsets), where upstream asks discovery.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/object_meta.h"
#include "kube/client/client.h"

namespace provisioner {

// The reference to put in every object, with controller: true. Errors say
// which GET failed, or upstream's "... has no controlling owner, cannot
// unwind the ownership further".
base::Result<kube::OwnerReference> LookUpCapacityOwner(kube::Client& client, const std::string& ns,
                                                       const std::string& pod_name, int level);

}  // namespace provisioner
