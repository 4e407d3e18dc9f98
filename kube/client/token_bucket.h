// TokenBucket: limits API requests to `qps` per second with bursts of up to
// `burst`, like client-go's flowcontrol token-bucket limiter: the bucket
// starts full and refills continuously at qps tokens per second.
//
// Wait() reserves the next token at once and sleeps (on the Clock) until it is
// due, so concurrent waiters are served in arrival order, spaced 1/qps apart,
// without polling. A waiter that is stopped gives its token back.
//
// qps <= 0 disables limiting: every request passes at once (mapping the
// client flags' defaults onto this is the caller's business). With qps > 0 a
// burst below 1 is treated as 1.
//
// Thread-safe: one mutex guards the token count; nobody holds it while asleep.
#pragma once

#include <mutex>
#include <stop_token>

#include "base/clock.h"

namespace kube {

class TokenBucket {
 public:
  TokenBucket(double qps, int burst, base::Clock& clock);

  // Blocks until a token is available and takes it. Returns false, taking no
  // token, if `stop` is requested first.
  bool Wait(std::stop_token stop);
  // Takes a token if one is available now.
  bool TryAccept();

 private:
  void RefillLocked(base::Clock::TimePoint now);

  const double qps_;
  const double burst_;
  base::Clock& clock_;

  std::mutex mu_;
  // Guarded by mu_. Negative while waiters hold reservations on future tokens.
  double tokens_;
  base::Clock::TimePoint last_refill_;  // guarded by mu_
};

}  // namespace kube
