// WorkQueue: the rate-limiting queue of object keys that feeds a controller's
// workers, with client-go's workqueue semantics:
//  - a key waits in the queue at most once, however often it is added;
//  - a key handed out by Get() is not handed out again before Done(); adds in
//    between mark it dirty and Done() queues it again, so one worker handles a
//    key at a time and no update is lost;
//  - AddAfter()/AddRateLimited() add a key later, timed by the Clock; one
//    background thread services every delay, and for a key that is already
//    waiting the earlier deadline wins;
//  - after ShutDown() nothing is added and nothing more is handed out (queued
//    keys are dropped, so a terminating process stops taking work); keys in
//    flight may still be Done().
//
// Lanes: every add names a lane, kNormal or kUrgent; each lane is FIFO. Get()
// hands out urgent keys first, except that while normal keys wait at most
// kUrgentBurst urgent keys are handed out in a row, then the oldest normal key
// (so the normal lane always drains at 1/(kUrgentBurst+1) of the hand-outs or
// better). A key waits in one lane only: an urgent add of a key waiting (or
// dirty in flight) as normal moves it to the end of the urgent lane; a normal
// add never moves a key out of the urgent lane. Metrics do not see lanes:
// depth, adds and latencies count both alike.
//
// Memory: when the queue runs empty (nothing waiting, nothing in flight) after
// at least kReleaseMemoryAfterBacklogOf keys waited at once - a cache's first
// list queues every object - the Done() that emptied it hands the heap's free
// pages back to the system (base::ReleaseFreeHeapMemory): the backlog's nodes
// and the workers' transient memory lie freed between long-lived objects.
//
// Thread-safe: every method may be called from any thread. Add/Get/Done are
// O(1) on average, AddAfter O(log n).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "base/clock.h"
#include "kube/runtime/rate_limiter.h"

namespace kube {

// Observer for the workqueue_* metrics (docs/attacher.md §4). The queue calls it
// with its lock held, so implementations must be quick and must not call back
// into the queue.
class WorkQueueMetrics {
 public:
  virtual ~WorkQueueMetrics() = default;
  virtual void OnAdd() {}                         // workqueue_adds_total
  virtual void OnDepth(size_t depth) {}           // workqueue_depth
  virtual void OnQueueLatency(double seconds) {}  // workqueue_queue_duration_seconds (add→get)
  virtual void OnWorkDuration(double seconds) {}  // workqueue_work_duration_seconds (get→done)
  virtual void OnRetry() {}                       // workqueue_retries_total
};

class WorkQueue {
 public:
  enum class Lane : uint8_t { kNormal, kUrgent };
  static constexpr size_t kReleaseMemoryAfterBacklogOf = 1000;
  // Urgent keys handed out in a row, at most, while a normal key waits.
  static constexpr int kUrgentBurst = 3;

  // `metrics` may be null; otherwise it must outlive the queue.
  WorkQueue(std::string name, base::Clock& clock, std::chrono::milliseconds retry_base,
            std::chrono::milliseconds retry_max, WorkQueueMetrics* metrics = nullptr);
  // Shuts down (without draining) and joins the timer thread.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // The `name` label of the workqueue metrics, e.g. "csi-attacher-va".
  const std::string& name() const { return name_; }

  void Add(const std::string& key, Lane lane = Lane::kNormal);
  // Adds `key` to `lane` once `delay` has passed; a delay <= 0 adds at once.
  // Counts as a retry in the metrics, as client-go's delaying queue does. For a
  // key already waiting on a delay, the earlier deadline and the more urgent
  // lane win.
  void AddAfter(const std::string& key, base::Clock::Duration delay, Lane lane = Lane::kNormal);
  // AddAfter(key, per-key exponential backoff from retry_base up to retry_max,
  // lane).
  void AddRateLimited(const std::string& key, Lane lane = Lane::kNormal);
  // Resets the backoff of `key`; call it when the key was processed successfully.
  void Forget(const std::string& key);
  int NumRequeues(const std::string& key) const;
  // Every key with failures since its last Forget() is added now, in the
  // lane `lane_of` picks, its backoff reset and its pending timer dropped:
  // for when what made them fail may be over (the API server answers again).
  void RetryFailedNow(const std::function<Lane(const std::string& key)>& lane_of);

  // Blocks until a key is ready and hands it out; the caller must call Done(key)
  // when it has finished with it. Returns nullopt once the queue is shut down.
  std::optional<std::string> Get();
  // Ends the processing of a key returned by Get(); no-op for any other key.
  void Done(const std::string& key);

  // Stops accepting adds and wakes every Get() caller. Does not wait.
  void ShutDown();
  // ShutDown(), then blocks until every key in flight is Done(). Must not be
  // called by a worker that itself holds a key.
  void ShutDownWithDrain();

  // Keys ready to be handed out, in both lanes (not counting dirty keys still
  // in flight, nor delayed keys).
  size_t Len() const;

  // Gauges read at scrape time: total and longest time the keys in flight have
  // been processed so far (workqueue_unfinished_work_seconds,
  // workqueue_longest_running_processor_seconds).
  double UnfinishedWorkSeconds() const;
  double LongestRunningProcessorSeconds() const;

 private:
  using TimePoint = base::Clock::TimePoint;
  struct Dirty;
  using DirtyEntry = std::pair<const std::string, Dirty>;
  // A key added and not yet handed out.
  struct Dirty {
    TimePoint added;
    Lane lane;
    // Whether it waits in lanes_[lane]; not while the key is in flight
    // (Done() queues it).
    bool queued = false;
    // Its neighbours in that lane.
    DirtyEntry* previous = nullptr;
    DirtyEntry* next = nullptr;
  };
  // A lane is a FIFO threaded through dirty_'s nodes (stable while a node
  // lives): a cache's first list queues every object, and a list node or a
  // copy of the key per queued key was a third of the backlog's memory.
  // Moving a key between lanes is O(1).
  class LaneQueue {
   public:
    bool empty() const { return front_ == nullptr; }
    size_t size() const { return size_; }
    DirtyEntry& front() const { return *front_; }
    void PushBack(DirtyEntry& entry);
    void Remove(DirtyEntry& entry);

   private:
    DirtyEntry* front_ = nullptr;
    DirtyEntry* back_ = nullptr;
    size_t size_ = 0;
  };
  struct Delayed {
    std::string key;
    Lane lane;
  };
  using Timers = std::multimap<TimePoint, Delayed>;
  struct InFlightSeconds {
    double total = 0;
    double longest = 0;
  };

  // True when `key` was queued for Get(): the caller then wakes a Get(),
  // after unlocking mu_ so that the woken worker does not block on it at once.
  bool AddLocked(const std::string& key, TimePoint now, Lane lane);
  // Sets (or moves earlier) the timer that adds `key` to `lane` at `ready_at`.
  void AddTimerLocked(const std::string& key, TimePoint ready_at, Lane lane);
  // Appends the key of `entry` to the lane it names; the caller wakes a Get().
  void Enqueue(DirtyEntry& entry);
  // The lane the next Get() takes from; at least one lane holds a key.
  Lane NextLane();
  LaneQueue& Queue(Lane lane) { return lanes_[static_cast<size_t>(lane)]; }
  void ShutDownLocked();
  InFlightSeconds MeasureInFlight() const;
  void RunTimers();

  const std::string name_;
  base::Clock& clock_;
  WorkQueueMetrics* const metrics_;
  ItemExponentialRateLimiter limiter_;  // has its own lock

  // mu_ guards every member below it except timer_thread_.
  mutable std::mutex mu_;
  std::condition_variable ready_cv_;   // Get(): a lane non-empty or shutting down
  std::condition_variable drain_cv_;   // ShutDownWithDrain(): processing_ empty
  std::condition_variable timers_cv_;  // timer thread, while it has no timer to sleep on
  // Keys to hand out, one FIFO per Lane. Each is in dirty_ and not in
  // processing_.
  LaneQueue lanes_[2];
  // Urgent keys handed out in a row while a normal key waited.
  int urgent_streak_ = 0;
  // Keys added and not yet handed out (queued, or in flight and re-added).
  // Its size is workqueue_depth.
  std::unordered_map<std::string, Dirty> dirty_;
  // Keys handed out and not yet Done, with the time they were handed out.
  std::unordered_map<std::string, TimePoint> processing_;
  // Delayed adds by deadline (ties in AddAfter order), and each key's entry.
  Timers timers_;
  std::unordered_map<std::string, Timers::iterator> timer_of_key_;
  // Cuts the timer thread's current sleep short: a new earliest deadline or
  // shutdown. Replaced before every sleep.
  std::stop_source timer_wake_;
  bool shutting_down_ = false;
  // The most keys that waited at once since the queue last ran empty.
  size_t backlog_peak_ = 0;

  std::thread timer_thread_;  // last, so it starts after everything it uses
};

}  // namespace kube
