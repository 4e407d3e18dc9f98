#include "snapshot_controller/group_snapshot_deletion.h"

#include <chrono>
#include <optional>
#include <string>

#include "kube/api/core/v1/event.h"
#include "kube/client/api_error.h"
#include "snapshot_controller/content_deletion.h"
#include "snapshot_controller/driver_of.h"
#include "snapshot_controller/group_content_creator.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/group_snapshot_writer.h"
#include "snapshot_controller/restoring_claims.h"
#include "snapshot_controller/snapshot_predicates.h"

namespace snapshot_controller {

GroupSnapshotDeletion::GroupSnapshotDeletion(ControllerApi& api, const Caches& caches,
                                             ControllerEvents& events, OperationMetrics& metrics,
                                             base::Clock& clock)
    : api_(api),
      caches_(caches),
      events_(events),
      metrics_(metrics),
      pending_events_(clock, kPendingEventInterval) {}

base::Status GroupSnapshotDeletion::Delete(const kube::VolumeGroupSnapshot& group) {
  metrics_.Start(kDeleteGroupSnapshotOperation, group.metadata.uid.str(), DriverOf(group, caches_),
                 group.spec.source.volume_group_snapshot_content_name
                     ? SnapshotType::kPreProvisioned
                     : SnapshotType::kDynamic);
  if (!IsDeletionCandidate(group)) return base::Status::Ok();

  ContentPtr content = ContentOf(group);
  if (auto free = CheckNotRestoring(group); !free.ok()) return free;
  bool keep_bound = false;
  if (content) {
    auto deleted = MarkAndDeleteContent(api_, events_, kube::ReferenceTo(group), *content);
    if (!deleted.ok()) return deleted.error();
    keep_bound = *deleted;
  }
  if (auto members = DeleteMembers(group); !members.ok()) return members;
  if (keep_bound) return base::Status::Ok();
  GroupSnapshotWriter writer(api_, group);
  base::Status removed = writer.RemoveBoundFinalizer();
  // A group snapshot already gone has no finalizer left to remove.
  if (!removed.ok() && !kube::IsNotFound(removed.error())) return removed;
  return base::Status::Ok();
}

GroupSnapshotDeletion::ContentPtr GroupSnapshotDeletion::ContentOf(
    const kube::VolumeGroupSnapshot& group) const {
  std::string name;
  if (group.status && group.status->bound_volume_group_snapshot_content_name) {
    name = *group.status->bound_volume_group_snapshot_content_name;
  }
  // A dynamic group snapshot's content may exist before the status names it.
  if (name.empty() && group.spec.source.selector) name = DynamicGroupContentNameFor(group);
  if (name.empty()) return nullptr;
  ContentPtr content = caches_.groups->group_contents.Get("", name);
  return content && PointsBackTo(*content, group) ? content : nullptr;
}

base::Status GroupSnapshotDeletion::CheckNotRestoring(const kube::VolumeGroupSnapshot& group) {
  for (const auto& member : MembersOf(group, caches_.snapshots)) {
    if (!ClaimRestoringFrom(*member, caches_.claims)) continue;
    const std::string message = "Snapshot " + member->metadata.namespace_ + "/" +
                                member->metadata.name + " belonging to VolumeGroupSnapshot " +
                                GroupKey(group) + " is being used to restore a PVC";
    if (pending_events_.Allow(group.metadata.uid.str())) {
      events_.Record(kube::ReferenceTo(group), kube::kEventTypeWarning, "SnapshotDeletePending",
                     message);
    }
    return base::Error(message + ": snapshot is in use, will retry deletion");
  }
  pending_events_.Forget(group.metadata.uid.str());
  return base::Status::Ok();
}

base::Status GroupSnapshotDeletion::DeleteMembers(const kube::VolumeGroupSnapshot& group) {
  for (const auto& member : MembersOf(group, caches_.snapshots)) {
    if (!member->metadata.deletion_timestamp.empty()) continue;
    auto deleted = api_.DeleteSnapshot(member->metadata.namespace_, member->metadata.name);
    if (deleted.ok() || kube::IsNotFound(deleted.error())) continue;
    const std::string message = "failed to delete snapshot API object " +
                                member->metadata.namespace_ + "/" + member->metadata.name +
                                " part of group snapshot " + GroupKey(group) + ": " +
                                deleted.error().message;
    events_.Record(kube::ReferenceTo(group), kube::kEventTypeWarning, "SnapshotDeleteError",
                   message);
    return base::Error(message);
  }
  return base::Status::Ok();
}

}  // namespace snapshot_controller
