#include "kube/runtime/work_queue.h"

#include <algorithm>
#include <utility>

#include "base/heap.h"

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

void WorkQueue::Add(const std::string& key, Lane lane) {
  bool queued;
  {
    std::lock_guard lock(mu_);
    queued = AddLocked(key, clock_.Now(), lane);
  }
  if (queued) ready_cv_.notify_one();
}

bool WorkQueue::AddLocked(const std::string& key, TimePoint now, Lane lane) {
  if (shutting_down_) return false;
  auto [entry, inserted] = dirty_.try_emplace(key, Dirty{.added = now, .lane = lane});
  Dirty& dirty = entry->second;
  if (!inserted) {
    // Already waiting: not another add, but an urgent add promotes it. The
    // add time stays, so the latency metric still counts from the first add.
    if (lane <= dirty.lane) return false;
    if (dirty.queued) {
      Queue(dirty.lane).Remove(*entry);
      Queue(lane).PushBack(*entry);
    }
    dirty.lane = lane;
    return false;
  }
  if (metrics_) {
    metrics_->OnAdd();
    metrics_->OnDepth(dirty_.size());
  }
  // A key in flight is queued again by Done(), never twice at once.
  if (processing_.contains(key)) return false;
  Enqueue(*entry);
  return true;
}

void WorkQueue::Enqueue(DirtyEntry& entry) {
  Queue(entry.second.lane).PushBack(entry);
  backlog_peak_ = std::max(backlog_peak_, dirty_.size());
}

void WorkQueue::LaneQueue::PushBack(DirtyEntry& entry) {
  Dirty& dirty = entry.second;
  dirty.queued = true;
  dirty.previous = back_;
  dirty.next = nullptr;
  (back_ ? back_->second.next : front_) = &entry;
  back_ = &entry;
  ++size_;
}

void WorkQueue::LaneQueue::Remove(DirtyEntry& entry) {
  Dirty& dirty = entry.second;
  (dirty.previous ? dirty.previous->second.next : front_) = dirty.next;
  (dirty.next ? dirty.next->second.previous : back_) = dirty.previous;
  dirty.queued = false;
  dirty.previous = dirty.next = nullptr;
  --size_;
}

void WorkQueue::AddAfter(const std::string& key, base::Clock::Duration delay, Lane lane) {
  bool queued = false;
  {
    std::lock_guard lock(mu_);
    if (shutting_down_) return;
    if (metrics_) metrics_->OnRetry();
    TimePoint now = clock_.Now();
    if (delay <= base::Clock::Duration::zero()) {
      queued = AddLocked(key, now, lane);
    } else {
      AddTimerLocked(key, now + delay, lane);
    }
  }
  if (queued) ready_cv_.notify_one();
}

void WorkQueue::RetryFailedNow(const std::function<Lane(const std::string& key)>& lane_of) {
  for (const std::string& key : limiter_.FailingKeys()) {
    const Lane lane = lane_of(key);
    limiter_.Forget(key);
    bool queued;
    {
      std::lock_guard lock(mu_);
      if (shutting_down_) return;
      if (auto timer = timer_of_key_.find(key); timer != timer_of_key_.end()) {
        timers_.erase(timer->second);
        timer_of_key_.erase(timer);
      }
      queued = AddLocked(key, clock_.Now(), lane);
    }
    if (queued) ready_cv_.notify_one();
  }
}

void WorkQueue::AddTimerLocked(const std::string& key, TimePoint ready_at, Lane lane) {
  auto [entry, inserted] = timer_of_key_.try_emplace(key);
  if (!inserted) {
    Delayed& waiting = entry->second->second;
    lane = std::max(lane, waiting.lane);
    if (entry->second->first <= ready_at) {
      waiting.lane = lane;
      return;
    }
    timers_.erase(entry->second);
  }
  entry->second = timers_.emplace(ready_at, Delayed{.key = key, .lane = lane});
  if (entry->second == timers_.begin()) {
    timer_wake_.request_stop();
    timers_cv_.notify_one();
  }
}

void WorkQueue::AddRateLimited(const std::string& key, Lane lane) {
  AddAfter(key, limiter_.When(key), lane);
}

void WorkQueue::Forget(const std::string& key) { limiter_.Forget(key); }

int WorkQueue::NumRequeues(const std::string& key) const { return limiter_.NumRequeues(key); }

std::optional<std::string> WorkQueue::Get() {
  std::unique_lock lock(mu_);
  ready_cv_.wait(lock, [this] {
    return shutting_down_ || !Queue(Lane::kUrgent).empty() || !Queue(Lane::kNormal).empty();
  });
  if (shutting_down_) return std::nullopt;
  LaneQueue& queue = Queue(NextLane());
  DirtyEntry& front = queue.front();
  queue.Remove(front);
  auto dirty = dirty_.extract(front.first);
  std::string key = std::move(dirty.key());
  TimePoint now = clock_.Now();
  processing_.emplace(key, now);
  if (metrics_) {
    metrics_->OnQueueLatency(Seconds(now - dirty.mapped().added));
    metrics_->OnDepth(dirty_.size());
  }
  return key;
}

WorkQueue::Lane WorkQueue::NextLane() {
  bool normal_waits = !Queue(Lane::kNormal).empty();
  if (Queue(Lane::kUrgent).empty() || (normal_waits && urgent_streak_ >= kUrgentBurst)) {
    urgent_streak_ = 0;
    return Lane::kNormal;
  }
  // Only urgent keys that overtook a waiting normal key count towards the
  // burst; with the normal lane empty nobody is being starved.
  urgent_streak_ = normal_waits ? urgent_streak_ + 1 : 0;
  return Lane::kUrgent;
}

void WorkQueue::Done(const std::string& key) {
  bool drained_backlog = false;
  bool requeued = false;
  {
    std::lock_guard lock(mu_);
    auto it = processing_.find(key);
    if (it == processing_.end()) return;
    if (metrics_) metrics_->OnWorkDuration(Seconds(clock_.Now() - it->second));
    processing_.erase(it);
    if (auto dirty = dirty_.find(key); dirty != dirty_.end()) {
      Enqueue(*dirty);
      requeued = true;
    }
    if (processing_.empty()) drain_cv_.notify_all();
    if (processing_.empty() && dirty_.empty()) {
      drained_backlog = backlog_peak_ >= kReleaseMemoryAfterBacklogOf;
      backlog_peak_ = 0;
    }
  }
  if (requeued) ready_cv_.notify_one();
  if (drained_backlog) base::ReleaseFreeHeapMemory();  // not under the lock: it takes a while
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
  return lanes_[0].size() + lanes_[1].size();
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
      timer_of_key_.erase(first->second.key);
      bool queued = AddLocked(first->second.key, now, first->second.lane);
      timers_.erase(first);
      if (queued) {
        lock.unlock();
        ready_cv_.notify_one();
        lock.lock();
      }
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
