// What the snapshot-controller's flags decide for its handler
// (docs/snapshots.md §4.1).
#pragma once

namespace snapshot_controller {

struct HandlerOptions {
  // --prevent-volume-mode-conversion: dynamic contents record the PV's
  // volumeMode (sourceVolumeMode).
  bool prevent_volume_mode_conversion = true;
  // --enable-distributed-snapshotting: dynamic contents carry the managed-by
  // label of the node the PV is on; Caches::nodes is set.
  bool enable_distributed_snapshotting = false;
};

}  // namespace snapshot_controller
