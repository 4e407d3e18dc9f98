#include "snapshotter/content_status.h"

#include <utility>

namespace snapshotter {

ContentStatus StatusWithSnapshot(const ContentStatus& current, const SnapshotFacts& facts) {
  kube::VolumeSnapshotContentStatus status = current.value_or(kube::VolumeSnapshotContentStatus{});
  if (!status.snapshot_handle) status.snapshot_handle = facts.snapshot_handle;
  if (status.ready_to_use != facts.ready_to_use) {
    status.ready_to_use = facts.ready_to_use;
    if (facts.ready_to_use) status.error.reset();
  }
  if (!status.creation_time) status.creation_time = facts.creation_time;
  if (!status.restore_size && facts.restore_size > 0) status.restore_size = facts.restore_size;
  if (!status.volume_group_snapshot_handle && !facts.group_snapshot_handle.empty()) {
    status.volume_group_snapshot_handle = facts.group_snapshot_handle;
  }
  if (current == status) return std::nullopt;
  return status;
}

kube::VolumeSnapshotContentStatus StatusWithError(const ContentStatus& current, std::string message,
                                                  std::string time) {
  kube::VolumeSnapshotContentStatus status = current.value_or(kube::VolumeSnapshotContentStatus{});
  status.error = kube::VolumeSnapshotError{.time = std::move(time), .message = std::move(message)};
  status.ready_to_use = false;
  return status;
}

ContentStatus StatusWithoutSnapshot(const ContentStatus& current) {
  if (!current) return std::nullopt;
  kube::VolumeSnapshotContentStatus status = *current;
  status.snapshot_handle.reset();
  status.ready_to_use.reset();
  status.creation_time.reset();
  status.restore_size.reset();
  if (status == *current) return std::nullopt;
  return status;
}

}  // namespace snapshotter
