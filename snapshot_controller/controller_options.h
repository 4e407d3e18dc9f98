// What the snapshot-controller's flags decide for its loop
// (docs/snapshots.md §4.1, §4.2): the same for every queue.
#pragma once

#include <chrono>
#include <cstdint>

namespace snapshot_controller {

struct ControllerOptions {
  uint32_t worker_threads = 10;                          // --worker-threads, per queue
  std::chrono::milliseconds retry_interval_start{1000};  // --retry-interval-start
  std::chrono::milliseconds retry_interval_max{300000};  // --retry-interval-max
  std::chrono::milliseconds resync_period{900000};       // --resync-period; 0 = never
};

}  // namespace snapshot_controller
