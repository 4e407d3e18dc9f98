// HasRoomOnNode: whether the driver has room for a claim on this node
// before a node-deployed provisioner takes the claim (docs/provisioner.md
// §3.12, upstream's checkCapacity). The request is prepared as for
// CreateVolume, with this node as the selected node - side effects
// included, as upstream's: a data source gets its finalizer - then
// GetCapacity is asked, with that request's capabilities and parameters,
// once per requisite topology (once without one when there is none); one
// answer that covers the requested size is enough. A claim that asks for no
// size always fits. An error means the check could not be made.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"
#include "provisioner/volume_provisioning.h"

namespace provisioner {

base::Result<bool> HasRoomOnNode(const ProvisioningContext& context,
                                 const kube::PersistentVolumeClaim& claim,
                                 const kube::StorageClass& storage_class,
                                 const std::string& node_name);

}  // namespace provisioner
