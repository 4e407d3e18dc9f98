// EventThrottle: at most one Event per key (a VolumeSnapshot's UID) per
// interval, for a wait that is retried with backoff and would otherwise repeat
// its Warning on every retry (docs/snapshots.md §9.7: SnapshotDeletePending at
// most once per 5 minutes per object). Keys whose interval has passed are
// forgotten as others are looked at, so a key whose object went away without
// Forget costs memory for one interval only.
//
// Thread-safe.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/clock.h"

namespace snapshot_controller {

// §9.7: how often a deletion held back (of a snapshot or a group snapshot)
// may say so again.
inline constexpr std::chrono::minutes kPendingEventInterval{5};

class EventThrottle {
 public:
  // `clock` must outlive the throttle.
  EventThrottle(base::Clock& clock, base::Clock::Duration interval)
      : clock_(clock), interval_(interval) {}

  // Whether an Event about `key` may be recorded now; if so, the next one
  // may not until `interval` has passed.
  bool Allow(std::string_view key);
  // The wait about `key` is over: a new one reports at once.
  void Forget(std::string_view key);

 private:
  base::Clock& clock_;
  const base::Clock::Duration interval_;
  std::mutex mu_;  // guards last_allowed_
  std::unordered_map<std::string, base::Clock::TimePoint> last_allowed_;
};

}  // namespace snapshot_controller
