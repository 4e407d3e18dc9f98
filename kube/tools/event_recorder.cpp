#include "kube/tools/event_recorder.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/log.h"
#include "kube/client/api_error.h"
#include "kube/api/meta_time.h"

namespace kube {
namespace {

// Where client-go puts Events about cluster-scoped objects.
constexpr std::string_view kClusterScopedEventNamespace = "default";

}  // namespace

EventRecorder::EventRecorder(EventApi& api, base::Clock& clock, EventRecorderOptions options)
    : api_(api),
      clock_(clock),
      options_(std::move(options)),
      correlator_(clock, options_.correlation),
      sender_([this](std::stop_token stop) { SendLoop(stop); }) {}

Event EventRecorder::MakeEvent(const ObjectReference& object, std::string_view type,
                               std::string_view reason, std::string_view message) {
  const auto wall = clock_.WallNow();
  int64_t nanos =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall.time_since_epoch()).count();
  {
    // client-go names Events <object>.<hex nanoseconds>; two Events in the same
    // (fake or coarse) nanosecond must still not collide.
    std::lock_guard lock(mu_);
    nanos = std::max(nanos, last_name_nanos_ + 1);
    last_name_nanos_ = nanos;
  }
  Event event;
  event.metadata.namespace_ =
      object.namespace_.empty() ? std::string(kClusterScopedEventNamespace) : object.namespace_;
  event.metadata.name = fmt::format("{}.{:x}", object.name, nanos);
  event.involved_object = object;
  event.type = std::string(type);
  event.reason = std::string(reason);
  event.message = std::string(message);
  event.count = 1;
  event.first_timestamp = FormatMetaTime(wall);
  event.last_timestamp = event.first_timestamp;
  event.source.component = options_.component;
  event.source.host = options_.host;
  event.reporting_component = options_.component;
  event.reporting_instance = options_.host;
  return event;
}

void EventRecorder::Record(const ObjectReference& object, std::string_view type,
                           std::string_view reason, std::string_view message) {
  std::optional<CorrelatedEvent> item =
      correlator_.Correlate(MakeEvent(object, type, reason, message));
  if (!item) {
    LOG_V(4, "Event dropped by the per-object rate limit")
        .With("object", object.name)
        .With("reason", reason);
    return;
  }
  {
    std::lock_guard lock(mu_);
    if (queue_.size() >= options_.queue_capacity) {
      LOG_V(2, "Event queue full, dropping Event")
          .With("object", object.name)
          .With("reason", reason);
      return;
    }
    queue_.push_back(std::move(*item));
  }
  queued_.notify_one();
}

void EventRecorder::Drain() {
  std::unique_lock lock(mu_);
  idle_.wait(lock, [this] { return queue_.empty() && !in_flight_; });
}

void EventRecorder::SendLoop(std::stop_token stop) {
  for (;;) {
    CorrelatedEvent item;
    {
      std::unique_lock lock(mu_);
      if (!queued_.wait(lock, stop, [this] { return !queue_.empty(); })) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      in_flight_ = true;
    }
    Write(item);
    {
      std::lock_guard lock(mu_);
      in_flight_ = false;
    }
    idle_.notify_all();
  }
}

void EventRecorder::Write(const CorrelatedEvent& item) {
  const Event& event = item.event;
  if (clock_.Now() < forbidden_until_) {
    LOG_V(5, "Event dropped: no permission to write Events").With("reason", event.reason);
    return;
  }
  base::Status status = item.repeat ? WriteRepeat(event) : api_.Create(event);
  if (status.ok()) {
    LOG_V(5, "Event recorded")
        .With("event", event.metadata.namespace_ + "/" + event.metadata.name)
        .With("count", event.count);
    return;
  }
  const base::Error& error = status.error();
  if (IsForbidden(error)) {
    forbidden_until_ = clock_.Now() + options_.forbidden_pause;
    if (!forbidden_logged_) {
      forbidden_logged_ = true;
      LOG_WARNING(
          "Cannot record Events: permission denied. Grant create and patch on events (core API "
          "group) to see them; until then Events are dropped")
          .With("namespace", event.metadata.namespace_)
          .With("err", error.message);
    } else {
      LOG_V(4, "Still no permission to write Events").With("err", error.message);
    }
    return;
  }
  LOG_V(2, "Failed to record Event, dropping it")
      .With("event", event.metadata.namespace_ + "/" + event.metadata.name)
      .With("reason", event.reason)
      .With("err", error.message);
}

base::Status EventRecorder::WriteRepeat(const Event& event) {
  const nlohmann::json patch = {{"count", event.count}, {"lastTimestamp", event.last_timestamp}};
  base::Status patched = api_.Patch(event.metadata.namespace_, event.metadata.name, patch.dump());
  if (!patched.ok() && IsNotFound(patched.error())) return api_.Create(event);
  return patched;
}

}  // namespace kube
