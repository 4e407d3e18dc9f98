#include "snapshotter/csi_group_content_handler.h"

#include <chrono>
#include <utility>
#include <vector>

#include "base/log.h"
#include "base/strconv.h"
#include "kube/api/meta_time.h"
#include "snapshotter/class_inputs.h"
#include "snapshotter/content_state.h"
#include "snapshotter/content_status.h"
#include "snapshotter/names.h"

namespace snapshotter {
namespace {

// Go's %s of a []string: "[a b c]".
std::string GoList(const std::vector<std::string>& items) {
  std::string list = "[";
  for (const std::string& item : items) {
    if (list.size() > 1) list += ' ';
    list += item;
  }
  return list + "]";
}

// The members' snapshot IDs DeleteVolumeGroupSnapshot names: the info
// list's, else those of a pre-provisioned group's source.
std::vector<std::string> MemberSnapshotIds(const kube::VolumeGroupSnapshotContent& content) {
  std::vector<std::string> ids;
  if (content.status) {
    for (const kube::VolumeSnapshotInfo& member : content.status->volume_snapshot_info_list) {
      ids.push_back(member.snapshot_handle);
    }
  }
  if (ids.empty() && content.spec.source.group_snapshot_handles) {
    ids = content.spec.source.group_snapshot_handles->volume_snapshot_handles;
  }
  return ids;
}

}  // namespace

CsiGroupContentHandler::CsiGroupContentHandler(
    const kube::Store<kube::VolumeGroupSnapshotClass>& classes, SnapshotApi& api,
    GroupSnapshotDriver& driver, GroupContentEvents& events, CsiGroupContentHandlerOptions options,
    base::Clock& clock)
    : ContentSyncOf(api, events, clock),
      classes_(classes),
      driver_(driver),
      options_(std::move(options)) {}

base::Result<SyncOutcome> CsiGroupContentHandler::SyncUnready(GroupContentWriter& writer) {
  if (IsPreProvisioned(writer.content())) return CheckPreProvisioned(writer);
  // A dynamic group that is not ready is created again, which is how
  // upstream polls it, unless its create was abandoned (§9.6).
  if (IsCreateAbandoned(writer.content())) return SyncOutcome::kDone;
  return Create(writer, Attempt::kLater);
}

base::Status CsiGroupContentHandler::DeleteOnBackend(
    const kube::VolumeGroupSnapshotContent& content, const Secrets& secrets) {
  const std::string& name = content.metadata.name;
  const std::string& handle = *content.status->volume_group_snapshot_handle;
  const std::vector<std::string> snapshot_ids = MemberSnapshotIds(content);
  base::Status deleted =
      snapshot_ids.empty()
          ? base::Status(base::Error("cannot delete group snapshot content " + name +
                                     ". No snapshots found in the group snapshot"))
          : driver_.DeleteGroupSnapshot(handle, snapshot_ids, secrets);
  if (!deleted.ok()) {
    return base::Error("failed to delete group snapshot " + base::GoQuote(name) +
                       ", err: " + deleted.error().message);
  }
  LOG_V(2, "Deleted group snapshot")
      .With("VolumeGroupSnapshotContent", name)
      .With("groupSnapshotID", handle);
  return base::Status::Ok();
}

base::Status CsiGroupContentHandler::TakeSnapshot(GroupContentWriter& writer) {
  const std::string name = writer.content().metadata.name;
  LOG_INFO("Creating group snapshot through the driver").With("VolumeGroupSnapshotContent", name);
  auto request = PrepareCreate(writer.content());
  if (!request.ok()) return request.error();
  GroupSnapshotFacts facts;
  base::Status created =
      CreateUnderAnnotation(writer, [&]() -> base::Result<GroupContentWriter::StatusChange> {
        auto group = driver_.CreateGroupSnapshot(*request);
        if (!group.ok()) {
          return Quoted(group.error(), "failed to take group snapshot of the volumes " +
                                           GoList(request->source_volume_ids));
        }
        facts = {.group_snapshot_handle = group->group_snapshot_id,
                 .ready_to_use = group->ready_to_use,
                 .creation_time = CreationTime(group->creation_time),
                 .members = std::move(group->members)};
        return GroupContentWriter::StatusChange([&facts](const GroupContentStatus& status) {
          return StatusWithGroupSnapshot(status, facts);
        });
      });
  if (!created.ok()) return created;
  LOG_V(2, "Created group snapshot")
      .With("VolumeGroupSnapshotContent", name)
      .With("groupSnapshotID", facts.group_snapshot_handle)
      .With("snapshots", facts.members.size())
      .With("readyToUse", facts.ready_to_use);
  return base::Status::Ok();
}

base::Result<CreateGroupSnapshotRequest> CsiGroupContentHandler::PrepareCreate(
    const kube::VolumeGroupSnapshotContent& content) {
  auto inputs = CreateInputsOf(content, classes_, api_, options_.extra_create_metadata);
  if (!inputs.ok()) return inputs.error();
  const std::vector<std::string>& volume_handles = content.spec.source.volume_handles;
  const std::string uid = content.spec.volume_group_snapshot_ref.uid.str();
  if (uid.empty()) {
    return base::Error("failed to take group snapshot of the volumes " + GoList(volume_handles) +
                       ": " +
                       base::GoQuote("cannot create group snapshot. Group snapshot content " +
                                     content.metadata.name + " not bound to a group snapshot"));
  }
  return CreateGroupSnapshotRequest{.name = SnapshotName(options_.group_snapshot_name_prefix, uid,
                                                         options_.group_snapshot_name_uuid_length),
                                    .source_volume_ids = volume_handles,
                                    .parameters = std::move(inputs->parameters),
                                    .secrets = std::move(inputs->secrets)};
}

base::Result<SyncOutcome> CsiGroupContentHandler::CheckPreProvisioned(GroupContentWriter& writer) {
  if (auto checked = GetAndSaveStatus(writer); !checked.ok()) {
    SaveError(writer, Attempt::kLater, FailureMessage(Attempt::kLater, checked.error()));
    return checked.error();
  }
  return Settle(writer);
}

base::Status CsiGroupContentHandler::GetAndSaveStatus(GroupContentWriter& writer) {
  const kube::VolumeGroupSnapshotContent content = writer.content();
  const std::string& name = content.metadata.name;
  auto secrets = CheckCredentialsOf(content, classes_, api_);
  if (!secrets.ok()) return secrets.error();
  const kube::GroupSnapshotHandles& source = *content.spec.source.group_snapshot_handles;
  if (source.volume_snapshot_handles.empty()) {
    return base::Error("cannot list group snapshot " + name +
                       ". No snapshots found in the group snapshot content");
  }
  // Upstream asks about the handle the status has, else the source's, and
  // records the source's.
  const std::string& asked = content.status && content.status->volume_group_snapshot_handle
                                 ? *content.status->volume_group_snapshot_handle
                                 : source.volume_group_snapshot_handle;
  auto group = driver_.GetGroupSnapshot(asked, source.volume_snapshot_handles, *secrets);
  if (!group.ok()) {
    return base::Error("failed to list group snapshot for group snapshot content " + name + ": " +
                       base::GoQuote(group.error().message));
  }
  // The members are not recorded, as upstream records none for an imported
  // group: the controller binds its members from their own contents.
  GroupSnapshotFacts facts{.group_snapshot_handle = source.volume_group_snapshot_handle,
                           .ready_to_use = group->ready_to_use,
                           .creation_time = CreationTime(group->creation_time)};
  return writer.WriteStatus(
      [&](const GroupContentStatus& status) { return StatusWithGroupSnapshot(status, facts); });
}

std::string CsiGroupContentHandler::CreationTime(const std::optional<int64_t>& unix_nanos) const {
  if (!unix_nanos) return kube::FormatMetaTime(clock_.WallNow());
  return kube::FormatMetaTime(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::nanoseconds(*unix_nanos))));
}

}  // namespace snapshotter
