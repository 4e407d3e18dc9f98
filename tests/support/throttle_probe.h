// PassesUnthrottled: whether a call that may wait on a token bucket of
// `clock` returns without waiting. It runs `call` on a thread of its own and
// answers true once the call returns, false once a thread sleeps on `clock`
// (the call waits for a token) - no sleep-and-hope: the test's own threads
// are the only ones on `clock`. A call left waiting is released by moving
// `clock` on, so the thread always ends. Bounded by kHandOffTimeout: a call
// that neither returns nor sleeps counts as waiting.
#pragma once

#include <chrono>
#include <functional>
#include <future>

#include "base/clock.h"
#include "tests/support/hand_off.h"

namespace testsupport {

inline bool PassesUnthrottled(base::FakeClock& clock, const std::function<void()>& call) {
  using namespace std::chrono_literals;
  std::future<void> done = std::async(std::launch::async, call);
  const auto deadline = std::chrono::steady_clock::now() + kHandOffTimeout;
  bool passed = false;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done.wait_for(1ms) == std::future_status::ready) {
      passed = true;
      break;
    }
    if (clock.Sleepers() > 0) break;
  }
  while (done.wait_for(1ms) != std::future_status::ready) clock.Advance(1h);
  done.get();
  return passed;
}

}  // namespace testsupport
