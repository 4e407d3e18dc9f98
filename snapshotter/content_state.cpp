#include "snapshotter/content_state.h"

#include "snapshotter/names.h"

namespace snapshotter {

bool HasAnnotation(const kube::VolumeSnapshotContent& content, std::string_view key) {
  return content.metadata.annotations.contains(key);
}

bool ShouldDelete(const kube::VolumeSnapshotContent& content) {
  if (content.metadata.deletion_timestamp.empty()) return false;
  if (content.spec.source.snapshot_handle && content.spec.volume_snapshot_ref.uid.empty()) {
    return true;
  }
  if (HasAnnotation(content, kBeingCreatedAnnotation)) return false;
  return HasAnnotation(content, kBeingDeletedAnnotation);
}

bool DeletesBackendSnapshot(const kube::VolumeSnapshotContent& content) {
  return content.spec.deletion_policy == kube::kDeletionPolicyDelete && content.status &&
         content.status->snapshot_handle && !content.status->volume_group_snapshot_handle;
}

bool IsReady(const kube::VolumeSnapshotContent& content) {
  return content.status && content.status->ready_to_use.value_or(false);
}

bool IsGroupMember(const kube::VolumeSnapshotContent& content) {
  return HasAnnotation(content, kGroupSnapshotHandleAnnotation);
}

bool NeedsFirstCreate(const kube::VolumeSnapshotContent& content) {
  return content.spec.source.volume_handle && !content.status && !IsGroupMember(content);
}

bool ChecksThroughList(const kube::VolumeSnapshotContent& content) {
  if (content.spec.source.snapshot_handle) return true;
  return content.status && content.status->volume_group_snapshot_handle &&
         content.status->snapshot_handle;
}

bool IsCreateAbandoned(const kube::VolumeSnapshotContent& content) {
  return HasAnnotation(content, kBeingDeletedAnnotation) &&
         !HasAnnotation(content, kBeingCreatedAnnotation) && content.status &&
         content.status->error && !content.status->snapshot_handle;
}

}  // namespace snapshotter
