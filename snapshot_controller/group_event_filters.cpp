#include "snapshot_controller/group_event_filters.h"

#include <string_view>

#include "kube/api/metadata_patch.h"
#include "kube/runtime/store.h"
#include "kube/runtime/update_filter.h"
#include "snapshot/content_lane.h"
#include "snapshot/names.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {

using kube::VolumeGroupSnapshot;
using kube::VolumeGroupSnapshotContent;
using Lane = kube::WorkQueue::Lane;

bool ShouldSyncSnapshotUpdate(const VolumeGroupSnapshot& old_group,
                              const VolumeGroupSnapshot& new_group) {
  return kube::UpdateNeedsSync(
      old_group, new_group, [](const VolumeGroupSnapshot& old, VolumeGroupSnapshot& masked) {
        masked.status = old.status;
        const std::string_view ours[] = {kGroupSnapshotBoundFinalizer};
        kube::RestoreFinalizersApartFrom(old.metadata, ours, masked.metadata);
      });
}

bool ShouldSyncContentUpdate(const VolumeGroupSnapshotContent& old_content,
                             const VolumeGroupSnapshotContent& new_content) {
  return kube::UpdateNeedsSync(
      old_content, new_content,
      [](const VolumeGroupSnapshotContent& old, VolumeGroupSnapshotContent& masked) {
        kube::RestoreAnnotation(old.metadata, snapshot::kGroupBeingDeletedAnnotation,
                                masked.metadata);
        // Only its addition is ours: the sidecar removes it.
        if (!kube::HasFinalizer(old.metadata, snapshot::kGroupContentFinalizer)) {
          const std::string_view ours[] = {snapshot::kGroupContentFinalizer};
          kube::RestoreFinalizersApartFrom(old.metadata, ours, masked.metadata);
        }
      });
}

Lane SnapshotLane(const VolumeGroupSnapshot& group) {
  const bool ready = group.status && group.status->ready_to_use.value_or(false);
  return group.metadata.deletion_timestamp.empty() && ready ? Lane::kNormal : Lane::kUrgent;
}

Lane ContentLane(const VolumeGroupSnapshotContent& content) {
  const bool awaits_finalizer =
      !content.spec.volume_group_snapshot_ref.uid.empty() &&
      !kube::HasFinalizer(content.metadata, snapshot::kGroupContentFinalizer);
  return awaits_finalizer ? Lane::kUrgent : snapshot::ContentLane(content);
}

std::optional<std::string> SnapshotKeyOf(const VolumeGroupSnapshotContent& content) {
  const kube::ObjectReference& ref = content.spec.volume_group_snapshot_ref;
  if (ref.name.empty()) return std::nullopt;
  return kube::Store<VolumeGroupSnapshot>::KeyOf(ref.namespace_, ref.name);
}

std::optional<std::string> BoundContentOf(const VolumeGroupSnapshot& group) {
  if (!group.status) return std::nullopt;
  const std::optional<std::string>& bound = group.status->bound_volume_group_snapshot_content_name;
  if (!bound || bound->empty()) return std::nullopt;
  return bound;
}

}  // namespace snapshot_controller
