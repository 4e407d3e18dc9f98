#include "snapshot_controller/snapshot_status.h"

#include <chrono>

#include "base/quantity.h"
#include "kube/api/meta_time.h"

namespace snapshot_controller {
namespace {

// metav1.Time of time.Unix(0, nanoseconds): UTC, whole seconds.
std::string CreationTimeOf(int64_t nanoseconds) {
  return kube::FormatMetaTime(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(
          std::chrono::nanoseconds(nanoseconds))));
}

bool IsZeroQuantity(const std::string& quantity) {
  base::Result<bool> zero = base::QuantityIsZero(quantity);
  return zero.ok() && *zero;
}

bool IsCreated(const std::optional<kube::VolumeSnapshotStatus>& status) {
  return status && status->creation_time;
}

bool IsReady(const std::optional<kube::VolumeSnapshotStatus>& status) {
  return status && status->ready_to_use.value_or(false);
}

}  // namespace

std::optional<kube::VolumeSnapshotError> ErrorAfter(
    const std::optional<kube::VolumeSnapshotError>& current,
    const std::optional<kube::VolumeSnapshotError>& from_content) {
  if (!from_content || !current) return from_content;
  if (current->time && from_content->time) return from_content;
  return current;
}

std::optional<SnapshotStatusChange> SnapshotStatusFromContent(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotContent& content,
    std::string_view group_snapshot_name) {
  const kube::VolumeSnapshotContentStatus facts =
      content.status.value_or(kube::VolumeSnapshotContentStatus{});
  const bool ready = facts.ready_to_use.value_or(false);
  const std::optional<kube::VolumeSnapshotError> content_error =
      facts.error ? std::optional(*facts.error) : std::nullopt;

  kube::VolumeSnapshotStatus status;
  if (!snapshot.status) {
    status.bound_volume_snapshot_content_name = content.metadata.name;
    status.ready_to_use = ready;
    if (facts.creation_time) status.creation_time = CreationTimeOf(*facts.creation_time);
    if (facts.restore_size) status.restore_size = base::FormatBinarySIQuantity(*facts.restore_size);
    status.error = content_error;
    if (!group_snapshot_name.empty()) status.volume_group_snapshot_name = group_snapshot_name;
  } else {
    status = *snapshot.status;
    if (!status.bound_volume_snapshot_content_name) {
      status.bound_volume_snapshot_content_name = content.metadata.name;
    }
    if (!status.creation_time && facts.creation_time) {
      status.creation_time = CreationTimeOf(*facts.creation_time);
    }
    if (status.ready_to_use != ready) {
      status.ready_to_use = ready;
      if (ready) status.error.reset();
    }
    if (facts.restore_size && (!status.restore_size ||
                               (IsZeroQuantity(*status.restore_size) && *facts.restore_size > 0))) {
      status.restore_size = base::FormatBinarySIQuantity(*facts.restore_size);
    }
    status.error = ErrorAfter(status.error, content_error);
    if (!status.volume_group_snapshot_name && !group_snapshot_name.empty()) {
      status.volume_group_snapshot_name = group_snapshot_name;
    }
    if (status == *snapshot.status) return std::nullopt;
  }

  SnapshotStatusChange change{.status = std::move(status), .events = {}};
  const std::string key = snapshot.metadata.namespace_ + "/" + snapshot.metadata.name;
  if (!IsCreated(snapshot.status) && IsCreated(change.status)) {
    change.events.push_back(
        {"SnapshotCreated", "Snapshot " + key + " was successfully created by the CSI driver."});
  }
  if (!IsReady(snapshot.status) && IsReady(change.status)) {
    change.events.push_back({"SnapshotReady", "Snapshot " + key + " is ready to use."});
  }
  return change;
}

bool SnapshotStatusLagsContent(const kube::VolumeSnapshot& snapshot,
                               const kube::VolumeSnapshotContent& content) {
  if (!content.status) return false;
  if (!snapshot.status) return true;
  const kube::VolumeSnapshotStatus& status = *snapshot.status;
  const kube::VolumeSnapshotContentStatus& facts = *content.status;
  if (!status.bound_volume_snapshot_content_name) return true;
  if (!status.creation_time && facts.creation_time) return true;
  if (facts.ready_to_use) return true;  // missing on the snapshot, or upstream's pointer test
  if (!status.restore_size && facts.restore_size) return true;
  return status.restore_size && IsZeroQuantity(*status.restore_size) && facts.restore_size &&
         *facts.restore_size > 0;
}

}  // namespace snapshot_controller
