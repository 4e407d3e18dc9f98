// Clock: the source of time for every timer, backoff and timestamp, so tests
// can drive time by hand (FakeClock) instead of sleeping.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stop_token>
#include <vector>

namespace base {

class Clock {
 public:
  using Duration = std::chrono::steady_clock::duration;
  using TimePoint = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;

  // Monotonic time, for deadlines and intervals.
  virtual TimePoint Now() const = 0;
  // Wall-clock time, for timestamps written to API objects and logs.
  virtual std::chrono::system_clock::time_point WallNow() const = 0;

  // Blocks until `deadline` (per Now()) or until `stop` is requested.
  // Returns false if woken by the stop request.
  virtual bool SleepUntil(TimePoint deadline, std::stop_token stop) = 0;
  bool SleepFor(Duration d, std::stop_token stop) { return SleepUntil(Now() + d, stop); }

  // The process-wide real clock.
  static Clock& Real();
};

class RealClock final : public Clock {
 public:
  TimePoint Now() const override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point WallNow() const override {
    return std::chrono::system_clock::now();
  }
  bool SleepUntil(TimePoint deadline, std::stop_token stop) override;
};

// A clock that moves only when Advance() is called. Sleepers wake when the
// fake time passes their deadline. Thread-safe.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(std::chrono::system_clock::time_point wall_start =
                         std::chrono::system_clock::time_point(std::chrono::seconds(1700000000)));

  TimePoint Now() const override;
  std::chrono::system_clock::time_point WallNow() const override;
  bool SleepUntil(TimePoint deadline, std::stop_token stop) override;

  void Advance(Duration d);
  // Number of threads currently blocked in SleepUntil; lets tests wait until a
  // background loop has parked before advancing time.
  int Sleepers() const;
  // Blocks (in real time) until at least n threads sleep on this clock.
  void AwaitSleepers(int n) const;
  // Blocks (in real time, at most `timeout`) until the threads asleep on this
  // clock are exactly those with `deadlines` (earliest first); returns whether
  // they became so. Lets tests assert when a timer will fire, instead of
  // checking after a partial Advance() that a woken thread has not acted yet.
  bool AwaitSleeperDeadlines(const std::vector<TimePoint>& deadlines,
                             std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable_any cv_;
  Duration offset_{};
  std::chrono::system_clock::time_point wall_start_;
  std::multiset<TimePoint> deadlines_;  // one per thread in SleepUntil
};

}  // namespace base
