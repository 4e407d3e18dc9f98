// What the snapshot-controller's flags decide for its loop
// (docs/snapshots.md §4.1, §4.2): the same for every queue.
#pragma once

#include "component/loop_options.h"

namespace snapshot_controller {

// --worker-threads (per queue), --retry-interval-start, --retry-interval-max
// and --resync-period (0 = never).
using ControllerOptions = component::LoopOptions;

}  // namespace snapshot_controller
