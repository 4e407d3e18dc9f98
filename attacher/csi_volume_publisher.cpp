#include "attacher/csi_volume_publisher.h"

namespace attacher {
namespace {

namespace v1 = csi::v1;

void FillCapability(const VolumeCapability& capability, v1::VolumeCapability& out) {
  if (capability.block) {
    out.mutable_block();
  } else {
    v1::VolumeCapability::MountVolume* mount = out.mutable_mount();
    mount->set_fs_type(capability.fs_type);
    for (const std::string& flag : capability.mount_flags) mount->add_mount_flags(flag);
  }
  out.mutable_access_mode()->set_mode(
      static_cast<v1::VolumeCapability::AccessMode::Mode>(capability.access_mode));
}

}  // namespace

base::Result<std::map<std::string, std::string>> CsiVolumePublisher::Publish(
    const PublishRequest& r) {
  v1::ControllerPublishVolumeRequest request;
  request.set_volume_id(r.volume_id);
  request.set_node_id(r.node_id);
  FillCapability(r.capability, *request.mutable_volume_capability());
  request.set_readonly(r.readonly);
  request.mutable_secrets()->insert(r.secrets.begin(), r.secrets.end());
  request.mutable_volume_context()->insert(r.volume_context.begin(), r.volume_context.end());
  return client_.ControllerPublishVolume(request, {.timeout = timeout_, .migrated = r.migrated});
}

base::Status CsiVolumePublisher::Unpublish(const UnpublishRequest& r) {
  v1::ControllerUnpublishVolumeRequest request;
  request.set_volume_id(r.volume_id);
  request.set_node_id(r.node_id);
  request.mutable_secrets()->insert(r.secrets.begin(), r.secrets.end());
  return client_.ControllerUnpublishVolume(request, {.timeout = timeout_, .migrated = r.migrated});
}

}  // namespace attacher
