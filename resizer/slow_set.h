// SlowSet: the claims whose last answer from the driver was infeasible, and
// since when (docs/resizer.md §4.5, §5.5). Asking the driver the same thing
// again is held back for `retention` (--retry-interval-max) from the first
// mark; an entry older than that counts as gone, as upstream's set sweeps it.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "base/clock.h"

namespace resizer {

class SlowSet {
 public:
  SlowSet(base::Clock& clock, base::Clock::Duration retention)
      : clock_(clock), retention_(retention) {}

  // Marks `key` now, unless it is marked and its mark has not expired.
  void Mark(const std::string& key);
  // How long `key` is still held back; zero when it is not marked.
  base::Clock::Duration TimeLeft(const std::string& key);
  void Remove(const std::string& key);

 private:
  base::Clock& clock_;
  const base::Clock::Duration retention_;
  std::mutex mu_;
  std::map<std::string, base::Clock::TimePoint> since_;  // guarded by mu_
};

}  // namespace resizer
