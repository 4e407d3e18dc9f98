#include "provisioner/volume_driver.h"

namespace provisioner {

base::Result<csi::v1::Volume> CsiVolumeDriver::CreateVolume(
    const csi::v1::CreateVolumeRequest& request, bool migrated) {
  auto response = controller_.CreateVolume(request, {.timeout = timeout_, .migrated = migrated});
  if (!response.ok()) return response.error();
  return response->volume();
}

base::Status CsiVolumeDriver::DeleteVolume(const std::string& volume_id, const Secrets& secrets,
                                           bool migrated) {
  csi::v1::DeleteVolumeRequest request;
  request.set_volume_id(volume_id);
  request.mutable_secrets()->insert(secrets.begin(), secrets.end());
  return controller_.DeleteVolume(request, {.timeout = timeout_, .migrated = migrated});
}

base::Result<int64_t> CsiVolumeDriver::GetCapacity(const csi::v1::GetCapacityRequest& request) {
  auto response = controller_.GetCapacity(request, {.timeout = timeout_});
  if (!response.ok()) return response.error();
  return response->available_capacity();
}

}  // namespace provisioner
