#include "csi/controller_client.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "csi/methods.h"

namespace csi {

ControllerClient::ControllerClient(Connection& connection)
    : connection_(connection), stub_(v1::Controller::NewStub(connection.channel())) {}

base::Result<std::map<std::string, std::string>> ControllerClient::ControllerPublishVolume(
    const v1::ControllerPublishVolumeRequest& request, const CallOptions& options) {
  auto response = connection_.Call(*stub_, &v1::Controller::Stub::ControllerPublishVolume,
                                   kControllerPublishVolumeMethod, request, options);
  if (!response.ok()) return response.error();
  return std::map<std::string, std::string>(response->publish_context().begin(),
                                            response->publish_context().end());
}

base::Status ControllerClient::ControllerUnpublishVolume(
    const v1::ControllerUnpublishVolumeRequest& request, const CallOptions& options) {
  auto response = connection_.Call(*stub_, &v1::Controller::Stub::ControllerUnpublishVolume,
                                   kControllerUnpublishVolumeMethod, request, options);
  if (!response.ok()) return response.error();
  return base::Status::Ok();
}

base::Result<PublishedVolumes> ControllerClient::ListVolumes(
    int32_t max_entries, std::chrono::nanoseconds page_timeout) {
  PublishedVolumes published;
  v1::ListVolumesRequest request;
  request.set_max_entries(max_entries);
  do {
    auto response = connection_.Call(*stub_, &v1::Controller::Stub::ListVolumes, kListVolumesMethod,
                                     request, {.timeout = page_timeout});
    if (!response.ok()) return response.error().Wrap("failed to list volumes");
    for (const auto& entry : response->entries()) {
      if (!entry.has_volume() || !entry.has_status()) continue;
      const auto& nodes = entry.status().published_node_ids();
      published[entry.volume().volume_id()] = std::vector<std::string>(nodes.begin(), nodes.end());
    }
    request.set_starting_token(response->next_token());
  } while (!request.starting_token().empty());
  return published;
}

base::Result<v1::ControllerGetCapabilitiesResponse> ControllerClient::ControllerGetCapabilities(
    std::chrono::nanoseconds timeout) {
  return connection_.Call(*stub_, &v1::Controller::Stub::ControllerGetCapabilities,
                          kControllerGetCapabilitiesMethod, {}, {.timeout = timeout});
}

base::Result<v1::CreateVolumeResponse> ControllerClient::CreateVolume(
    const v1::CreateVolumeRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::CreateVolume, kCreateVolumeMethod, request,
                          options);
}

base::Status ControllerClient::DeleteVolume(const v1::DeleteVolumeRequest& request,
                                            const CallOptions& options) {
  auto response = connection_.Call(*stub_, &v1::Controller::Stub::DeleteVolume, kDeleteVolumeMethod,
                                   request, options);
  if (!response.ok()) return response.error();
  return base::Status::Ok();
}

base::Result<v1::CreateSnapshotResponse> ControllerClient::CreateSnapshot(
    const v1::CreateSnapshotRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::CreateSnapshot, kCreateSnapshotMethod,
                          request, options);
}

base::Status ControllerClient::DeleteSnapshot(const v1::DeleteSnapshotRequest& request,
                                              const CallOptions& options) {
  auto response = connection_.Call(*stub_, &v1::Controller::Stub::DeleteSnapshot,
                                   kDeleteSnapshotMethod, request, options);
  if (!response.ok()) return response.error();
  return base::Status::Ok();
}

base::Result<v1::ListSnapshotsResponse> ControllerClient::ListSnapshots(
    const v1::ListSnapshotsRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::ListSnapshots, kListSnapshotsMethod,
                          request, options);
}

base::Result<v1::GetCapacityResponse> ControllerClient::GetCapacity(
    const v1::GetCapacityRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::GetCapacity, kGetCapacityMethod, request,
                          options);
}

base::Result<v1::ControllerExpandVolumeResponse> ControllerClient::ControllerExpandVolume(
    const v1::ControllerExpandVolumeRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::ControllerExpandVolume,
                          kControllerExpandVolumeMethod, request, options);
}

base::Result<v1::ControllerModifyVolumeResponse> ControllerClient::ControllerModifyVolume(
    const v1::ControllerModifyVolumeRequest& request, const CallOptions& options) {
  return connection_.Call(*stub_, &v1::Controller::Stub::ControllerModifyVolume,
                          kControllerModifyVolumeMethod, request, options);
}

}  // namespace csi
