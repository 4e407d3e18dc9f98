#include "resizer/volume_expander.h"

#include <optional>
#include <utility>

#include "csi/capabilities.h"
#include "csi_params/access_modes.h"
#include "migration/translate.h"

namespace resizer {
namespace {

// The volume's capability as upstream builds it from the PV: block for a
// Block PV, else mount with the CSI fsType and the PV's mount options; the
// access mode from the PV's modes together.
base::Result<csi::v1::VolumeCapability> CapabilityOf(const kube::PersistentVolume& volume,
                                                     const kube::CSIPersistentVolumeSource& source,
                                                     bool single_node_multi_writer) {
  csi::v1::VolumeCapability capability;
  if (volume.spec.volume_mode.str() == "Block") {
    capability.mutable_block();
  } else {
    auto* mount = capability.mutable_mount();
    mount->set_fs_type(source.fs_type.str());
    for (const std::string& option : volume.spec.mount_options) mount->add_mount_flags(option);
  }
  base::Result<csi_params::AccessMode> mode =
      csi_params::ToCsiAccessMode(volume.spec.access_modes, single_node_multi_writer);
  if (!mode.ok()) return mode.error();
  capability.mutable_access_mode()->set_mode(
      static_cast<csi::v1::VolumeCapability::AccessMode::Mode>(*mode));
  return capability;
}

}  // namespace

base::Result<Expansion> CsiVolumeExpander::Expand(const kube::PersistentVolume& given,
                                                  int64_t bytes, const kube::StringMap& secrets) {
  std::optional<kube::PersistentVolume> translated;
  if (!std::holds_alternative<kube::CSIPersistentVolumeSource>(given.spec.source)) {
    if (!translates_in_tree_) {
      return base::Error("volume " + given.metadata.name + " is not migrated to CSI");
    }
    base::Result<kube::PersistentVolume> csi_volume = migration::TranslateInTreePvToCsi(given);
    if (!csi_volume.ok()) {
      return base::Error("failed to translate persistent volume: " + csi_volume.error().message);
    }
    translated = std::move(*csi_volume);
  }
  const kube::PersistentVolume& volume = translated ? *translated : given;
  const auto* source = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
  if (source->volume_handle.empty()) return base::Error("empty volume handle");
  // Asked before every expansion, as upstream does.
  base::Result<std::set<csi::ControllerRpc::Type>> rpcs =
      csi::GetControllerRpcs(connection_, timeout_);
  base::Result<csi::v1::VolumeCapability> capability =
      rpcs.ok() ? CapabilityOf(volume, *source,
                               rpcs->contains(csi::ControllerRpc::SINGLE_NODE_MULTI_WRITER))
                : base::Result<csi::v1::VolumeCapability>(rpcs.error());
  if (!capability.ok()) {
    return base::Error("failed to get capabilities of volume " + volume.metadata.name + " with " +
                       capability.error().message);
  }
  csi::v1::ControllerExpandVolumeRequest request;
  request.set_volume_id(source->volume_handle);
  request.mutable_capacity_range()->set_required_bytes(bytes);
  for (const auto& [key, value] : secrets) (*request.mutable_secrets())[key] = value;
  *request.mutable_volume_capability() = std::move(*capability);
  auto response = controller_.ControllerExpandVolume(
      request, {.timeout = timeout_, .migrated = translated.has_value()});
  if (!response.ok()) return response.error();
  return Expansion{.capacity_bytes = response->capacity_bytes(),
                   .node_expansion_required = response->node_expansion_required()};
}

}  // namespace resizer
