#include "attacher/volume_capability.h"

#include "csi_params/access_modes.h"

namespace attacher {

base::Result<VolumeCapability> VolumeCapabilityFor(const kube::PersistentVolumeSpec& spec,
                                                   const kube::CSIPersistentVolumeSource& csi,
                                                   bool single_node_multi_writer,
                                                   std::string_view default_fstype) {
  VolumeCapability capability;
  if (spec.volume_mode == "Block") {
    capability.block = true;
  } else {
    capability.fs_type = csi.fs_type.empty() ? std::string(default_fstype) : csi.fs_type.str();
    capability.mount_flags = spec.mount_options;
  }
  auto mode = csi_params::ToCsiAccessMode(spec.access_modes, single_node_multi_writer);
  if (!mode.ok()) return mode.error();
  capability.access_mode = *mode;
  return capability;
}

}  // namespace attacher
