// ReconcileLoop: the kind-independent half of Controller<K> (controller.h):
// one work queue of object keys, the workers that reconcile them, the two
// backoffs, and the rule that a controller's own writes never cause a second
// sync.
//
// Run() starts `workers` threads, each taking one key at a time from the
// queue and passing it to the reconcile function; the queue never hands one
// key to two workers at once, different keys reconcile concurrently. What
// the reconcile returns decides when the key comes back (action.h); retries
// and requeues take the lane `lane_of` picks for the key then.
//
// Own writes: while a worker reconciles a key, every object of the primary
// kind it writes through a Client is noted with the resourceVersion the
// server answered (write_observer.h). OnChange() - an add or update event of
// the primary kind - queues the key unless the event carries one of those
// versions. An event for a key being reconciled waits until the reconcile
// ends and is judged then, so the event of a write cannot overtake the
// write's answer. Enqueue() - secondary kinds, resyncs, the domain's own
// requests - always queues.
//
// On stop the queue takes no new work and hands out none (queued keys are
// dropped), the reconciles in flight finish, and Run returns. Loops running
// on one stop token all stop taking work the moment it is requested, before
// any of them waits for its reconciles.
//
// Thread-safety: OnChange, OnDeleted, Enqueue and queue() from any thread;
// Run once (the queue cannot restart after stop).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/clock.h"
#include "kube/api/kind.h"
#include "kube/runtime/action.h"
#include "kube/runtime/own_writes.h"
#include "kube/runtime/rate_limiter.h"
#include "kube/runtime/work_queue.h"

namespace kube {

struct ControllerOptions {
  std::string name = {};  // the queue's: the workqueue metrics' `name` label, logs
  uint32_t workers = 1;
  std::chrono::milliseconds retry_start{1000};  // error backoff
  std::chrono::milliseconds retry_max{300000};
  std::chrono::milliseconds requeue_start{1000};  // Action::RequeueWithBackoff cadence
  std::chrono::milliseconds requeue_max{30000};
  WorkQueueMetrics* metrics = nullptr;  // may be null; else outlives the controller
};

class ReconcileLoop {
 public:
  using Lane = WorkQueue::Lane;
  using Reconcile = std::function<ReconcileResult(const std::string& key)>;
  using LaneOf = std::function<Lane(const std::string& key)>;

  // `kind` is the primary kind's facts (T::kFacts): writes of that kind are
  // the loop's own.
  ReconcileLoop(ControllerOptions options, const KindFacts& kind, base::Clock& clock,
                Reconcile reconcile, LaneOf lane_of);

  void OnChange(const std::string& key, std::string_view resource_version, Lane lane);
  // The object of `key` is gone: its own writes are forgotten.
  void OnDeleted(const std::string& key);
  void Enqueue(const std::string& key, Lane lane) { queue_.Add(key, lane); }
  // The primary kind was listed again after its watch was lost: every key
  // whose last reconcile failed is reconciled now, its error backoff reset,
  // instead of when a backoff grown while the API server was away ends.
  void OnRelisted() { queue_.RetryFailedNow(lane_of_); }

  // Blocks until `stop` is requested and the reconciles in flight have finished.
  void Run(std::stop_token stop);

  WorkQueue& queue() { return queue_; }
  const WorkQueue& queue() const { return queue_; }
  const ControllerOptions& options() const { return options_; }

 private:
  class WriteRecorder;
  // Events of a key that arrived while it was being reconciled.
  struct Deferred {
    std::vector<std::string> resource_versions;
    Lane lane = Lane::kNormal;
  };

  void Work();
  void Process(const std::string& key);
  // Whether an event deferred during the reconcile of `key` was not the
  // reconcile's own; the lane it asks for.
  std::optional<Lane> EndReconcile(const std::string& key);
  void Apply(const std::string& key, const ReconcileResult& result);

  const ControllerOptions options_;
  const KindFacts& kind_;
  const Reconcile reconcile_;
  const LaneOf lane_of_;
  ItemExponentialRateLimiter requeue_cadence_;  // has its own lock

  std::mutex mu_;  // guards own_writes_ and reconciling_
  OwnWrites own_writes_;
  std::unordered_map<std::string, Deferred> reconciling_;

  WorkQueue queue_;
};

}  // namespace kube
