// The process's CPU scheduling policy.
//
// PreferBatchScheduling: moves the calling thread - and every thread it starts
// later, which inherit the policy - from the default SCHED_OTHER to
// SCHED_BATCH (sched(7)), under which a woken thread no longer preempts the
// thread that woke it. A sidecar's threads wake each other once per answer
// (the HTTP/2 reader its callers, an informer a worker); under SCHED_OTHER the
// woken thread took the CPU from its waker mid-round, which then needed a
// second switch to finish (docs/design.md §5). The nice value is kept, and a
// policy the operator chose (chrt, a real-time class) is left alone. Returns
// the calling thread's policy afterwards. Called by each shipped binary's
// main() before any thread starts.
#pragma once

namespace base {

int PreferBatchScheduling();

}  // namespace base
