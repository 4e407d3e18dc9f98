#include "snapshot_controller/event_throttle.h"

namespace snapshot_controller {

bool EventThrottle::Allow(std::string_view key) {
  const base::Clock::TimePoint now = clock_.Now();
  std::lock_guard lock(mu_);
  std::erase_if(last_allowed_, [&](const auto& entry) { return now - entry.second >= interval_; });
  auto [it, inserted] = last_allowed_.try_emplace(std::string(key), now);
  return inserted;
}

void EventThrottle::Forget(std::string_view key) {
  std::lock_guard lock(mu_);
  last_allowed_.erase(std::string(key));
}

}  // namespace snapshot_controller
