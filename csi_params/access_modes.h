// Kubernetes PV access modes -> the one CSI access mode of a
// VolumeCapability, as csi-lib-utils' accessmodes.ToCSIAccessMode decides it
// (docs/attacher.md §5.3 step 5: a PV's modes together; docs/provisioner.md
// §3.3 step 7: each of a claim's modes alone). The error strings are
// upstream's, verbatim.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace csi_params {

// CSI VolumeCapability.AccessMode.Mode values (CSI spec field numbers).
enum class AccessMode {
  kUnknown = 0,
  kSingleNodeWriter = 1,
  kSingleNodeReaderOnly = 2,
  kMultiNodeReaderOnly = 3,
  kMultiNodeSingleWriter = 4,
  kMultiNodeMultiWriter = 5,
  kSingleNodeSingleWriter = 6,
  kSingleNodeMultiWriter = 7,
};

// `single_node_multi_writer`: the driver has the SINGLE_NODE_MULTI_WRITER
// controller capability, which splits RWO (SINGLE_NODE_MULTI_WRITER) from
// RWOP (SINGLE_NODE_SINGLE_WRITER).
base::Result<AccessMode> ToCsiAccessMode(const std::vector<std::string>& pv_access_modes,
                                         bool single_node_multi_writer);

}  // namespace csi_params
