#include "kube/work_queue.h"

#include <algorithm>
#include <utility>

namespace kube {
namespace {

double Seconds(base::Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

WorkQueue::WorkQueue(std::string name, base::Clock& clock, std::chrono::milliseconds retry_base,
                     std::chrono::milliseconds retry_max, WorkQueueMetrics* metrics)
    : name_(std::move(name)),
      clock_(clock),
      metrics_(metrics),
      limiter_(retry_base, retry_max),
      timer_thread_([this] { RunTimers(); }) {}

WorkQueue::~WorkQueue() {
  ShutDown();
  timer_thread_.join();
}

void WorkQueue::Add(const std::string& key) {
  std::lock_guard lock(mu_);
  AddLocked(key, clock_.Now());
}

void WorkQueue::AddLocked(const std::string& key, TimePoint now) {
  if (shutting_down_) return;
  if (!dirty_.try_emplace(key, now).second) return;
  if (metrics_) {
    metrics_->OnAdd();
    metrics_->OnDepth(dirty_.size());
  }
  // A key in flight is queued again by Done(), never twice at once.
  if (processing_.contains(key)) return;
  queue_.push_back(key);
  ready_cv_.notify_one();
}

void WorkQueue::AddAfter(const std::string& key, base::Clock::Duration delay) {
  std::lock_guard lock(mu_);
  if (shutting_down_) return;
  if (metrics_) metrics_->OnRetry();
  TimePoint now = clock_.Now();
  if (delay <= base::Clock::Duration::zero()) {
    AddLocked(key, now);
    return;
  }
  TimePoint ready_at = now + delay;
  auto [entry, inserted] = timer_of_key_.try_emplace(key);
  if (!inserted) {
    if (entry->second->first <= ready_at) return;
    timers_.erase(entry->second);
  }
  entry->second = timers_.emplace(ready_at, key);
  if (entry->second == timers_.begin()) {
    timer_wake_.request_stop();
    timers_cv_.notify_one();
  }
}

void WorkQueue::AddRateLimited(const std::string& key) { AddAfter(key, limiter_.When(key)); }

void WorkQueue::Forget(const std::string& key) { limiter_.Forget(key); }

int WorkQueue::NumRequeues(const std::string& key) const { return limiter_.NumRequeues(key); }

std::optional<std::string> WorkQueue::Get() {
  std::unique_lock lock(mu_);
  ready_cv_.wait(lock, [this] { return shutting_down_ || !queue_.empty(); });
  if (shutting_down_) return std::nullopt;
  std::string key = std::move(queue_.front());
  queue_.pop_front();
  TimePoint now = clock_.Now();
  auto added = dirty_.extract(key);
  processing_.emplace(key, now);
  if (metrics_) {
    metrics_->OnQueueLatency(Seconds(now - added.mapped()));
    metrics_->OnDepth(dirty_.size());
  }
  return key;
}

void WorkQueue::Done(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = processing_.find(key);
  if (it == processing_.end()) return;
  if (metrics_) metrics_->OnWorkDuration(Seconds(clock_.Now() - it->second));
  processing_.erase(it);
  if (dirty_.contains(key)) {
    queue_.push_back(key);
    ready_cv_.notify_one();
  }
  if (processing_.empty()) drain_cv_.notify_all();
}

void WorkQueue::ShutDown() {
  std::lock_guard lock(mu_);
  ShutDownLocked();
}

void WorkQueue::ShutDownWithDrain() {
  std::unique_lock lock(mu_);
  ShutDownLocked();
  drain_cv_.wait(lock, [this] { return processing_.empty(); });
}

void WorkQueue::ShutDownLocked() {
  shutting_down_ = true;
  ready_cv_.notify_all();
  timers_cv_.notify_all();
  timer_wake_.request_stop();
}

size_t WorkQueue::Len() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

WorkQueue::InFlightSeconds WorkQueue::MeasureInFlight() const {
  std::lock_guard lock(mu_);
  TimePoint now = clock_.Now();
  InFlightSeconds in_flight;
  for (const auto& [key, started] : processing_) {
    double age = Seconds(now - started);
    in_flight.total += age;
    in_flight.longest = std::max(in_flight.longest, age);
  }
  return in_flight;
}

double WorkQueue::UnfinishedWorkSeconds() const { return MeasureInFlight().total; }

double WorkQueue::LongestRunningProcessorSeconds() const { return MeasureInFlight().longest; }

void WorkQueue::RunTimers() {
  std::unique_lock lock(mu_);
  while (!shutting_down_) {
    if (timers_.empty()) {
      timers_cv_.wait(lock);
      continue;
    }
    TimePoint now = clock_.Now();
    auto first = timers_.begin();
    if (first->first <= now) {
      timer_of_key_.erase(first->second);
      AddLocked(first->second, now);
      timers_.erase(first);
      continue;
    }
    // Sleep without the lock; AddAfter() with an earlier deadline, or
    // ShutDown(), stops this token to cut the sleep short.
    TimePoint deadline = first->first;
    timer_wake_ = std::stop_source();
    std::stop_token wake = timer_wake_.get_token();
    lock.unlock();
    clock_.SleepUntil(deadline, wake);
    lock.lock();
  }
}

}  // namespace kube
