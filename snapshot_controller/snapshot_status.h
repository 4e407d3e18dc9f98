// The status a VolumeSnapshot gets from its bound VolumeSnapshotContent, and
// the Normal events that change brings (docs/snapshots.md §4.3 "Copying the
// status"). Pure; the controller reads the VolumeSnapshot fresh, finds the
// group snapshot's name, then writes the status and records the events.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller {

// A Normal event about the VolumeSnapshot.
struct SnapshotNormalEvent {
  std::string_view reason;
  std::string message;

  bool operator==(const SnapshotNormalEvent&) const = default;
};

struct SnapshotStatusChange {
  kube::VolumeSnapshotStatus status;
  // SnapshotCreated when creationTime first appears, SnapshotReady when
  // readyToUse turns true; in that order.
  std::vector<SnapshotNormalEvent> events;
};

// The snapshot's status with the content's: a nil status gets everything the
// content has; an existing one gets the content's name and creationTime when
// it has none, readyToUse always (false when the content has none), the
// restore size when it has none or zero, and the content's error unless
// both errors lack a time to tell them apart (an error goes when the content
// has none or the snapshot turns ready). group_snapshot_name ("" = none)
// fills a missing volumeGroupSnapshotName. nullopt when nothing changes.
std::optional<SnapshotStatusChange> SnapshotStatusFromContent(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotContent& content,
    std::string_view group_snapshot_name);

// Which error a snapshot's (or group snapshot's) status keeps when its
// content's status has `from_content`. Upstream replaces the snapshot's error
// when both carry a time (it compares the addresses of the times, which
// always differ), so only an error without a time survives a timed one.
std::optional<kube::VolumeSnapshotError> ErrorAfter(
    const std::optional<kube::VolumeSnapshotError>& current,
    const std::optional<kube::VolumeSnapshotError>& from_content);

// Whether a content's sync should queue its VolumeSnapshot because the
// snapshot's status lags the content's (§4.4): the snapshot has no status
// or no bound name, or lacks a creationTime, readyToUse or restore size the
// content has, or has a zero restore size where the content's is positive.
// Whenever both carry readyToUse it counts as lagging, as upstream compares
// the two pointers rather than their values.
bool SnapshotStatusLagsContent(const kube::VolumeSnapshot& snapshot,
                               const kube::VolumeSnapshotContent& content);

}  // namespace snapshot_controller
