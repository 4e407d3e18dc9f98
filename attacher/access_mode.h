// Kubernetes PV access modes -> the one CSI access mode of a
// VolumeCapability, as csi-lib-utils' accessmodes.ToCSIAccessMode decides it
// (docs/attacher.md §5.3 step 5). The error strings are upstream's, verbatim.
#pragma once

#include <string>
#include <vector>

#include "attacher/volume_publisher.h"
#include "base/result.h"

namespace attacher {

// `single_node_multi_writer`: the driver has the SINGLE_NODE_MULTI_WRITER
// controller capability, which splits RWO (SINGLE_NODE_MULTI_WRITER) from
// RWOP (SINGLE_NODE_SINGLE_WRITER).
base::Result<AccessMode> ToCsiAccessMode(const std::vector<std::string>& pv_access_modes,
                                         bool single_node_multi_writer);

}  // namespace attacher
