#include "snapshotter/content_event_filters.h"

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
  if (old_content.metadata.resource_version == new_content.metadata.resource_version) return true;
  // Give the new object the old values of the fields that do not count; if
  // that makes it equal to the old one, nothing else changed.
  kube::VolumeSnapshotContent masked = new_content;
  masked.metadata.resource_version = old_content.metadata.resource_version;
  masked.status = old_content.status;
  masked.metadata.finalizers = old_content.metadata.finalizers;
  masked.metadata.has_finalizers_field = old_content.metadata.has_finalizers_field;
  const kube::StringMap& old_annotations = old_content.metadata.annotations;
  if (auto it = old_annotations.find(kBeingCreatedAnnotation); it != old_annotations.end()) {
    masked.metadata.annotations[kBeingCreatedAnnotation] = it->second;
  } else {
    masked.metadata.annotations.erase(kBeingCreatedAnnotation);
  }
  return !(masked == old_content);
}

kube::WorkQueue::Lane ContentLane(const kube::VolumeSnapshotContent& content) {
  const bool ready = content.status && content.status->ready_to_use.value_or(false);
  const bool needs_action = !content.metadata.deletion_timestamp.empty() || !ready;
  return needs_action ? kube::WorkQueue::Lane::kUrgent : kube::WorkQueue::Lane::kNormal;
}

}  // namespace snapshotter
