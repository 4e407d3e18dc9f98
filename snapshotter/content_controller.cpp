#include "snapshotter/content_controller.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/log.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer.h"
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

// Turns informer events into names on the queue (docs/snapshots.md §3.3).
template <class Kind>
class ContentControllerOf<Kind>::ContentChanges final : public kube::EventHandler<Content> {
 public:
  using Ptr = typename kube::EventHandler<Content>::Ptr;

  explicit ContentChanges(ContentControllerOf& controller) : controller_(controller) {}

  void OnAdd(const Ptr& content) override { Enqueue(*content, snapshot::ContentLane(*content)); }

  void OnUpdate(const Ptr& old_content, const Ptr& new_content) override {
    if (!ShouldEnqueueContentUpdate(*old_content, *new_content)) {
      LOG_V(4, "Ignoring content change, only the sidecar's own fields changed")
          .With(KindOf<Content>(), new_content->metadata.name);
      return;
    }
    Enqueue(*new_content, snapshot::ContentLane(*new_content));
  }

  // The sync finds it gone and forgets its cadences.
  void OnDelete(const Ptr& content) override { Enqueue(*content, kube::WorkQueue::Lane::kNormal); }

 private:
  void Enqueue(const Content& content, kube::WorkQueue::Lane lane) {
    // Other drivers' contents never reach the queue; the class may still be
    // unknown here, so the sync checks again.
    if (!controller_.IsOurs(content)) return;
    LOG_V(5, "Enqueued content for sync").With(KindOf<Content>(), content.metadata.name);
    controller_.workers_.queue().Add(content.metadata.name, lane);
  }

  ContentControllerOf& controller_;
};

template <class Kind>
ContentControllerOf<Kind>::ContentControllerOf(std::string driver_name,
                                               ContentHandlerOf<Content>& handler,
                                               kube::Store<Content>& contents,
                                               kube::Store<Class>& classes,
                                               ContentControllerOptions options, base::Clock& clock,
                                               kube::WorkQueueMetrics* queue_metrics)
    : driver_name_(std::move(driver_name)),
      handler_(handler),
      contents_(contents),
      classes_(classes),
      options_(options),
      clock_(clock),
      readiness_(options.retry_interval_start,
                 std::min(kReadinessPollCap, options.retry_interval_max)),
      workers_(
          {.queue_name = std::string(kQueueName),
           .kind = std::string(KindOf<Content>()),
           .workers = options.worker_threads,
           .retry_start = options.retry_interval_start,
           .retry_max = options.retry_interval_max,
           .metrics = queue_metrics},
          clock, [this](const std::string& name) { return SyncContent(name); },
          [this](const std::string& name) { return LaneOf(name); }) {}

template <class Kind>
void ContentControllerOf<Kind>::Run(kube::ListerWatcher<Content>& contents,
                                    kube::ListerWatcher<Class>& classes, std::stop_token stop) {
  ContentChanges changes(*this);
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options_.resync_period;
  // Declared before the workers run, so they stop after the workers drained.
  kube::Informer<Content> content_informer(contents, contents_, reflector_options, clock_);
  // Classes are only read from their store; upstream has no handler for them.
  kube::Informer<Class> class_informer(classes, classes_, reflector_options, clock_);
  content_informer.AddEventHandler(changes);
  content_informer.Start();
  class_informer.Start();
  if (!kube::WaitForCacheSync(stop, content_informer, class_informer)) return;
  LOG_INFO("Caches synced, starting workers")
      .With("queue", kQueueName)
      .With("workers", options_.worker_threads);
  workers_.Run(stop);
}

template <class Kind>
base::Status ContentControllerOf<Kind>::SyncContent(const std::string& name) {
  std::shared_ptr<const Content> content = contents_.GetByKey(name);
  if (!content) {
    LOG_V(4, "Content deleted, ignoring").With(KindOf<Content>(), name);
    readiness_.Forget(name);
    return {};
  }
  if (!IsOurs(*content)) {
    LOG_V(4, "Skipping content of another driver")
        .With(KindOf<Content>(), name)
        .With("driver", std::string_view(content->spec.driver));
    readiness_.Forget(name);
    return {};
  }
  base::Result<SyncOutcome> outcome = handler_.SyncContent(*content);
  if (!outcome.ok()) return outcome.error();
  switch (*outcome) {
    case SyncOutcome::kDone:
      readiness_.Forget(name);
      break;
    case SyncOutcome::kPollReadiness:
      workers_.queue().AddAfter(name, readiness_.When(name), snapshot::ContentLane(*content));
      break;
  }
  return {};
}

template <class Kind>
bool ContentControllerOf<Kind>::IsOurs(const Content& content) const {
  std::shared_ptr<const Class> content_class;
  if (const auto& class_name = ClassNameOf(content)) {
    content_class = classes_.GetByKey(*class_name);
  }
  return IsDriverMatch(content, driver_name_, content_class.get());
}

template <class Kind>
kube::WorkQueue::Lane ContentControllerOf<Kind>::LaneOf(const std::string& name) const {
  std::shared_ptr<const Content> content = contents_.GetByKey(name);
  return content ? snapshot::ContentLane(*content) : kube::WorkQueue::Lane::kNormal;
}

template class ContentControllerOf<SnapshotContentKind>;
template class ContentControllerOf<GroupContentKind>;

}  // namespace snapshotter
