// LoopOptions: what the loop flags every binary has decide for its
// controller loop - --worker-threads, --retry-interval-start,
// --retry-interval-max and the resync period - in the units the loop takes.
// Each binary keeps its own defaults for the flags; the values below are
// the snapshot binaries' (docs/snapshots.md §3.1, §4.1).
#pragma once

#include <chrono>
#include <cstdint>

#include "component/standard_flags.h"

namespace component {

struct LoopOptions {
  uint32_t worker_threads = 10;                          // --worker-threads, per queue
  std::chrono::milliseconds retry_interval_start{1000};  // --retry-interval-start
  std::chrono::milliseconds retry_interval_max{300000};  // --retry-interval-max
  std::chrono::milliseconds resync_period{900000};       // 0 = never
};

// The flags' values as the loop takes them: durations in whole milliseconds;
// a worker count below one starts no worker, as upstream's loops do.
LoopOptions LoopOptionsFrom(int64_t worker_threads, const RetryIntervalOptions& retry,
                            std::chrono::nanoseconds resync_period);

}  // namespace component
