// The status a content gets from each outcome of a sync, computed from its
// current status (docs/snapshots.md §3.4 create step 8, "Error status", step
// 1 and §3.6 for a VolumeSnapshotContent; §3.8 and §9.11 for a
// VolumeGroupSnapshotContent). Pure functions; ContentWriterOf sends them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

using ContentStatus = std::optional<kube::VolumeSnapshotContentStatus>;
using GroupContentStatus = std::optional<kube::VolumeGroupSnapshotContentStatus>;

// What the driver said about the snapshot, with the time already decided
// (the driver's, or now).
struct SnapshotFacts {
  std::string snapshot_handle = {};
  bool ready_to_use = false;
  int64_t creation_time = 0;               // Unix nanoseconds
  int64_t restore_size = 0;                // bytes; 0 = unknown, never written
  std::string group_snapshot_handle = {};  // "" = none
};

// The same for a group snapshot.
struct GroupSnapshotFacts {
  std::string group_snapshot_handle = {};
  bool ready_to_use = false;
  std::string creation_time = {};  // RFC 3339, as metav1.Time writes it
  // The members the answer listed; empty when it listed none (a
  // pre-provisioned group's GetVolumeGroupSnapshot is not recorded: upstream
  // records none).
  std::vector<kube::VolumeSnapshotInfo> members = {};
};

// A nil status gets every fact. An existing one keeps what it has and only
// fills the nil fields, except readyToUse, which follows the driver, and
// error, which goes once the snapshot turns ready. nullopt when nothing
// changes.
ContentStatus StatusWithSnapshot(const ContentStatus& current, const SnapshotFacts& facts);
// The same for a group, whose info list besides follows every answer that
// lists members (upstream fills it only while it is empty, so its entries
// keep the first answer's readiness, §9.11), and where no member falls back
// to unready: an entry is ready when the answer says so, when the group is
// ready (CSI: a ready group's snapshots all are), or when it already was.
GroupContentStatus StatusWithGroupSnapshot(const GroupContentStatus& current,
                                           const GroupSnapshotFacts& facts);

// readyToUse false and this error; the rest unchanged. For the status of
// either content kind (the group one's error has the same shape).
template <class Status>
Status StatusWithError(const std::optional<Status>& current, std::string message,
                       std::string time) {
  Status status = current.value_or(Status{});
  status.error = kube::VolumeSnapshotError{.time = std::move(time), .message = std::move(message)};
  status.ready_to_use = false;
  return status;
}

// Without what named the deleted snapshot - snapshotHandle, readyToUse,
// creationTime and restoreSize; for a group volumeGroupSnapshotHandle,
// readyToUse, creationTime and error (the info list stays, as upstream's).
// nullopt when none of them is set.
ContentStatus StatusWithoutSnapshot(const ContentStatus& current);
GroupContentStatus StatusWithoutSnapshot(const GroupContentStatus& current);

}  // namespace snapshotter
