#include "snapshot_controller/group_status.h"

#include <string>

namespace snapshot_controller {
namespace {

bool IsCreated(const std::optional<kube::VolumeGroupSnapshotStatus>& status) {
  return status && status->creation_time;
}

bool IsReady(const std::optional<kube::VolumeGroupSnapshotStatus>& status) {
  return status && status->ready_to_use.value_or(false);
}

}  // namespace

std::optional<GroupStatusChange> GroupStatusFromContent(
    const kube::VolumeGroupSnapshot& group, const kube::VolumeGroupSnapshotContent& content) {
  const kube::VolumeGroupSnapshotContentStatus facts =
      content.status.value_or(kube::VolumeGroupSnapshotContentStatus{});
  const bool ready = facts.ready_to_use.value_or(false);

  kube::VolumeGroupSnapshotStatus status = group.status.value_or(kube::VolumeGroupSnapshotStatus{});
  if (!status.bound_volume_group_snapshot_content_name) {
    status.bound_volume_group_snapshot_content_name = content.metadata.name;
  }
  if (!status.creation_time) status.creation_time = facts.creation_time;
  if (status.ready_to_use != ready) {
    // A new status has no error yet: the content's is copied below.
    if (ready) status.error.reset();
    status.ready_to_use = ready;
  }
  status.error = ErrorAfter(status.error, facts.error);
  if (group.status && status == *group.status) return std::nullopt;

  GroupStatusChange change{.status = std::move(status), .events = {}};
  const std::string key = group.metadata.namespace_ + "/" + group.metadata.name;
  if (!IsCreated(group.status) && IsCreated(change.status)) {
    change.events.push_back(
        {"GroupSnapshotCreated",
         "GroupSnapshot " + key + " was successfully created by the CSI driver."});
  }
  if (!IsReady(group.status) && IsReady(change.status)) {
    change.events.push_back({"GroupSnapshotReady", "GroupSnapshot " + key + " is ready to use."});
  }
  return change;
}

bool GroupStatusLagsContent(const kube::VolumeGroupSnapshot& group,
                            const kube::VolumeGroupSnapshotContent& content) {
  if (!content.status) return false;
  if (!group.status || !group.status->bound_volume_group_snapshot_content_name) return true;
  if (!group.status->creation_time && content.status->creation_time) return true;
  return content.status->ready_to_use.has_value();
}

}  // namespace snapshot_controller
