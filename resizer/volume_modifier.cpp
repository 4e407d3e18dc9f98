#include "resizer/volume_modifier.h"

namespace resizer {

base::Status CsiVolumeModifier::Modify(const kube::PersistentVolume& volume,
                                       const kube::StringMap& mutable_parameters,
                                       const kube::StringMap& secrets) {
  const auto* source = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
  if (!source) {
    return base::Error("volume " + volume.metadata.name +
                       " is not a CSI volumes, modify volume feature only supports CSI volumes");
  }
  if (source->volume_handle.empty()) return base::Error("empty volume handle");
  csi::v1::ControllerModifyVolumeRequest request;
  request.set_volume_id(source->volume_handle);
  for (const auto& [key, value] : secrets) (*request.mutable_secrets())[key] = value;
  for (const auto& [key, value] : mutable_parameters) {
    (*request.mutable_mutable_parameters())[key] = value;
  }
  auto response = controller_.ControllerModifyVolume(request, {.timeout = timeout_});
  if (!response.ok()) return response.error();
  return base::Status::Ok();
}

}  // namespace resizer
