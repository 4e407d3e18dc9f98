#include "bench/worker_pool.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "base/log.h"

namespace bench {
namespace {

void WaitForStop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
}

}  // namespace

WorkerPool::WorkerPool(WorkerPoolOptions options, base::Clock& clock, Sync sync,
                       RetryLane retry_lane)
    : options_(std::move(options)),
      sync_(std::move(sync)),
      retry_lane_(std::move(retry_lane)),
      queue_(options_.queue_name, clock, options_.retry_start, options_.retry_max,
             options_.metrics) {}

void WorkerPool::Run(std::stop_token stop) {
  // Runs on the requesting thread, so every pool on `stop` shuts its queue
  // before anyone joins workers.
  std::stop_callback stop_taking_work(stop, [this] { queue_.ShutDown(); });
  std::vector<std::jthread> workers;
  workers.reserve(options_.workers);
  for (uint32_t i = 0; i < options_.workers; ++i) workers.emplace_back([this] { Work(); });
  WaitForStop(stop);
  LOG_INFO("Shutting down workers").With("queue", options_.queue_name);
  // A worker returns once the queue is shut down and its current sync is
  // done, so joining them all (destroying `workers`) is the drain.
}

void WorkerPool::Work() {
  while (std::optional<std::string> key = queue_.Get()) {
    base::Status status = sync_(*key);
    if (status.ok()) {
      queue_.Forget(*key);
    } else {
      LOG_ERROR("Sync failed, retrying with backoff")
          .With(options_.kind, *key)
          .With("err", status.error().message);
      // The lane is picked when the retry is added, not remembered from the
      // first add: the object may have changed since, and the retry acts on
      // what it is now.
      queue_.AddRateLimited(*key, retry_lane_ ? retry_lane_(*key) : WorkQueue::Lane::kNormal);
    }
    queue_.Done(*key);
  }
}

}  // namespace bench
