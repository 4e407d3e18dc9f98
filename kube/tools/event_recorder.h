// EventRecorder: records core/v1 Events about objects, as client-go's
// recorder does, without ever making the caller wait on the API server.
// Record() stamps the Event, correlates it (event_correlator.h: repeats
// become count bumps, a per-object token bucket drops floods) and puts it on
// a bounded queue, dropping it when the queue is full. One sender thread
// POSTs new Events and PATCHes count and lastTimestamp of repeats, creating
// the Event after all when the PATCH finds it gone (expired, or never sent).
//
// Events about cluster-scoped objects go to namespace "default", like
// client-go's. A failed write is logged and dropped, never retried in a
// loop. 403 Forbidden means the identity lacks the (optional) events
// permission: logged once at warning level, then Events are dropped without
// a request for `forbidden_pause`, after which one is tried again in case
// the permission was granted meanwhile.
//
// Thread-safe. The destructor stops the sender after the write in flight;
// Events still queued are dropped.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>

#include "base/clock.h"
#include "kube/api/core/v1/event.h"
#include "kube/tools/event_api.h"
#include "kube/tools/event_correlator.h"

namespace kube {

struct EventRecorderOptions {
  std::string component;  // source.component and reportingComponent
  std::string host;       // source.host and reportingInstance; may be empty
  std::size_t queue_capacity = 1000;
  std::chrono::seconds forbidden_pause{600};
  EventCorrelatorOptions correlation = {};
};

inline constexpr std::string_view kEventTypeNormal = "Normal";
inline constexpr std::string_view kEventTypeWarning = "Warning";

class EventRecorder {
 public:
  EventRecorder(EventApi& api, base::Clock& clock, EventRecorderOptions options);
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  void Record(const ObjectReference& object, std::string_view type, std::string_view reason,
              std::string_view message);

  // Blocks until every Event recorded so far has been written or dropped
  // (tests use it to observe the sender without sleeping).
  void Drain();

 private:
  Event MakeEvent(const ObjectReference& object, std::string_view type, std::string_view reason,
                  std::string_view message);
  void SendLoop(std::stop_token stop);
  void Write(const CorrelatedEvent& item);
  base::Status WriteRepeat(const Event& event);

  EventApi& api_;
  base::Clock& clock_;
  const EventRecorderOptions options_;
  EventCorrelator correlator_;

  std::mutex mu_;
  std::condition_variable_any queued_;  // queue_ got an item
  std::condition_variable idle_;        // queue_ empty and nothing in flight
  std::deque<CorrelatedEvent> queue_;   // guarded by mu_
  bool in_flight_ = false;              // guarded by mu_
  int64_t last_name_nanos_ = 0;         // guarded by mu_; keeps names unique

  // Sender thread only.
  base::Clock::TimePoint forbidden_until_{};
  bool forbidden_logged_ = false;

  std::jthread sender_;  // last: starts after, and stops before, everything above
};

}  // namespace kube
