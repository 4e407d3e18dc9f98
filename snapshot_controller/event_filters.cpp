#include "snapshot_controller/event_filters.h"

#include <string_view>

#include "kube/api/metadata_patch.h"
#include "kube/runtime/store.h"
#include "kube/runtime/update_filter.h"
#include "snapshot/content_lane.h"
#include "snapshot/names.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {
namespace {

using kube::RestoreFinalizersApartFrom;
using kube::VolumeSnapshot;
using kube::VolumeSnapshotContent;

}  // namespace

bool ShouldSyncSnapshotUpdate(const VolumeSnapshot& old_snapshot,
                              const VolumeSnapshot& new_snapshot) {
  return kube::UpdateNeedsSync(
      old_snapshot, new_snapshot, [](const VolumeSnapshot& old, VolumeSnapshot& masked) {
        masked.status = old.status;
        RestoreFinalizersApartFrom(old.metadata, kSnapshotFinalizers, masked.metadata);
      });
}

bool ShouldSyncContentUpdate(const VolumeSnapshotContent& old_content,
                             const VolumeSnapshotContent& new_content) {
  return kube::UpdateNeedsSync(
      old_content, new_content,
      [](const VolumeSnapshotContent& old, VolumeSnapshotContent& masked) {
        kube::RestoreAnnotation(old.metadata, snapshot::kBeingDeletedAnnotation, masked.metadata);
        // Only its addition is ours: the sidecar removes it (§4.5 step 6).
        if (!kube::HasFinalizer(old.metadata, snapshot::kContentFinalizer)) {
          const std::string_view ours[] = {snapshot::kContentFinalizer};
          RestoreFinalizersApartFrom(old.metadata, ours, masked.metadata);
        }
      });
}

kube::WorkQueue::Lane SnapshotLane(const VolumeSnapshot& snapshot) {
  const bool ready = snapshot.status && snapshot.status->ready_to_use.value_or(false);
  const bool needs_action = !snapshot.metadata.deletion_timestamp.empty() || !ready;
  return needs_action ? kube::WorkQueue::Lane::kUrgent : kube::WorkQueue::Lane::kNormal;
}

kube::WorkQueue::Lane ContentLane(const VolumeSnapshotContent& content) {
  const bool awaits_finalizer = !content.spec.volume_snapshot_ref.uid.empty() &&
                                content.metadata.deletion_timestamp.empty() &&
                                !kube::HasFinalizer(content.metadata, snapshot::kContentFinalizer);
  return awaits_finalizer ? kube::WorkQueue::Lane::kUrgent : snapshot::ContentLane(content);
}

std::optional<std::string> SnapshotKeyOf(const VolumeSnapshotContent& content) {
  const kube::ObjectReference& ref = content.spec.volume_snapshot_ref;
  if (ref.name.empty()) return std::nullopt;
  return kube::Store<VolumeSnapshot>::KeyOf(ref.namespace_, ref.name);
}

std::optional<std::string> BoundContentOf(const VolumeSnapshot& snapshot) {
  if (!snapshot.status) return std::nullopt;
  const std::optional<std::string>& bound = snapshot.status->bound_volume_snapshot_content_name;
  if (!bound || bound->empty()) return std::nullopt;
  return bound;
}

}  // namespace snapshot_controller
