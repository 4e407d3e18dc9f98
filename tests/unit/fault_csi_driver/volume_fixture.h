// VolumeFixture: DriverFixture with CreateVolume and DeleteVolume as a
// provisioner would send them.
#pragma once

#include <string>

#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {

inline constexpr int64_t kGiB = int64_t{1} << 30;

class VolumeFixture : public DriverFixture {
 protected:
  // One mount capability, as for a Filesystem PVC; `required_bytes` 0 leaves
  // the capacity range out.
  static csi::v1::CreateVolumeRequest CreateRequest(const std::string& name,
                                                    int64_t required_bytes = 0) {
    csi::v1::CreateVolumeRequest request;
    request.set_name(name);
    if (required_bytes != 0) request.mutable_capacity_range()->set_required_bytes(required_bytes);
    csi::v1::VolumeCapability* capability = request.add_volume_capabilities();
    capability->mutable_mount()->set_fs_type("ext4");
    capability->mutable_access_mode()->set_mode(
        csi::v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
    return request;
  }

  grpc::Status CreateVolume(const csi::v1::CreateVolumeRequest& request,
                            csi::v1::CreateVolumeResponse* response = nullptr,
                            std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    csi::v1::CreateVolumeResponse ignored;
    return controller_->CreateVolume(Context(timeout).get(), request,
                                     response ? response : &ignored);
  }
  grpc::Status CreateVolume(const std::string& name) { return CreateVolume(CreateRequest(name)); }
  // The new volume's ID, or "" (with a test failure) when the call fails.
  std::string CreateVolumeId(const std::string& name) {
    csi::v1::CreateVolumeResponse response;
    grpc::Status status = CreateVolume(CreateRequest(name), &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response.volume().volume_id();
  }

  grpc::Status DeleteVolume(const std::string& volume_id,
                            std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    csi::v1::DeleteVolumeRequest request;
    request.set_volume_id(volume_id);
    csi::v1::DeleteVolumeResponse response;
    return controller_->DeleteVolume(Context(timeout).get(), request, &response);
  }
};

}  // namespace faultdriver
