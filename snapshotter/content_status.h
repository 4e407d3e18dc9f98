// The status a VolumeSnapshotContent gets from each outcome of a sync
// (docs/snapshots.md §3.4 create step 8, "Error status", step 1; §3.6),
// computed from its current status. Pure functions; ContentWriter sends them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshotter {

using ContentStatus = std::optional<kube::VolumeSnapshotContentStatus>;

// What the driver said about the snapshot, with the time already decided
// (the driver's, or now).
struct SnapshotFacts {
  std::string snapshot_handle = {};
  bool ready_to_use = false;
  int64_t creation_time = 0;               // Unix nanoseconds
  int64_t restore_size = 0;                // bytes; 0 = unknown, never written
  std::string group_snapshot_handle = {};  // "" = none
};

// A nil status gets every fact. An existing one keeps what it has and only
// fills the nil fields, except readyToUse, which follows the driver, and
// error, which goes once the snapshot turns ready. nullopt when nothing
// changes.
ContentStatus StatusWithSnapshot(const ContentStatus& current, const SnapshotFacts& facts);

// readyToUse false and this error; the rest unchanged.
kube::VolumeSnapshotContentStatus StatusWithError(const ContentStatus& current, std::string message,
                                                  std::string time);

// Without snapshotHandle, readyToUse, creationTime and restoreSize, after the
// snapshot was deleted; nullopt when none of them is set.
ContentStatus StatusWithoutSnapshot(const ContentStatus& current);

}  // namespace snapshotter
