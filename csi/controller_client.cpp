#include "csi/controller_client.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "csi/methods.h"

namespace csi {

ControllerClient::ControllerClient(Connection& connection)
    : connection_(connection), stub_(v1::Controller::NewStub(connection.channel())) {}

base::Result<std::map<std::string, std::string>> ControllerClient::ControllerPublishVolume(
    const v1::ControllerPublishVolumeRequest& request, const CallOptions& options) {
  v1::ControllerPublishVolumeResponse response;
  auto status =
      connection_.Invoke(kControllerPublishVolumeMethod, request, response, options,
                         [&](grpc::ClientContext* context) {
                           return stub_->ControllerPublishVolume(context, request, &response);
                         });
  if (!status.ok()) return status.error();
  return std::map<std::string, std::string>(response.publish_context().begin(),
                                            response.publish_context().end());
}

base::Status ControllerClient::ControllerUnpublishVolume(
    const v1::ControllerUnpublishVolumeRequest& request, const CallOptions& options) {
  v1::ControllerUnpublishVolumeResponse response;
  return connection_.Invoke(kControllerUnpublishVolumeMethod, request, response, options,
                            [&](grpc::ClientContext* context) {
                              return stub_->ControllerUnpublishVolume(context, request, &response);
                            });
}

base::Result<PublishedVolumes> ControllerClient::ListVolumes(
    int32_t max_entries, std::chrono::nanoseconds page_timeout) {
  PublishedVolumes published;
  v1::ListVolumesRequest request;
  request.set_max_entries(max_entries);
  do {
    v1::ListVolumesResponse response;
    auto status = connection_.Invoke(kListVolumesMethod, request, response,
                                     {.timeout = page_timeout}, [&](grpc::ClientContext* context) {
                                       return stub_->ListVolumes(context, request, &response);
                                     });
    if (!status.ok()) return status.error().Wrap("failed to list volumes");
    for (const auto& entry : response.entries()) {
      if (!entry.has_volume() || !entry.has_status()) continue;
      const auto& nodes = entry.status().published_node_ids();
      published[entry.volume().volume_id()] = std::vector<std::string>(nodes.begin(), nodes.end());
    }
    request.set_starting_token(response.next_token());
  } while (!request.starting_token().empty());
  return published;
}

base::Result<v1::ControllerGetCapabilitiesResponse> ControllerClient::ControllerGetCapabilities(
    std::chrono::nanoseconds timeout) {
  v1::ControllerGetCapabilitiesRequest request;
  v1::ControllerGetCapabilitiesResponse response;
  auto status =
      connection_.Invoke(kControllerGetCapabilitiesMethod, request, response, {.timeout = timeout},
                         [&](grpc::ClientContext* context) {
                           return stub_->ControllerGetCapabilities(context, request, &response);
                         });
  if (!status.ok()) return status.error();
  return response;
}

}  // namespace csi
