// WorkerPool: the floor controllers' work queue and the threads that sync its
// keys: the plainest loop over a kube::WorkQueue (client-go's
// processNextWorkItem), without the product runtime's own-write rule or
// reconcile actions, so the floor measures the minimum work.
//
// Run() starts `workers` threads, each taking one key at a time from the queue
// and passing it to the sync function. Success forgets the key's backoff; an
// error logs and adds the key again after retry_start * 2^failures, capped at
// retry_max, in the lane `retry_lane` picks for it then (kNormal when there is
// none). The queue never hands one key to two workers at once; different keys
// sync concurrently. Whoever turns events into work adds keys through queue(),
// also before Run(): they wait there until the workers start.
//
// On stop the queue takes no new work and hands out none (queued keys are
// dropped), the syncs in flight finish, and Run returns. Pools running on one
// stop token all stop taking work the moment it is requested, before any of
// them waits for its syncs.
//
// Thread-safety: queue() may be used from any thread; Run may be called once
// (the queue cannot restart after stop).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "kube/runtime/work_queue.h"

namespace bench {
using kube::WorkQueue;
using kube::WorkQueueMetrics;
}  // namespace bench

namespace bench {

struct WorkerPoolOptions {
  std::string queue_name;  // the `name` label of the workqueue metrics
  std::string kind;        // what a key names, for logs: "VolumeAttachment"
  uint32_t workers = 1;
  std::chrono::milliseconds retry_start{1000};
  std::chrono::milliseconds retry_max{300000};
  WorkQueueMetrics* metrics = nullptr;  // may be null; else outlives the pool
};

class WorkerPool {
 public:
  using Sync = std::function<base::Status(const std::string& key)>;
  using RetryLane = std::function<WorkQueue::Lane(const std::string& key)>;

  WorkerPool(WorkerPoolOptions options, base::Clock& clock, Sync sync, RetryLane retry_lane = {});

  WorkQueue& queue() { return queue_; }
  const WorkQueue& queue() const { return queue_; }

  // Blocks until `stop` is requested and the syncs in flight have finished.
  void Run(std::stop_token stop);

 private:
  // One worker: syncs keys until the queue shuts down.
  void Work();

  const WorkerPoolOptions options_;
  const Sync sync_;
  const RetryLane retry_lane_;
  WorkQueue queue_;
};

}  // namespace bench
