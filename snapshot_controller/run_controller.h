// RunController: the snapshot-controller's last step of start-up
// (docs/snapshots.md §4.1, §4.2), after the CRD check and, with
// --leader-election, once this replica leads. Builds the informers (VolumeSnapshot, content, class,
// PersistentVolumeClaim, PersistentVolume; Node with distributed
// snapshotting; the three group kinds when group snapshots run), the
// handlers with their Events (source "snapshot-controller") and the loop
// with its queues; runs them until `stop` and returns once in-flight syncs
// have finished (§9.8). The snapshot and group kinds go through
// `clients.snapshots`; claims, volumes, nodes and Events through
// `clients.core` (snapshotter/snapshot_clients.h).
#pragma once

#include <stop_token>

#include "snapshot/snapshot_clients.h"
#include "snapshot_controller/controller.h"
#include "snapshot_controller/handler_options.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

struct RunControllerOptions {
  ControllerOptions controller;
  HandlerOptions handler;
  // The CSIVolumeGroupSnapshot gate is on and the group CRDs are served
  // (StartGroupSnapshots, §4.1); off, members are plain snapshots (§9.13).
  bool group_snapshots = false;
};

void RunController(const RunControllerOptions& options, const snapshot::SnapshotClients& clients,
                   OperationMetrics& metrics, std::stop_token stop);

}  // namespace snapshot_controller
