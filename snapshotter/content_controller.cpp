#include "snapshotter/content_controller.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/log.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer.h"
#include "snapshotter/content_event_filters.h"

namespace snapshotter {

using kube::VolumeSnapshotClass;
using kube::VolumeSnapshotContent;

// Turns informer events into names on the queue (docs/snapshots.md §3.3).
class ContentController::ContentChanges final : public kube::EventHandler<VolumeSnapshotContent> {
 public:
  explicit ContentChanges(ContentController& controller) : controller_(controller) {}

  void OnAdd(const Ptr& content) override { Enqueue(*content, ContentLane(*content)); }

  void OnUpdate(const Ptr& old_content, const Ptr& new_content) override {
    if (!ShouldEnqueueContentUpdate(*old_content, *new_content)) {
      LOG_V(4, "Ignoring VolumeSnapshotContent change, only the sidecar's own fields changed")
          .With("VolumeSnapshotContent", new_content->metadata.name);
      return;
    }
    Enqueue(*new_content, ContentLane(*new_content));
  }

  // The sync finds it gone and forgets its cadences.
  void OnDelete(const Ptr& content) override { Enqueue(*content, kube::WorkQueue::Lane::kNormal); }

 private:
  void Enqueue(const VolumeSnapshotContent& content, kube::WorkQueue::Lane lane) {
    // Other drivers' contents never reach the queue; the class may still be
    // unknown here, so the sync checks again.
    if (!controller_.IsOurs(content)) return;
    LOG_V(5, "Enqueued VolumeSnapshotContent for sync")
        .With("VolumeSnapshotContent", content.metadata.name);
    controller_.workers_.queue().Add(content.metadata.name, lane);
  }

  ContentController& controller_;
};

ContentController::ContentController(std::string driver_name, ContentHandler& handler,
                                     kube::Store<VolumeSnapshotContent>& contents,
                                     kube::Store<VolumeSnapshotClass>& classes,
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
           .kind = "VolumeSnapshotContent",
           .workers = options.worker_threads,
           .retry_start = options.retry_interval_start,
           .retry_max = options.retry_interval_max,
           .metrics = queue_metrics},
          clock, [this](const std::string& name) { return SyncContent(name); },
          [this](const std::string& name) { return LaneOf(name); }) {}

void ContentController::Run(kube::ListerWatcher<VolumeSnapshotContent>& contents,
                            kube::ListerWatcher<VolumeSnapshotClass>& classes,
                            std::stop_token stop) {
  ContentChanges changes(*this);
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options_.resync_period;
  // Declared before the workers run, so they stop after the workers drained.
  kube::Informer<VolumeSnapshotContent> content_informer(contents, contents_, reflector_options,
                                                         clock_);
  // Classes are only read from their store; upstream has no handler for them.
  kube::Informer<VolumeSnapshotClass> class_informer(classes, classes_, reflector_options, clock_);
  content_informer.AddEventHandler(changes);
  content_informer.Start();
  class_informer.Start();
  if (!kube::WaitForCacheSync(stop, content_informer, class_informer)) return;
  LOG_INFO("Caches synced, starting workers").With("workers", options_.worker_threads);
  workers_.Run(stop);
}

base::Status ContentController::SyncContent(const std::string& name) {
  std::shared_ptr<const VolumeSnapshotContent> content = contents_.GetByKey(name);
  if (!content) {
    LOG_V(4, "VolumeSnapshotContent deleted, ignoring").With("VolumeSnapshotContent", name);
    readiness_.Forget(name);
    return {};
  }
  if (!IsOurs(*content)) {
    LOG_V(4, "Skipping VolumeSnapshotContent of another driver")
        .With("VolumeSnapshotContent", name)
        .With("driver", content->spec.driver);
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
      workers_.queue().AddAfter(name, readiness_.When(name), ContentLane(*content));
      break;
  }
  return {};
}

bool ContentController::IsOurs(const VolumeSnapshotContent& content) const {
  std::shared_ptr<const VolumeSnapshotClass> content_class;
  if (const auto& class_name = content.spec.volume_snapshot_class_name) {
    content_class = classes_.GetByKey(*class_name);
  }
  return IsDriverMatch(content, driver_name_, content_class.get());
}

kube::WorkQueue::Lane ContentController::LaneOf(const std::string& name) const {
  std::shared_ptr<const VolumeSnapshotContent> content = contents_.GetByKey(name);
  return content ? ContentLane(*content) : kube::WorkQueue::Lane::kNormal;
}

}  // namespace snapshotter
