#include "kube/tools/event_correlator.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <utility>

namespace kube {
namespace {

// Length-prefixed, so no field can run into the next whatever it contains.
std::string JoinKey(std::initializer_list<std::string_view> fields) {
  std::string key;
  for (std::string_view field : fields) {
    key += std::to_string(field.size());
    key += ':';
    key += field;
  }
  return key;
}

std::string InvolvedObjectKey(const Event& e) {
  const ObjectReference& o = e.involved_object;
  return JoinKey({e.source.component, e.source.host, o.kind, o.namespace_, o.name, o.uid.str(),
                  o.api_version});
}

std::string RepeatKey(const Event& e) {
  return JoinKey({InvolvedObjectKey(e), e.type, e.reason, e.message});
}

// Keeps `map` within `max` entries by dropping the least recently used. Only
// runs its scan when an insert went over the bound.
template <class Map>
void EvictLeastRecentlyUsed(Map& map, std::size_t max) {
  while (map.size() > max) {
    map.erase(std::min_element(map.begin(), map.end(), [](const auto& a, const auto& b) {
      return a.second.last_used < b.second.last_used;
    }));
  }
}

}  // namespace

EventCorrelator::EventCorrelator(base::Clock& clock, EventCorrelatorOptions options)
    : clock_(clock), options_(options) {}

std::optional<CorrelatedEvent> EventCorrelator::Correlate(Event event) {
  const base::Clock::TimePoint now = clock_.Now();
  std::lock_guard lock(mu_);

  CorrelatedEvent result;
  auto [seen, inserted] = seen_.try_emplace(RepeatKey(event));
  if (!inserted && now - seen->second.last_used <= options_.aggregation_window) {
    seen->second.count++;
    event.metadata.name = seen->second.name;
    event.first_timestamp = seen->second.first_timestamp;
    event.count = seen->second.count;
    result.repeat = true;
  } else {
    seen->second = Seen{event.metadata.name, event.first_timestamp, event.count, now};
  }
  seen->second.last_used = now;
  EvictLeastRecentlyUsed(seen_, options_.max_tracked);

  auto [bucket, fresh] = buckets_.try_emplace(InvolvedObjectKey(event));
  if (fresh) {
    const double qps = 1.0 / std::chrono::duration<double>(options_.spam_refill_period).count();
    bucket->second.tokens = std::make_unique<TokenBucket>(qps, options_.spam_burst, clock_);
  }
  bucket->second.last_used = now;
  const bool allowed = bucket->second.tokens->TryAccept();
  EvictLeastRecentlyUsed(buckets_, options_.max_tracked);
  if (!allowed) return std::nullopt;

  result.event = std::move(event);
  return result;
}

}  // namespace kube
