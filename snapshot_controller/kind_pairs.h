// The two pairs of kinds the snapshot-controller's loop handles alike
// (KindPairLoop): VolumeSnapshot with VolumeSnapshotContent
// (docs/snapshots.md §4.2-§4.5) and VolumeGroupSnapshot with
// VolumeGroupSnapshotContent (§4.7): the kinds, the handler and the queues.
// The event filters are overloads of one name per rule (event_filters.h,
// group_event_filters.h).
#pragma once

#include <string_view>

#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/group_handler.h"

namespace snapshot_controller {

struct SnapshotKinds {
  using Snapshot = kube::VolumeSnapshot;
  using Content = kube::VolumeSnapshotContent;
  using Handler = ControllerHandler;
  static constexpr std::string_view kSnapshotQueueName = "snapshot-controller-snapshot";
  static constexpr std::string_view kContentQueueName = "snapshot-controller-content";
};

struct GroupSnapshotKinds {
  using Snapshot = kube::VolumeGroupSnapshot;
  using Content = kube::VolumeGroupSnapshotContent;
  using Handler = GroupHandler;
  static constexpr std::string_view kSnapshotQueueName = "snapshot-controller-group-snapshot";
  static constexpr std::string_view kContentQueueName = "snapshot-controller-group-content";
};

}  // namespace snapshot_controller
