#include "tests/fault_csi_driver/controller_service.h"

#include <map>

#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {
namespace {

using AccessMode = csi::v1::VolumeCapability::AccessMode;
using Capability = csi::v1::ControllerServiceCapability::RPC;

bool IsMultiNode(AccessMode::Mode mode) {
  return mode == AccessMode::MULTI_NODE_READER_ONLY ||
         mode == AccessMode::MULTI_NODE_SINGLE_WRITER ||
         mode == AccessMode::MULTI_NODE_MULTI_WRITER;
}

}  // namespace

grpc::Status ControllerService::ControllerPublishVolume(
    grpc::ServerContext* context, const csi::v1::ControllerPublishVolumeRequest* request,
    csi::v1::ControllerPublishVolumeResponse* response) {
  CallScope call(driver_, context, "ControllerPublishVolume");
  call.SetTarget(request->volume_id(), request->node_id());
  call.request()["readonly"] = request->readonly();
  if (request->has_volume_capability()) {
    call.request()["volume_capability"] = MessageJson(request->volume_capability());
  }
  call.request()["volume_context"] = StringMap(request->volume_context());
  call.request()["secrets"] = SecretKeys(request->secrets());
  if (!request->volume_id().empty()) driver_.registry->NotePublishCall(request->volume_id());

  if (auto early = call.Begin(driver_.options->publish_latency)) return call.Finish(*early);
  grpc::Status status = Publish(*request, response);
  if (status.ok()) call.response()["publish_context"] = StringMap(response->publish_context());
  return call.Finish(status);
}

grpc::Status ControllerService::Publish(const csi::v1::ControllerPublishVolumeRequest& request,
                                        csi::v1::ControllerPublishVolumeResponse* response) {
  if (request.volume_id().empty()) return InvalidArgument("volume ID missing in request");
  if (request.node_id().empty()) return InvalidArgument("node ID missing in request");
  if (!request.has_volume_capability()) return InvalidArgument("volume capability missing");
  const auto& accepted = driver_.options->node_ids;
  if (!accepted.empty() && accepted.count(request.node_id()) == 0) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "node " + request.node_id() + " not found");
  }
  const bool single_node = !IsMultiNode(request.volume_capability().access_mode().mode());
  std::map<std::string, std::string> volume_context(request.volume_context().begin(),
                                                    request.volume_context().end());
  PublishOutcome outcome = driver_.registry->Publish(request.volume_id(), request.node_id(),
                                                     single_node, volume_context);
  if (outcome == PublishOutcome::kDeleted) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        "volume " + request.volume_id() + " was deleted");
  }
  if (outcome == PublishOutcome::kAttachedElsewhere) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                        "volume " + request.volume_id() + " is published to another node");
  }
  (*response->mutable_publish_context())["devicePath"] = "/dev/fault/" + request.volume_id();
  return grpc::Status::OK;
}

grpc::Status ControllerService::ControllerUnpublishVolume(
    grpc::ServerContext* context, const csi::v1::ControllerUnpublishVolumeRequest* request,
    csi::v1::ControllerUnpublishVolumeResponse* response) {
  CallScope call(driver_, context, "ControllerUnpublishVolume");
  call.SetTarget(request->volume_id(), request->node_id());
  call.request()["secrets"] = SecretKeys(request->secrets());
  if (!request->volume_id().empty()) driver_.registry->NoteUnpublishCall(request->volume_id());

  if (auto early = call.Begin(driver_.options->unpublish_latency)) return call.Finish(*early);
  if (request->volume_id().empty()) {
    return call.Finish(InvalidArgument("volume ID missing in request"));
  }
  driver_.registry->Unpublish(request->volume_id(), request->node_id());
  return call.Finish(grpc::Status::OK);
}

grpc::Status ControllerService::ListVolumes(grpc::ServerContext* context,
                                            const csi::v1::ListVolumesRequest* request,
                                            csi::v1::ListVolumesResponse* response) {
  CallScope call(driver_, context, "ListVolumes");
  call.request()["max_entries"] = request->max_entries();
  call.request()["starting_token"] = request->starting_token();
  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = List(*request, response);
  if (status.ok()) {
    call.response()["entries"] = response->entries_size();
    call.response()["next_token"] = response->next_token();
  }
  return call.Finish(status);
}

grpc::Status ControllerService::List(const csi::v1::ListVolumesRequest& request,
                                     csi::v1::ListVolumesResponse* response) {
  if (!driver_.options->Advertises(Capability::LIST_VOLUMES)) {
    return NotAdvertised("LIST_VOLUMES");
  }
  if (request.max_entries() < 0) return InvalidArgument("max_entries must not be negative");
  auto page =
      driver_.registry->List(static_cast<size_t>(request.max_entries()), request.starting_token());
  if (!page) {
    return grpc::Status(grpc::StatusCode::ABORTED,
                        "invalid starting_token \"" + request.starting_token() + "\"");
  }
  const bool published_nodes =
      driver_.options->Advertises(Capability::LIST_VOLUMES_PUBLISHED_NODES);
  for (const VolumeRegistry::ListEntry& entry : page->entries) {
    csi::v1::ListVolumesResponse::Entry* out = response->add_entries();
    out->mutable_volume()->set_volume_id(entry.volume_id);
    out->mutable_volume()->set_capacity_bytes(entry.capacity_bytes);
    out->mutable_volume()->mutable_volume_context()->insert(entry.volume_context.begin(),
                                                            entry.volume_context.end());
    csi::v1::ListVolumesResponse::VolumeStatus* status = out->mutable_status();
    if (!published_nodes) continue;
    for (const std::string& node : entry.published_node_ids) status->add_published_node_ids(node);
  }
  response->set_next_token(page->next_token);
  return grpc::Status::OK;
}

grpc::Status ControllerService::ControllerExpandVolume(
    grpc::ServerContext* context, const csi::v1::ControllerExpandVolumeRequest* request,
    csi::v1::ControllerExpandVolumeResponse* response) {
  CallScope call(driver_, context, "ControllerExpandVolume");
  call.SetTarget(request->volume_id(), "");
  call.request()["required_bytes"] = request->capacity_range().required_bytes();
  call.request()["secrets"] = SecretKeys(request->secrets());
  if (auto early = call.Begin()) return call.Finish(*early);
  if (!driver_.options->Advertises(Capability::EXPAND_VOLUME)) {
    return call.Finish(NotAdvertised("EXPAND_VOLUME"));
  }
  if (request->volume_id().empty()) return call.Finish(InvalidArgument("volume ID missing"));
  const std::optional<FaultRule>& fault = call.fault();
  response->set_capacity_bytes(fault && fault->capacity_bytes
                                   ? *fault->capacity_bytes
                                   : request->capacity_range().required_bytes());
  response->set_node_expansion_required(fault && fault->node_expansion_required);
  call.response()["capacity_bytes"] = response->capacity_bytes();
  call.response()["node_expansion_required"] = response->node_expansion_required();
  return call.Finish(grpc::Status::OK);
}

grpc::Status ControllerService::ControllerModifyVolume(
    grpc::ServerContext* context, const csi::v1::ControllerModifyVolumeRequest* request,
    csi::v1::ControllerModifyVolumeResponse* response) {
  CallScope call(driver_, context, "ControllerModifyVolume");
  call.SetTarget(request->volume_id(), "");
  call.request()["mutable_parameters"] = StringMap(request->mutable_parameters());
  call.request()["secrets"] = SecretKeys(request->secrets());
  if (auto early = call.Begin()) return call.Finish(*early);
  if (!driver_.options->Advertises(Capability::MODIFY_VOLUME)) {
    return call.Finish(NotAdvertised("MODIFY_VOLUME"));
  }
  if (request->volume_id().empty()) return call.Finish(InvalidArgument("volume ID missing"));
  return call.Finish(grpc::Status::OK);
}

grpc::Status ControllerService::GetCapacity(grpc::ServerContext* context,
                                            const csi::v1::GetCapacityRequest* request,
                                            csi::v1::GetCapacityResponse* response) {
  CallScope call(driver_, context, "GetCapacity");
  // The map's keys are sorted, so equal segments give equal texts.
  const auto& segments = request->accessible_topology().segments();
  std::map<std::string, std::string> sorted(segments.begin(), segments.end());
  std::string segment;
  for (const auto& [key, value] : sorted) {
    segment += (segment.empty() ? "" : ",") + key + "=" + value;
  }
  call.SetSegmentTarget(segment);
  call.request()["parameters"] = StringMap(request->parameters());
  call.request()["segment"] = segment;
  call.request()["has_accessible_topology"] = request->has_accessible_topology();
  call.request()["volume_capabilities"] = request->volume_capabilities_size();
  if (auto early = call.Begin()) return call.Finish(*early);
  if (!driver_.options->Advertises(Capability::GET_CAPACITY)) {
    return call.Finish(NotAdvertised("GET_CAPACITY"));
  }
  constexpr int64_t kDefaultAvailableBytes = int64_t{1} << 40;
  const std::optional<FaultRule>& fault = call.fault();
  response->set_available_capacity(fault && fault->available_bytes ? *fault->available_bytes
                                                                   : kDefaultAvailableBytes);
  if (fault && fault->maximum_volume_size) {
    response->mutable_maximum_volume_size()->set_value(*fault->maximum_volume_size);
  }
  call.response()["available_capacity"] = response->available_capacity();
  return call.Finish(grpc::Status::OK);
}

grpc::Status ControllerService::ControllerGetCapabilities(
    grpc::ServerContext* context, const csi::v1::ControllerGetCapabilitiesRequest* request,
    csi::v1::ControllerGetCapabilitiesResponse* response) {
  CallScope call(driver_, context, "ControllerGetCapabilities");
  if (auto early = call.Begin()) return call.Finish(*early);
  for (Capability::Type type : driver_.options->capabilities) {
    response->add_capabilities()->mutable_rpc()->set_type(type);
  }
  return call.Finish(grpc::Status::OK);
}

}  // namespace faultdriver
