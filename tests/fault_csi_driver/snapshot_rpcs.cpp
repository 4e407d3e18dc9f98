#include "tests/fault_csi_driver/snapshot_rpcs.h"

#include "tests/fault_csi_driver/snapshot_messages.h"
#include "tests/fault_csi_driver/status_codes.h"

namespace faultdriver {
namespace {

using Capability = csi::v1::ControllerServiceCapability::RPC;

}  // namespace

grpc::Status SnapshotRpcs::CreateSnapshot(grpc::ServerContext* context,
                                          const csi::v1::CreateSnapshotRequest& request,
                                          csi::v1::CreateSnapshotResponse* response) {
  CallScope call(driver_, context, "CreateSnapshot");
  call.SetSnapshotTarget(request.name(), request.source_volume_id());
  call.request()["name"] = request.name();
  call.request()["source_volume_id"] = request.source_volume_id();
  call.request()["parameters"] = StringMap(request.parameters());
  call.request()["secrets"] = SecretKeys(request.secrets());
  if (!request.name().empty()) driver_.snapshots->NoteCreateCall(request.name());

  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = Create(request, call.fault(), response->mutable_snapshot());
  if (status.ok()) call.response()["snapshot"] = Summary(response->snapshot());
  return call.Finish(status);
}

grpc::Status SnapshotRpcs::Create(const csi::v1::CreateSnapshotRequest& request,
                                  const std::optional<FaultRule>& fault,
                                  csi::v1::Snapshot* snapshot) {
  if (!driver_.options->Advertises(Capability::CREATE_DELETE_SNAPSHOT)) {
    return NotAdvertised("CREATE_DELETE_SNAPSHOT");
  }
  if (request.name().empty()) return InvalidArgument("snapshot name missing in request");
  if (request.source_volume_id().empty()) {
    return InvalidArgument("source volume ID missing in request");
  }
  std::optional<int64_t> size_bytes = SnapshotSizeBytes(driver_, request.source_volume_id());
  if (!size_bytes) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND,
                        "source volume " + request.source_volume_id() + " not found");
  }
  SnapshotRegistry::CreateResult result = driver_.snapshots->Create(
      {.name = request.name(),
       .source_volume_id = request.source_volume_id(),
       .size_bytes = *size_bytes,
       .parameters = {request.parameters().begin(), request.parameters().end()},
       .secret_keys = SecretKeys(request.secrets()).get<std::vector<std::string>>(),
       .ready_after = ReadyAfterAnswers(fault)});
  if (result.outcome == CreateOutcome::kOtherSource) {
    const std::string group = result.snapshot.group_snapshot_id;
    return grpc::Status(grpc::StatusCode::ALREADY_EXISTS,
                        "snapshot " + request.name() + " exists with source volume " +
                            result.snapshot.source_volume_id +
                            (group.empty() ? "" : " in group snapshot " + group));
  }
  ToProto(result.snapshot, snapshot);
  return grpc::Status::OK;
}

grpc::Status SnapshotRpcs::DeleteSnapshot(grpc::ServerContext* context,
                                          const csi::v1::DeleteSnapshotRequest& request) {
  CallScope call(driver_, context, "DeleteSnapshot");
  const auto known = driver_.snapshots->Identify(request.snapshot_id());
  if (known) call.SetSnapshotTarget(known->name, known->source_volume_id);
  call.request()["snapshot_id"] = request.snapshot_id();
  call.request()["secrets"] = SecretKeys(request.secrets());
  driver_.snapshots->NoteDeleteCall(request.snapshot_id());

  if (auto early = call.Begin()) return call.Finish(*early);
  if (!driver_.options->Advertises(Capability::CREATE_DELETE_SNAPSHOT)) {
    return call.Finish(NotAdvertised("CREATE_DELETE_SNAPSHOT"));
  }
  if (request.snapshot_id().empty()) {
    return call.Finish(InvalidArgument("snapshot ID missing in request"));
  }
  const DeleteOutcome outcome = driver_.snapshots->Delete(request.snapshot_id());
  // The spec's answer for a snapshot that CAN NOT be deleted stand alone.
  if (outcome == DeleteOutcome::kGroupMember) {
    return call.Finish(InvalidArgument("snapshot " + request.snapshot_id() +
                                       " is part of a group snapshot; delete the group"));
  }
  call.response()["deleted"] = outcome == DeleteOutcome::kDeleted;
  return call.Finish(grpc::Status::OK);
}

grpc::Status SnapshotRpcs::ListSnapshots(grpc::ServerContext* context,
                                         const csi::v1::ListSnapshotsRequest& request,
                                         csi::v1::ListSnapshotsResponse* response) {
  CallScope call(driver_, context, "ListSnapshots");
  if (!request.snapshot_id().empty()) {
    const auto known = driver_.snapshots->Identify(request.snapshot_id());
    if (known) call.SetSnapshotTarget(known->name, known->source_volume_id);
  } else {
    call.SetSnapshotTarget("", request.source_volume_id());
  }
  call.request()["snapshot_id"] = request.snapshot_id();
  call.request()["source_volume_id"] = request.source_volume_id();
  call.request()["max_entries"] = request.max_entries();
  call.request()["starting_token"] = request.starting_token();
  call.request()["secrets"] = SecretKeys(request.secrets());
  driver_.snapshots->NoteListCall(request.snapshot_id());

  if (auto early = call.Begin()) return call.Finish(*early);
  grpc::Status status = List(request, response);
  if (status.ok()) {
    nlohmann::json& snapshots = call.response()["snapshots"] = nlohmann::json::array();
    for (const auto& entry : response->entries()) snapshots.push_back(Summary(entry.snapshot()));
    call.response()["next_token"] = response->next_token();
  }
  return call.Finish(status);
}

grpc::Status SnapshotRpcs::List(const csi::v1::ListSnapshotsRequest& request,
                                csi::v1::ListSnapshotsResponse* response) {
  if (!driver_.options->Advertises(Capability::LIST_SNAPSHOTS)) {
    return NotAdvertised("LIST_SNAPSHOTS");
  }
  if (request.max_entries() < 0) return InvalidArgument("max_entries must not be negative");
  auto page =
      driver_.snapshots->List({request.snapshot_id(), request.source_volume_id()},
                              static_cast<size_t>(request.max_entries()), request.starting_token());
  if (!page) {
    return grpc::Status(grpc::StatusCode::ABORTED,
                        "invalid starting_token \"" + request.starting_token() + "\"");
  }
  for (const SnapshotRegistry::Answer& answer : page->entries) {
    ToProto(answer, response->add_entries()->mutable_snapshot());
  }
  response->set_next_token(page->next_token);
  return grpc::Status::OK;
}

}  // namespace faultdriver
