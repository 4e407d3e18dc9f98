// The VolumeCapability a ControllerPublishVolume carries for a volume spec
// (docs/attacher.md §5.3 steps 4-5): volumeMode Block -> block, anything else ->
// mount with the CSI fsType (or --default-fstype when that is empty) and the
// PV's mountOptions as mount flags; the access mode from ToCsiAccessMode,
// whose errors are the only ones returned.
#pragma once

#include <string_view>

#include "attacher/volume_publisher.h"
#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace attacher {

// `csi` is the CSI source of `spec`.
base::Result<VolumeCapability> VolumeCapabilityFor(const kube::PersistentVolumeSpec& spec,
                                                   const kube::CSIPersistentVolumeSource& csi,
                                                   bool single_node_multi_writer,
                                                   std::string_view default_fstype);

}  // namespace attacher
