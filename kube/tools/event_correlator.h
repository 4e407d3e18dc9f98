// EventCorrelator: client-go's EventCorrelator cut down to what a controller
// retrying the same failure needs, so a retry loop neither floods the API
// server nor buries `kubectl describe` under copies.
//
// - Repeats: an Event equal to one seen within `aggregation_window` (same
//   source, involved object - resourceVersion aside, it changes on every
//   status write -, type, reason and message) keeps the first one's name and
//   firstTimestamp with count + 1, to be PATCHed instead of created.
// - Spam filter: one token bucket per source and involved object, `spam_burst`
//   tokens refilled one per `spam_refill_period` (client-go: 25, 5 min). An
//   Event finding it empty is dropped; like client-go, its repeat is still
//   counted, so the next Event sent carries the true count.
//
// Both tables hold at most `max_tracked` entries, the least recently used
// evicted first, so churning objects cannot grow memory. Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "base/clock.h"
#include "kube/api/core/v1/event.h"
#include "kube/client/token_bucket.h"

namespace kube {

struct EventCorrelatorOptions {
  std::chrono::seconds aggregation_window{600};
  int spam_burst = 25;
  std::chrono::seconds spam_refill_period{300};
  std::size_t max_tracked = 4096;
};

struct CorrelatedEvent {
  Event event;
  // The Event named event.metadata.name was sent before: PATCH its count and
  // lastTimestamp rather than create it.
  bool repeat = false;
};

class EventCorrelator {
 public:
  explicit EventCorrelator(base::Clock& clock, EventCorrelatorOptions options = {});

  // `event` is new: count 1, firstTimestamp = lastTimestamp, a fresh name.
  // Returns what to send, or nullopt when the spam filter drops it.
  std::optional<CorrelatedEvent> Correlate(Event event);

 private:
  struct Seen {
    std::string name;
    std::string first_timestamp;
    int32_t count = 0;
    base::Clock::TimePoint last_used;
  };
  struct Bucket {
    std::unique_ptr<TokenBucket> tokens;
    base::Clock::TimePoint last_used;
  };

  base::Clock& clock_;
  const EventCorrelatorOptions options_;

  std::mutex mu_;
  std::unordered_map<std::string, Seen> seen_;       // by repeat key; guarded by mu_
  std::unordered_map<std::string, Bucket> buckets_;  // by object key; guarded by mu_
};

}  // namespace kube
