#include "snapshotter/content_controller.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/log.h"
#include "snapshot/content_lane.h"
#include "snapshotter/content_event_filters.h"
#include "snapshotter/content_state.h"

namespace snapshotter {
namespace {

template <class Content>
constexpr std::string_view KindOf() {
  return Content::kFacts.kind;
}

}  // namespace

template <class Kind>
ContentControllerOf<Kind>::ContentControllerOf(std::string driver_name,
                                               ContentHandlerOf<Content>& handler,
                                               kube::InformerSet& informers,
                                               ContentControllerOptions options, base::Clock& clock,
                                               kube::WorkQueueMetrics* queue_metrics,
                                               std::string_view label_selector)
    : driver_name_(std::move(driver_name)),
      handler_(handler),
      classes_(informers.StoreOf<Class>()),
      controller_(
          informers,
          {.name = std::string(kQueueName),
           .workers = options.worker_threads,
           .retry_start = options.retry_interval_start,
           .retry_max = options.retry_interval_max,
           .requeue_start = options.retry_interval_start,
           .requeue_max = std::min(kReadinessPollCap, options.retry_interval_max),
           .metrics = queue_metrics},
          // Other drivers' contents never reach the queue; the class may
          // still be unknown then, so the sync checks again.
          {.admits = [this](const Content& content) { return IsOurs(content); },
           .update_needs_sync =
               [](const Content& old_content, const Content& new_content) {
                 return ShouldEnqueueContentUpdate(old_content, new_content);
               },
           .lane = [](const Content& content) { return snapshot::ContentLane(content); }},
          [this](const std::string& name, const std::shared_ptr<const Content>& content) {
            return SyncContent(name, content);
          },
          clock, label_selector) {
  // Classes are only read; upstream has no handler for them.
  controller_.template Reads<Class>();
}

template <class Kind>
kube::ReconcileResult ContentControllerOf<Kind>::SyncContent(
    const std::string& name, const std::shared_ptr<const Content>& content) {
  if (!content) {
    LOG_V(4, "Content deleted, ignoring").With(KindOf<Content>(), name);
    return kube::Action::Done();
  }
  if (!IsOurs(*content)) {
    LOG_V(4, "Skipping content of another driver")
        .With(KindOf<Content>(), name)
        .With("driver", std::string_view(content->spec.driver));
    return kube::Action::Done();
  }
  base::Result<SyncOutcome> outcome = handler_.SyncContent(*content);
  if (!outcome.ok()) return outcome.error();
  switch (*outcome) {
    case SyncOutcome::kDone:
      break;
    case SyncOutcome::kPollReadiness:
      return kube::Action::RequeueWithBackoff();
  }
  return kube::Action::Done();
}

template <class Kind>
bool ContentControllerOf<Kind>::IsOurs(const Content& content) const {
  std::shared_ptr<const Class> content_class;
  if (const auto& class_name = ClassNameOf(content)) {
    content_class = classes_.GetByKey(*class_name);
  }
  return IsDriverMatch(content, driver_name_, content_class.get());
}

template class ContentControllerOf<SnapshotContentKind>;
template class ContentControllerOf<GroupContentKind>;

}  // namespace snapshotter
