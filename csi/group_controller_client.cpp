#include "csi/group_controller_client.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "csi/methods.h"

namespace csi {

GroupControllerClient::GroupControllerClient(Connection& connection)
    : connection_(connection), stub_(v1::GroupController::NewStub(connection.channel())) {}

base::Result<v1::GroupControllerGetCapabilitiesResponse>
GroupControllerClient::GroupControllerGetCapabilities(std::chrono::nanoseconds timeout) {
  return connection_.Call(*stub_, &v1::GroupController::Stub::GroupControllerGetCapabilities,
                          kGroupControllerGetCapabilitiesMethod, {}, {.timeout = timeout});
}

base::Result<v1::CreateVolumeGroupSnapshotResponse>
GroupControllerClient::CreateVolumeGroupSnapshot(
    const v1::CreateVolumeGroupSnapshotRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::GroupController::Stub::CreateVolumeGroupSnapshot,
                          kCreateVolumeGroupSnapshotMethod, request, options);
}

base::Status GroupControllerClient::DeleteVolumeGroupSnapshot(
    const v1::DeleteVolumeGroupSnapshotRequest& request, const CallOptions& options) {
  auto response = connection_.Call(*stub_, &v1::GroupController::Stub::DeleteVolumeGroupSnapshot,
                                   kDeleteVolumeGroupSnapshotMethod, request, options);
  if (!response.ok()) return response.error();
  return base::Status::Ok();
}

base::Result<v1::GetVolumeGroupSnapshotResponse> GroupControllerClient::GetVolumeGroupSnapshot(
    const v1::GetVolumeGroupSnapshotRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::GroupController::Stub::GetVolumeGroupSnapshot,
                          kGetVolumeGroupSnapshotMethod, request, options);
}

}  // namespace csi
