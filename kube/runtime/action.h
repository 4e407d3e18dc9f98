// Action: what a controller's reconcile of one key asks the runtime to do
// next (kube-rs's Action). The runtime, not the domain, keeps the queue, the
// timers and the backoffs:
//  - Done: nothing until the object changes again or the resync; every
//    backoff of the key is forgotten;
//  - RequeueAfter(d): the key comes back after d;
//  - RequeueWithBackoff: the key comes back after the controller's requeue
//    cadence, which starts at ControllerOptions::requeue_start and doubles per
//    consecutive RequeueWithBackoff up to requeue_max (a readiness poll);
// and a reconcile that fails (an error Result) comes back after the error
// backoff, retry_start doubling up to retry_max. The two backoffs count
// apart: an error neither resets nor advances the requeue cadence, and any
// Action forgets the error backoff.
#pragma once

#include <chrono>
#include <cstdint>

#include "base/clock.h"
#include "base/result.h"

namespace kube {

struct Action {
  enum class Next : uint8_t { kDone, kRequeueAfter, kRequeueWithBackoff };

  static Action Done() { return {}; }
  static Action RequeueAfter(base::Clock::Duration delay) {
    return {.next = Next::kRequeueAfter, .delay = delay};
  }
  static Action RequeueWithBackoff() { return {.next = Next::kRequeueWithBackoff}; }

  bool operator==(const Action&) const = default;

  Next next = Next::kDone;
  base::Clock::Duration delay{};  // kRequeueAfter only
};

using ReconcileResult = base::Result<Action>;

// Done when `status` is ok, else its error: the answer of a reconcile whose
// work is finished or failed.
inline ReconcileResult DoneOr(const base::Status& status) {
  if (!status.ok()) return status.error();
  return Action::Done();
}

}  // namespace kube
