#include "base/clock.h"

#include <algorithm>

namespace base {

Clock& Clock::Real() {
  static RealClock clock;
  return clock;
}

bool RealClock::SleepUntil(TimePoint deadline, std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  return !cv.wait_until(lock, stop, deadline, [] { return false; }) && !stop.stop_requested();
}

FakeClock::FakeClock(std::chrono::system_clock::time_point wall_start) : wall_start_(wall_start) {}

Clock::TimePoint FakeClock::Now() const {
  std::lock_guard lock(mu_);
  return TimePoint(offset_);
}

std::chrono::system_clock::time_point FakeClock::WallNow() const {
  std::lock_guard lock(mu_);
  return wall_start_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(offset_);
}

bool FakeClock::SleepUntil(TimePoint deadline, std::stop_token stop) {
  std::unique_lock lock(mu_);
  auto sleeper = deadlines_.insert(deadline);
  cv_.notify_all();
  bool reached = cv_.wait(lock, stop, [&] { return TimePoint(offset_) >= deadline; });
  deadlines_.erase(sleeper);
  cv_.notify_all();
  return reached;
}

void FakeClock::Advance(Duration d) {
  std::lock_guard lock(mu_);
  offset_ += d;
  cv_.notify_all();
}

int FakeClock::Sleepers() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(deadlines_.size());
}

void FakeClock::AwaitSleepers(int n) const {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return static_cast<int>(deadlines_.size()) >= n; });
}

bool FakeClock::AwaitSleeperDeadlines(const std::vector<TimePoint>& deadlines,
                                      std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, timeout, [&] {
    return std::equal(deadlines_.begin(), deadlines_.end(), deadlines.begin(), deadlines.end());
  });
}

}  // namespace base
