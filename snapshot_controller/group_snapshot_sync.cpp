#include "snapshot_controller/group_snapshot_sync.h"

#include <optional>
#include <vector>

#include "kube/api/json_patch.h"
#include "kube/api/metadata_patch.h"
#include "snapshot_controller/driver_of.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/group_status.h"
#include "snapshot_controller/names.h"
#include "snapshot_controller/snapshot_predicates.h"
#include "snapshot_controller/status_error.h"

namespace snapshot_controller {
namespace {

using kube::VolumeGroupSnapshot;
using kube::VolumeGroupSnapshotContent;

bool IsReady(const VolumeGroupSnapshot& group) {
  return group.status && group.status->ready_to_use.value_or(false);
}

const std::string* BoundContentName(const VolumeGroupSnapshot& group) {
  if (!group.status || !group.status->bound_volume_group_snapshot_content_name ||
      group.status->bound_volume_group_snapshot_content_name->empty()) {
    return nullptr;
  }
  return &*group.status->bound_volume_group_snapshot_content_name;
}

std::string Misbound(const std::string& content_name) {
  return "VolumeGroupSnapshotContent [" + content_name + "] is bound to a different group snapshot";
}

// What upstream's lister says of a class it does not hold.
base::Error ClassNotFound(const std::string& name) {
  return base::Error("volumegroupsnapshotclass.groupsnapshot.storage.k8s.io \"" + name +
                     "\" not found");
}

}  // namespace

base::Status GroupSnapshotSync::Sync(const VolumeGroupSnapshot& group) {
  GroupSnapshotWriter writer(api_, group);
  if (auto classed = EnsureClass(writer); !classed.ok()) return classed;

  const auto& source = writer.object().spec.source;
  if (source.selector.has_value() == source.volume_group_snapshot_content_name.has_value()) {
    const std::string message =
        "Exactly one of Selector and VolumeGroupSnapshotContentName should be specified";
    (void)ReportError(writer, true, "GroupSnapshotValidationError", message);
    return base::Error(message);
  }
  if (auto finalized = AddFinalizer(writer); !finalized.ok()) return finalized;
  if (!IsReady(writer.object()) || !BoundContentName(writer.object())) {
    if (auto synced = SyncUnready(writer); !synced.ok()) return synced;
    // Bound by this very sync: protect it now rather than on the next one.
    return AddFinalizer(writer);
  }
  return SyncReady(writer);
}

base::Status GroupSnapshotSync::EnsureClass(GroupSnapshotWriter& writer) {
  const VolumeGroupSnapshot& group = writer.object();
  if (const auto& class_name = group.spec.volume_group_snapshot_class_name) {
    if (groups_.group_classes.Get("", *class_name)) return base::Status::Ok();
    base::Error missing = ClassNotFound(*class_name);
    (void)ReportError(writer, false, "GetGroupSnapshotClassFailed",
                      "failed to get group snapshot class with error " + missing.message);
    return missing;
  }
  if (group.spec.source.volume_group_snapshot_content_name) return base::Status::Ok();
  auto default_class = creator_.DefaultClassOf(group);
  if (!default_class.ok()) {
    (void)ReportError(
        writer, false, "SetDefaultGroupSnapshotClassFailed",
        "Failed to set default group snapshot class with error " + default_class.error().message);
    return default_class.error();
  }
  return writer.SetClass(*default_class);
}

base::Status GroupSnapshotSync::AddFinalizer(GroupSnapshotWriter& writer) {
  const VolumeGroupSnapshot& group = writer.object();
  if (!BoundContentName(group) ||
      kube::HasFinalizer(group.metadata, kGroupSnapshotBoundFinalizer)) {
    return base::Status::Ok();
  }
  auto content = group.spec.source.volume_group_snapshot_content_name
                     ? PreProvisionedContent(writer)
                     : DynamicContent(writer);
  base::Status added = content.ok() ? base::Status::Ok() : base::Status(content.error());
  if (added.ok() && *content) added = writer.AddBoundFinalizer();
  if (!added.ok()) {
    events_.Record(kube::ReferenceTo(writer.object()), kube::kEventTypeWarning,
                   "GroupSnapshotFinalizerError",
                   "Failed to check and update group snapshot: " + added.error().message);
  }
  return added;
}

base::Status GroupSnapshotSync::SyncReady(GroupSnapshotWriter& writer) {
  auto content = groups_.group_contents.Get("", *BoundContentName(writer.object()));
  if (!content) {
    return ReportError(writer, true, "GroupSnapshotContentMissing",
                       "VolumeGroupSnapshotContent is missing");
  }
  if (!PointsBackTo(*content, writer.object())) {
    return ReportError(writer, true, "GroupSnapshotMisbound",
                       "VolumeGroupSnapshotContent is not bound to the VolumeGroupSnapshot "
                       "correctly");
  }
  return base::Status::Ok();
}

base::Status GroupSnapshotSync::SyncUnready(GroupSnapshotWriter& writer) {
  const VolumeGroupSnapshot& group = writer.object();
  const bool pre_provisioned = group.spec.source.volume_group_snapshot_content_name.has_value();
  const std::string driver = DriverOf(group, caches_);
  const SnapshotType type =
      pre_provisioned ? SnapshotType::kPreProvisioned : SnapshotType::kDynamic;
  const std::string uid = group.metadata.uid.str();
  if (!group.status || !group.status->creation_time) {
    metrics_.Start(kCreateGroupSnapshotOperation, uid, driver, type);
  }
  metrics_.Start(kCreateGroupSnapshotAndReadyOperation, uid, driver, type);
  return pre_provisioned ? SyncPreProvisioned(writer) : SyncDynamic(writer);
}

base::Status GroupSnapshotSync::SyncPreProvisioned(GroupSnapshotWriter& writer) {
  auto content = PreProvisionedContent(writer);
  if (!content.ok()) return content.error();
  const VolumeGroupSnapshot& group = writer.object();
  const std::string& content_name = *group.spec.source.volume_group_snapshot_content_name;
  if (!*content) {
    (void)ReportError(writer, true, "GroupSnapshotContentMissing",
                      "VolumeGroupSnapshotContent is missing");
    return base::Error("group snapshot " + GroupKey(group) +
                       " requests an non-existing group snapshot content " + content_name);
  }
  auto bound = Bind(group, **content);
  if (!bound.ok()) {
    (void)ReportError(
        writer, true, "GroupSnapshotBindFailed",
        "GroupSnapshot failed to bind VolumeGroupSnapshotContent, " + bound.error().message);
    return base::Error("group snapshot " + GroupKey(group) +
                       " is bound, but VolumeGroupSnapshotContent " + content_name +
                       " is not bound to the VolumeGroupSnapshot correctly, " +
                       bound.error().message);
  }
  if (auto copied = CopyStatus(writer, *bound); !copied.ok()) {
    (void)ReportError(writer, false, "GroupSnapshotStatusUpdateFailed",
                      "GroupSnapshot status update failed, " + copied.error().message);
    return copied;
  }
  return base::Status::Ok();
}

base::Status GroupSnapshotSync::SyncDynamic(GroupSnapshotWriter& writer) {
  auto existing = DynamicContent(writer);
  if (!existing.ok()) return existing.error();
  if (*existing) {
    if (auto made = members_.Ensure(writer.object(), **existing); !made.ok()) return made;
    if (auto copied = CopyStatus(writer, **existing); !copied.ok()) {
      (void)ReportError(writer, true, "GroupSnapshotStatusUpdateFailed",
                        "GroupSnapshot status update failed, " + copied.error().message);
      return copied;
    }
    return base::Status::Ok();
  }
  auto created = creator_.Create(writer.object());
  if (!created.ok()) {
    (void)ReportError(
        writer, true, "GroupSnapshotContentCreationFailed",
        "failed to create group snapshot content with error " + created.error().message);
    return created.error();
  }
  if (auto copied = CopyStatus(writer, *created); !copied.ok()) {
    (void)ReportError(writer, false, "GroupSnapshotStatusUpdateFailed",
                      "GroupSnapshot status update failed, " + copied.error().message);
    return copied;
  }
  return base::Status::Ok();
}

base::Result<GroupSnapshotSync::ContentPtr> GroupSnapshotSync::PreProvisionedContent(
    GroupSnapshotWriter& writer) {
  const VolumeGroupSnapshot& group = writer.object();
  const std::string& name = *group.spec.source.volume_group_snapshot_content_name;
  if (name.empty()) {
    return base::Error("empty VolumeGroupSnapshotContentName for group snapshot " +
                       GroupKey(group));
  }
  ContentPtr content = groups_.group_contents.Get("", name);
  if (!content) return content;
  if (!content->spec.source.group_snapshot_handles) {
    (void)ReportError(writer, true, "GroupSnapshotContentMismatch",
                      "VolumeGroupSnapshotContent is dynamically provisioned while expecting a "
                      "pre-provisioned one");
    return base::Error("group snapshot " + GroupKey(group) +
                       " expects a pre-provisioned VolumeGroupSnapshotContent " + name +
                       " but gets a dynamically provisioned one");
  }
  // A pre-provisioned content may not know the group snapshot's UID yet.
  const kube::ObjectReference& ref = content->spec.volume_group_snapshot_ref;
  if (ref.name != group.metadata.name || ref.namespace_ != group.metadata.namespace_ ||
      (!ref.uid.empty() && ref.uid != group.metadata.uid)) {
    (void)ReportError(writer, true, "GroupSnapshotContentMisbound", Misbound(name));
    return base::Error(Misbound(name));
  }
  return content;
}

base::Result<GroupSnapshotSync::ContentPtr> GroupSnapshotSync::DynamicContent(
    GroupSnapshotWriter& writer) {
  const VolumeGroupSnapshot& group = writer.object();
  const std::string name = DynamicGroupContentNameFor(group);
  ContentPtr content = groups_.group_contents.Get("", name);
  if (!content) return content;
  if (content->spec.source.group_snapshot_handles) {
    (void)ReportError(writer, true, "GroupSnapshotContentMismatch",
                      "VolumeGroupSnapshotContent " + name +
                          " is pre-provisioned while expecting a dynamically provisioned one");
    return base::Error("group snapshot " + GroupKey(group) +
                       " expects a dynamically provisioned VolumeGroupSnapshotContent " + name +
                       " but gets a pre-provisioned one");
  }
  if (!PointsBackTo(*content, group)) {
    (void)ReportError(writer, true, "GroupSnapshotContentMisbound", Misbound(name));
    return base::Error(Misbound(name));
  }
  return content;
}

base::Result<VolumeGroupSnapshotContent> GroupSnapshotSync::Bind(
    const VolumeGroupSnapshot& group, const VolumeGroupSnapshotContent& content) {
  const kube::ObjectReference& ref = content.spec.volume_group_snapshot_ref;
  if (ref.name != group.metadata.name || (!ref.uid.empty() && ref.uid != group.metadata.uid)) {
    return base::Error("Could not bind group snapshot " + group.metadata.name +
                       " and group snapshot content " + content.metadata.name +
                       ", the VolumeGroupSnapshotRef does not match");
  }
  if (!ref.uid.empty() && content.spec.volume_group_snapshot_class_name) return content;
  kube::JsonPatch patch;
  patch.Replace("/spec/volumeGroupSnapshotRef/uid", group.metadata.uid.str());
  if (const auto& class_name = group.spec.volume_group_snapshot_class_name) {
    patch.Replace("/spec/volumeGroupSnapshotClassName", *class_name);
  }
  return api_.PatchGroupContent(content.metadata.name, kube::PatchType::kJson, patch.Serialize());
}

base::Status GroupSnapshotSync::CopyStatus(GroupSnapshotWriter& writer,
                                           const VolumeGroupSnapshotContent& content) {
  std::vector<SnapshotNormalEvent> changes;
  auto written = writer.WriteStatus(
      [&](const VolumeGroupSnapshot& current) -> std::optional<kube::VolumeGroupSnapshotStatus> {
        // After a conflict this runs again on the fresh object: only the
        // last attempt's changes were written.
        changes.clear();
        auto change = GroupStatusFromContent(current, content);
        if (!change) return std::nullopt;
        changes = std::move(change->events);
        return std::move(change->status);
      });
  if (!written.ok()) return written;
  const VolumeGroupSnapshot& group = writer.object();
  for (const SnapshotNormalEvent& change : changes) {
    metrics_.Record(change.reason == "GroupSnapshotCreated" ? kCreateGroupSnapshotOperation
                                                            : kCreateGroupSnapshotAndReadyOperation,
                    group.metadata.uid.str(), OperationStatus::kSuccess, content.spec.driver);
    events_.Record(kube::ReferenceTo(group), kube::kEventTypeNormal, change.reason, change.message);
  }
  return base::Status::Ok();
}

base::Status GroupSnapshotSync::ReportError(GroupSnapshotWriter& writer, bool set_not_ready,
                                            std::string_view reason, const std::string& message) {
  return ReportStatusError(writer, events_, clock_, set_not_ready, reason, message);
}

}  // namespace snapshot_controller
