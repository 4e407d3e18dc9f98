// The provisioner as a part of csi-sidecars (component/controller_part.h):
// its own flags as --provisioner-<flag>, csi-provisioner's checks and
// start-up decisions (setup.h), its Lease (provisioner/names.h) and identity
// variable CSI_PROVISIONER_LEADER_IDENTITY. What csi-provisioner reports
// fatally once the driver is known (NodeGetInfo failing in node deployment,
// capacity tracking without $NAMESPACE) turns the part off instead.
#pragma once

#include <memory>

#include "component/controller_part.h"

namespace csiprovisioner {

std::unique_ptr<component::ControllerPart> NewProvisionerPart();

}  // namespace csiprovisioner
