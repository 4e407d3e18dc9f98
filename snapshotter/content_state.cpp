#include "snapshotter/content_state.h"

#include "snapshot/names.h"

namespace snapshotter {
namespace {

// The rule of step 1 once the deletionTimestamp is there and the content is
// not an unbound import.
bool DeletionRequested(const kube::ObjectMeta& meta, std::string_view being_created,
                       std::string_view being_deleted) {
  if (meta.annotations.contains(being_created)) return false;
  return meta.annotations.contains(being_deleted);
}

bool Abandoned(const kube::ObjectMeta& meta, std::string_view being_created,
               std::string_view being_deleted, bool failed, bool made) {
  return meta.annotations.contains(being_deleted) && !meta.annotations.contains(being_created) &&
         failed && !made;
}

}  // namespace

bool HasAnnotation(const kube::VolumeSnapshotContent& content, std::string_view key) {
  return content.metadata.annotations.contains(key);
}

const std::optional<std::string>& ClassNameOf(const kube::VolumeSnapshotContent& content) {
  return content.spec.volume_snapshot_class_name;
}

const std::optional<std::string>& ClassNameOf(const kube::VolumeGroupSnapshotContent& content) {
  return content.spec.volume_group_snapshot_class_name;
}

bool ShouldDelete(const kube::VolumeSnapshotContent& content) {
  if (content.metadata.deletion_timestamp.empty()) return false;
  if (content.spec.source.snapshot_handle && content.spec.volume_snapshot_ref.uid.empty()) {
    return true;
  }
  return DeletionRequested(content.metadata, snapshot::kBeingCreatedAnnotation,
                           snapshot::kBeingDeletedAnnotation);
}

bool ShouldDelete(const kube::VolumeGroupSnapshotContent& content) {
  if (content.metadata.deletion_timestamp.empty()) return false;
  if (IsPreProvisioned(content) && content.spec.volume_group_snapshot_ref.uid.empty()) return true;
  return DeletionRequested(content.metadata, snapshot::kGroupBeingCreatedAnnotation,
                           snapshot::kGroupBeingDeletedAnnotation);
}

bool DeletesBackendSnapshot(const kube::VolumeSnapshotContent& content) {
  return content.spec.deletion_policy == kube::kDeletionPolicyDelete &&
         NamesBackendSnapshot(content) && !content.status->volume_group_snapshot_handle;
}

bool DeletesBackendSnapshot(const kube::VolumeGroupSnapshotContent& content) {
  return content.spec.deletion_policy == kube::kDeletionPolicyDelete &&
         NamesBackendSnapshot(content);
}

bool NamesBackendSnapshot(const kube::VolumeSnapshotContent& content) {
  return content.status && content.status->snapshot_handle;
}

bool NamesBackendSnapshot(const kube::VolumeGroupSnapshotContent& content) {
  return content.status && content.status->volume_group_snapshot_handle;
}

bool IsGroupMember(const kube::VolumeSnapshotContent& content) {
  return HasAnnotation(content, snapshot::kGroupSnapshotHandleAnnotation);
}

bool SnapshotsVolumes(const kube::VolumeSnapshotContent& content) {
  return content.spec.source.volume_handle.has_value();
}

bool SnapshotsVolumes(const kube::VolumeGroupSnapshotContent& content) {
  return !content.spec.source.volume_handles.empty();
}

bool NeedsFirstCreate(const kube::VolumeSnapshotContent& content) {
  return SnapshotsVolumes(content) && !content.status && !IsGroupMember(content);
}

bool NeedsFirstCreate(const kube::VolumeGroupSnapshotContent& content) {
  return SnapshotsVolumes(content) && !content.status;
}

bool ChecksThroughList(const kube::VolumeSnapshotContent& content) {
  if (content.spec.source.snapshot_handle) return true;
  return content.status && content.status->volume_group_snapshot_handle &&
         content.status->snapshot_handle;
}

bool IsPreProvisioned(const kube::VolumeGroupSnapshotContent& content) {
  return content.spec.source.group_snapshot_handles.has_value();
}

bool IsCreateAbandoned(const kube::VolumeSnapshotContent& content) {
  return Abandoned(content.metadata, snapshot::kBeingCreatedAnnotation,
                   snapshot::kBeingDeletedAnnotation, content.status && content.status->error,
                   NamesBackendSnapshot(content));
}

bool IsCreateAbandoned(const kube::VolumeGroupSnapshotContent& content) {
  return Abandoned(content.metadata, snapshot::kGroupBeingCreatedAnnotation,
                   snapshot::kGroupBeingDeletedAnnotation, content.status && content.status->error,
                   NamesBackendSnapshot(content));
}

}  // namespace snapshotter
