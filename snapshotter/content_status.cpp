#include "snapshotter/content_status.h"

#include <algorithm>

namespace snapshotter {
namespace {

// `edit` applied to a copy of `current` (an empty status when nil); nullopt
// when that changes nothing.
template <class Status, class Edit>
std::optional<Status> Edited(const std::optional<Status>& current, Edit edit) {
  Status status = current.value_or(Status{});
  edit(status);
  if (current == status) return std::nullopt;
  return status;
}

// `current` without the (optional) `fields`; nullopt when it has none of
// them.
template <class Status, class... Fields>
std::optional<Status> Without(const std::optional<Status>& current, Fields Status::*... fields) {
  if (!current) return std::nullopt;
  return Edited(current, [&](Status& status) { ((status.*fields).reset(), ...); });
}

// readyToUse follows the driver; error goes once it turns ready.
template <class Status>
void FollowReadiness(Status& status, bool ready_to_use) {
  if (status.ready_to_use == ready_to_use) return;
  status.ready_to_use = ready_to_use;
  if (ready_to_use) status.error.reset();
}

bool WasReady(const std::vector<kube::VolumeSnapshotInfo>& previous,
              const kube::VolumeSnapshotInfo& member) {
  return std::ranges::any_of(previous, [&](const kube::VolumeSnapshotInfo& entry) {
    return entry.snapshot_handle == member.snapshot_handle && entry.ready_to_use.value_or(false);
  });
}

std::vector<kube::VolumeSnapshotInfo> CurrentMembers(
    const std::vector<kube::VolumeSnapshotInfo>& previous, const GroupSnapshotFacts& facts) {
  std::vector<kube::VolumeSnapshotInfo> members = facts.members;
  for (kube::VolumeSnapshotInfo& member : members) {
    if (facts.ready_to_use || WasReady(previous, member)) member.ready_to_use = true;
  }
  return members;
}

}  // namespace

ContentStatus StatusWithSnapshot(const ContentStatus& current, const SnapshotFacts& facts) {
  return Edited(current, [&](kube::VolumeSnapshotContentStatus& status) {
    if (!status.snapshot_handle) status.snapshot_handle = facts.snapshot_handle;
    FollowReadiness(status, facts.ready_to_use);
    if (!status.creation_time) status.creation_time = facts.creation_time;
    if (!status.restore_size && facts.restore_size > 0) status.restore_size = facts.restore_size;
    if (!status.volume_group_snapshot_handle && !facts.group_snapshot_handle.empty()) {
      status.volume_group_snapshot_handle = facts.group_snapshot_handle;
    }
  });
}

GroupContentStatus StatusWithGroupSnapshot(const GroupContentStatus& current,
                                           const GroupSnapshotFacts& facts) {
  return Edited(current, [&](kube::VolumeGroupSnapshotContentStatus& status) {
    if (!status.volume_group_snapshot_handle) {
      status.volume_group_snapshot_handle = facts.group_snapshot_handle;
    }
    FollowReadiness(status, facts.ready_to_use);
    if (!status.creation_time) status.creation_time = facts.creation_time;
    if (facts.members.empty()) return;
    status.volume_snapshot_info_list = CurrentMembers(status.volume_snapshot_info_list, facts);
  });
}

ContentStatus StatusWithoutSnapshot(const ContentStatus& current) {
  using Status = kube::VolumeSnapshotContentStatus;
  return Without(current, &Status::snapshot_handle, &Status::ready_to_use, &Status::creation_time,
                 &Status::restore_size);
}

GroupContentStatus StatusWithoutSnapshot(const GroupContentStatus& current) {
  using Status = kube::VolumeGroupSnapshotContentStatus;
  return Without(current, &Status::volume_group_snapshot_handle, &Status::ready_to_use,
                 &Status::creation_time, &Status::error);
}

}  // namespace snapshotter
