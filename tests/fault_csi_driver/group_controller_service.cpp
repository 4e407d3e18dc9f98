#include "tests/fault_csi_driver/group_controller_service.h"

#include <set>
#include <string>
#include <vector>

#include "tests/fault_csi_driver/snapshot_messages.h"
#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {
namespace {

void GroupToProto(const SnapshotRegistry::GroupAnswer& answer,
                  csi::v1::VolumeGroupSnapshot* group) {
  group->set_group_snapshot_id(answer.group_snapshot_id);
  *group->mutable_creation_time() = answer.creation_time;
  group->set_ready_to_use(answer.ready_to_use);
  for (const SnapshotRegistry::Answer& member : answer.snapshots) {
    ToProto(member, group->add_snapshots());
  }
}

nlohmann::json GroupSummary(const csi::v1::VolumeGroupSnapshot& group) {
  nlohmann::json snapshots = nlohmann::json::array();
  for (const csi::v1::Snapshot& snapshot : group.snapshots()) {
    snapshots.push_back(Summary(snapshot));
  }
  return {{"group_snapshot_id", group.group_snapshot_id()},
          {"ready_to_use", group.ready_to_use()},
          {"snapshots", snapshots}};
}

std::vector<std::string> Strings(const google::protobuf::RepeatedPtrField<std::string>& items) {
  return {items.begin(), items.end()};
}

// The start Get and Delete, which name a group by ID, share: record the
// request, count the call with `note`, take its fault (matched by the group's
// name) and check the fields the spec makes REQUIRED. A status is the answer
// to finish with now.
template <typename Request>
std::optional<grpc::Status> StartByIdCall(const DriverContext& driver, const Request& request,
                                          void (SnapshotRegistry::*note)(const std::string&),
                                          CallScope& call) {
  std::optional<std::string> name = driver.snapshots->IdentifyGroup(request.group_snapshot_id());
  call.SetSnapshotTarget(name.value_or(""), "");
  call.request()["group_snapshot_id"] = request.group_snapshot_id();
  call.request()["snapshot_ids"] = Strings(request.snapshot_ids());
  call.request()["secrets"] = SecretKeys(request.secrets());
  (driver.snapshots->*note)(request.group_snapshot_id());

  if (auto early = call.Begin()) return early;
  if (request.group_snapshot_id().empty()) {
    return InvalidArgument("group snapshot ID missing in request");
  }
  if (request.snapshot_ids().empty()) return InvalidArgument("snapshot IDs missing in request");
  return std::nullopt;
}

grpc::Status SnapshotListMismatch(const std::string& group_snapshot_id) {
  return InvalidArgument("snapshot_ids are not the snapshots of group snapshot " +
                         group_snapshot_id);
}

}  // namespace

grpc::Status GroupControllerService::GroupControllerGetCapabilities(
    grpc::ServerContext* context, const csi::v1::GroupControllerGetCapabilitiesRequest* request,
    csi::v1::GroupControllerGetCapabilitiesResponse* response) {
  CallScope call(driver_, context, "GroupControllerGetCapabilities");
  if (auto early = call.Begin()) return call.Finish(*early);
  response->add_capabilities()->mutable_rpc()->set_type(
      csi::v1::GroupControllerServiceCapability::RPC::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT);
  return call.Finish(grpc::Status::OK);
}

grpc::Status GroupControllerService::CreateVolumeGroupSnapshot(
    grpc::ServerContext* context, const csi::v1::CreateVolumeGroupSnapshotRequest* request,
    csi::v1::CreateVolumeGroupSnapshotResponse* response) {
  CallScope call(driver_, context, "CreateVolumeGroupSnapshot");
  call.SetSnapshotTarget(request->name(), "");
  call.request()["name"] = request->name();
  call.request()["source_volume_ids"] = Strings(request->source_volume_ids());
  call.request()["parameters"] = StringMap(request->parameters());
  call.request()["secrets"] = SecretKeys(request->secrets());
  if (!request->name().empty()) driver_.snapshots->NoteCreateGroupCall(request->name());

  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = Create(*request, call.fault(), response->mutable_group_snapshot());
  if (status.ok()) call.response()["group_snapshot"] = GroupSummary(response->group_snapshot());
  return call.Finish(status);
}

grpc::Status GroupControllerService::Create(
    const csi::v1::CreateVolumeGroupSnapshotRequest& request, const std::optional<FaultRule>& fault,
    csi::v1::VolumeGroupSnapshot* group) {
  if (request.name().empty()) return InvalidArgument("group snapshot name missing in request");
  if (request.source_volume_ids().empty()) {
    return InvalidArgument("source volume IDs missing in request");
  }
  SnapshotRegistry::NewGroup wanted{
      .name = request.name(),
      .sources = {},
      .parameters = {request.parameters().begin(), request.parameters().end()},
      .secret_keys = SecretKeys(request.secrets()).get<std::vector<std::string>>(),
      .ready_after = ReadyAfterAnswers(fault)};
  std::set<std::string> named;
  for (const std::string& volume_id : request.source_volume_ids()) {
    if (volume_id.empty()) return InvalidArgument("empty source volume ID in request");
    if (!named.insert(volume_id).second) {
      return InvalidArgument("source volume " + volume_id + " named twice");
    }
    std::optional<int64_t> size_bytes = SnapshotSizeBytes(driver_, volume_id);
    if (!size_bytes) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, "source volume " + volume_id + " not found");
    }
    wanted.sources.push_back({volume_id, *size_bytes});
  }

  SnapshotRegistry::CreateGroupResult result = driver_.snapshots->CreateGroup(wanted);
  if (result.outcome == CreateOutcome::kOtherSource) {
    return grpc::Status(grpc::StatusCode::ALREADY_EXISTS, result.conflict);
  }
  GroupToProto(result.group, group);
  return grpc::Status::OK;
}

grpc::Status GroupControllerService::GetVolumeGroupSnapshot(
    grpc::ServerContext* context, const csi::v1::GetVolumeGroupSnapshotRequest* request,
    csi::v1::GetVolumeGroupSnapshotResponse* response) {
  CallScope call(driver_, context, "GetVolumeGroupSnapshot");
  if (auto early = StartByIdCall(driver_, *request, &SnapshotRegistry::NoteGetGroupCall, call)) {
    return call.Finish(*early);
  }
  grpc::Status status = Get(*request, response->mutable_group_snapshot());
  if (status.ok()) call.response()["group_snapshot"] = GroupSummary(response->group_snapshot());
  return call.Finish(status);
}

grpc::Status GroupControllerService::Get(const csi::v1::GetVolumeGroupSnapshotRequest& request,
                                         csi::v1::VolumeGroupSnapshot* group) {
  SnapshotRegistry::GetGroupResult result =
      driver_.snapshots->GetGroup(request.group_snapshot_id(), Strings(request.snapshot_ids()));
  switch (result.match) {
    case GroupMatch::kUnknown:
      return grpc::Status(grpc::StatusCode::NOT_FOUND,
                          "group snapshot " + request.group_snapshot_id() + " not found");
    case GroupMatch::kOtherSnapshots:
      return SnapshotListMismatch(request.group_snapshot_id());
    case GroupMatch::kMatches:
      break;
  }
  GroupToProto(result.group, group);
  return grpc::Status::OK;
}

grpc::Status GroupControllerService::DeleteVolumeGroupSnapshot(
    grpc::ServerContext* context, const csi::v1::DeleteVolumeGroupSnapshotRequest* request,
    csi::v1::DeleteVolumeGroupSnapshotResponse* response) {
  CallScope call(driver_, context, "DeleteVolumeGroupSnapshot");
  if (auto early = StartByIdCall(driver_, *request, &SnapshotRegistry::NoteDeleteGroupCall, call)) {
    return call.Finish(*early);
  }
  const GroupMatch match = driver_.snapshots->DeleteGroup(request->group_snapshot_id(),
                                                          Strings(request->snapshot_ids()));
  if (match == GroupMatch::kOtherSnapshots) {
    return call.Finish(SnapshotListMismatch(request->group_snapshot_id()));
  }
  call.response()["deleted"] = match == GroupMatch::kMatches;
  return call.Finish(grpc::Status::OK);
}

}  // namespace faultdriver
