#include "snapshotter/content_event_filters.h"

#include "kube/runtime/update_filter.h"
#include "snapshotter/names.h"

namespace snapshotter {

bool IsDriverMatch(const kube::VolumeSnapshotContent& content, std::string_view driver,
                   const kube::VolumeSnapshotClass* content_class) {
  const kube::VolumeSnapshotContentSource& source = content.spec.source;
  if (!source.volume_handle && !source.snapshot_handle) return false;
  if (content.spec.driver != driver) return false;
  return content_class == nullptr || content_class->driver == driver;
}

bool ShouldEnqueueContentUpdate(const kube::VolumeSnapshotContent& old_content,
                                const kube::VolumeSnapshotContent& new_content) {
  return kube::UpdateNeedsSync(
      old_content, new_content,
      [](const kube::VolumeSnapshotContent& old, kube::VolumeSnapshotContent& masked) {
        masked.status = old.status;
        masked.metadata.finalizers = old.metadata.finalizers;
        masked.metadata.has_finalizers_field = old.metadata.has_finalizers_field;
        kube::RestoreAnnotation(old.metadata, kBeingCreatedAnnotation, masked.metadata);
      });
}

kube::WorkQueue::Lane ContentLane(const kube::VolumeSnapshotContent& content) {
  const bool ready = content.status && content.status->ready_to_use.value_or(false);
  const bool needs_action = !content.metadata.deletion_timestamp.empty() || !ready;
  return needs_action ? kube::WorkQueue::Lane::kUrgent : kube::WorkQueue::Lane::kNormal;
}

}  // namespace snapshotter
