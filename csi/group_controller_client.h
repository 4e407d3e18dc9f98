// Calls on the driver's GroupController service (plugins advertising
// GROUP_CONTROLLER_SERVICE). Each call runs under its own deadline; failures
// are gRPC errors as described in csi/errors.h.
#pragma once

#include <chrono>
#include <memory>

#include "base/result.h"
#include "csi/connection.h"
#include "csi/proto/csi.grpc.pb.h"

namespace csi {

class GroupControllerClient {
 public:
  explicit GroupControllerClient(Connection& connection);

  base::Result<v1::GroupControllerGetCapabilitiesResponse> GroupControllerGetCapabilities(
      std::chrono::nanoseconds timeout);

  base::Result<v1::CreateVolumeGroupSnapshotResponse> CreateVolumeGroupSnapshot(
      const v1::CreateVolumeGroupSnapshotRequest& request, const CallOptions& options);

  base::Status DeleteVolumeGroupSnapshot(const v1::DeleteVolumeGroupSnapshotRequest& request,
                                         const CallOptions& options);

  // The current state of a group snapshot (pre-provisioned groups are polled with it).
  base::Result<v1::GetVolumeGroupSnapshotResponse> GetVolumeGroupSnapshot(
      const v1::GetVolumeGroupSnapshotRequest& request, const CallOptions& options);

 private:
  Connection& connection_;
  std::unique_ptr<v1::GroupController::Stub> stub_;
};

}  // namespace csi
