#include "kube/runtime/reconcile_loop.h"

#include <condition_variable>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "base/log.h"
#include "kube/client/write_observer.h"
#include "kube/runtime/store.h"

namespace kube {
namespace {

void WaitForStop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
}

}  // namespace

// Notes the writes of the primary kind made on the reconciling thread.
class ReconcileLoop::WriteRecorder final : public WriteObserver {
 public:
  explicit WriteRecorder(ReconcileLoop& loop) : loop_(loop) {}
  void OnWritten(const KindFacts* kind, std::string_view ns, std::string_view name,
                 std::string_view resource_version) override {
    if (kind != &loop_.kind_) return;
    std::lock_guard lock(loop_.mu_);
    loop_.own_writes_.Record(ObjectKey{ns, name}.ToString(), resource_version);
  }

 private:
  ReconcileLoop& loop_;
};

ReconcileLoop::ReconcileLoop(ControllerOptions options, const KindFacts& kind, base::Clock& clock,
                             Reconcile reconcile, LaneOf lane_of)
    : options_(std::move(options)),
      kind_(kind),
      reconcile_(std::move(reconcile)),
      lane_of_(std::move(lane_of)),
      requeue_cadence_(options_.requeue_start, options_.requeue_max),
      queue_(options_.name, clock, options_.retry_start, options_.retry_max, options_.metrics) {}

void ReconcileLoop::OnChange(const std::string& key, std::string_view resource_version, Lane lane) {
  {
    std::lock_guard lock(mu_);
    if (own_writes_.TakeIfOwn(key, resource_version)) {
      LOG_V(5, "Own write, no sync").With(kind_.kind, key);
      return;
    }
    if (auto it = reconciling_.find(key); it != reconciling_.end()) {
      it->second.resource_versions.emplace_back(resource_version);
      if (lane == Lane::kUrgent) it->second.lane = lane;
      return;
    }
  }
  queue_.Add(key, lane);
}

void ReconcileLoop::OnDeleted(const std::string& key) {
  std::lock_guard lock(mu_);
  own_writes_.Forget(key);
}

void ReconcileLoop::Run(std::stop_token stop) {
  // Runs on the requesting thread, so every loop on `stop` shuts its queue
  // before anyone joins workers.
  std::stop_callback stop_taking_work(stop, [this] { queue_.ShutDown(); });
  std::vector<std::jthread> workers;
  workers.reserve(options_.workers);
  for (uint32_t i = 0; i < options_.workers; ++i) workers.emplace_back([this] { Work(); });
  WaitForStop(stop);
  LOG_INFO("Shutting down workers").With("queue", options_.name);
  // A worker returns once the queue is shut down and its current reconcile
  // is done, so joining them all (destroying `workers`) is the drain.
}

void ReconcileLoop::Work() {
  while (std::optional<std::string> key = queue_.Get()) {
    Process(*key);
    queue_.Done(*key);
  }
}

void ReconcileLoop::Process(const std::string& key) {
  {
    std::lock_guard lock(mu_);
    reconciling_.try_emplace(key);
  }
  ReconcileResult result = [&] {
    WriteRecorder recorder(*this);
    ScopedWriteObserver observe(recorder);
    return reconcile_(key);
  }();
  std::optional<Lane> changed_meanwhile = EndReconcile(key);
  Apply(key, result);
  // Before Done(): the queue hands the key out again once this one is done.
  if (changed_meanwhile) queue_.Add(key, *changed_meanwhile);
}

std::optional<ReconcileLoop::Lane> ReconcileLoop::EndReconcile(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = reconciling_.find(key);
  Deferred deferred = std::move(it->second);
  reconciling_.erase(it);
  bool changed = false;
  for (const std::string& version : deferred.resource_versions) {
    if (!own_writes_.TakeIfOwn(key, version)) changed = true;
  }
  if (!changed) return std::nullopt;
  return deferred.lane;
}

void ReconcileLoop::Apply(const std::string& key, const ReconcileResult& result) {
  if (!result.ok()) {
    LOG_ERROR("Sync failed, retrying with backoff")
        .With(kind_.kind, key)
        .With("err", result.error().message);
    // The lane is picked when the retry is added, not remembered from the
    // first add: the object may have changed since, and the retry acts on
    // what it is now.
    queue_.AddRateLimited(key, lane_of_(key));
    return;
  }
  queue_.Forget(key);
  switch (result->next) {
    case Action::Next::kDone:
      requeue_cadence_.Forget(key);
      break;
    case Action::Next::kRequeueAfter:
      requeue_cadence_.Forget(key);
      queue_.AddAfter(key, result->delay, lane_of_(key));
      break;
    case Action::Next::kRequeueWithBackoff:
      queue_.AddAfter(key, requeue_cadence_.When(key), lane_of_(key));
      break;
  }
}

}  // namespace kube
