// ShutdownSignal: lets SIGTERM cut short the sleeps of in-flight calls (an
// injected "delay": "10m" must not hold up a clean shutdown). Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace faultdriver {

class ShutdownSignal {
 public:
  void Trigger();
  // Sleeps for `duration`; returns false if shutdown cut it short.
  bool SleepFor(std::chrono::nanoseconds duration);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool triggered_ = false;  // guarded by mu_
};

}  // namespace faultdriver
