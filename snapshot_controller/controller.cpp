#include "snapshot_controller/controller.h"

#include <optional>
#include <thread>
#include <utility>

#include "base/log.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer.h"
#include "snapshot_controller/event_filters.h"

namespace snapshot_controller {

using kube::VolumeSnapshot;
using kube::VolumeSnapshotContent;
using Lane = kube::WorkQueue::Lane;

// Turns VolumeSnapshot events into keys on the snapshot queue (docs/snapshots.md §4.2).
class Controller::SnapshotChanges final : public kube::EventHandler<VolumeSnapshot> {
 public:
  explicit SnapshotChanges(Controller& controller) : controller_(controller) {}

  void OnAdd(const Ptr& snapshot) override { Enqueue(*snapshot); }

  void OnUpdate(const Ptr& old_snapshot, const Ptr& new_snapshot) override {
    if (!ShouldSyncSnapshotUpdate(*old_snapshot, *new_snapshot)) {
      LOG_V(4, "Ignoring VolumeSnapshot change, only the controller's own fields changed")
          .With("VolumeSnapshot", kube::Store<VolumeSnapshot>::KeyOf(*new_snapshot));
      return;
    }
    Enqueue(*new_snapshot);
  }

  void OnDelete(const Ptr& snapshot) override { controller_.RememberDeleted(snapshot); }

 private:
  void Enqueue(const VolumeSnapshot& snapshot) {
    const std::string key = kube::Store<VolumeSnapshot>::KeyOf(snapshot);
    LOG_V(5, "Enqueued VolumeSnapshot for sync").With("VolumeSnapshot", key);
    controller_.snapshot_workers_.queue().Add(key, SnapshotLane(snapshot));
  }

  Controller& controller_;
};

// Turns content events into names on the content queue, and a deleted
// content into its VolumeSnapshot's key (docs/snapshots.md §4.2).
class Controller::ContentChanges final : public kube::EventHandler<VolumeSnapshotContent> {
 public:
  explicit ContentChanges(Controller& controller) : controller_(controller) {}

  void OnAdd(const Ptr& content) override { Enqueue(*content); }

  void OnUpdate(const Ptr& old_content, const Ptr& new_content) override {
    if (!ShouldSyncContentUpdate(*old_content, *new_content)) {
      LOG_V(4, "Ignoring VolumeSnapshotContent change, only the controller's own fields changed")
          .With("VolumeSnapshotContent", new_content->metadata.name);
      return;
    }
    Enqueue(*new_content);
  }

  // Nothing is left to sync of the content itself; its VolumeSnapshot may be
  // waiting for it to go (§4.5 step 6).
  void OnDelete(const Ptr& content) override {
    std::optional<std::string> snapshot_key = SnapshotKeyOf(*content);
    if (!snapshot_key) return;
    LOG_V(5, "VolumeSnapshotContent deleted, scheduling sync of its VolumeSnapshot")
        .With("VolumeSnapshotContent", content->metadata.name)
        .With("VolumeSnapshot", *snapshot_key);
    controller_.QueueSnapshot(*snapshot_key);
  }

 private:
  void Enqueue(const VolumeSnapshotContent& content) {
    LOG_V(5, "Enqueued VolumeSnapshotContent for sync")
        .With("VolumeSnapshotContent", content.metadata.name);
    controller_.content_workers_.queue().Add(content.metadata.name, ContentLane(content));
  }

  Controller& controller_;
};

Controller::Controller(ControllerHandler& handler, ControllerStores& stores,
                       ControllerOptions options, base::Clock& clock)
    : handler_(handler),
      stores_(stores),
      options_(options),
      clock_(clock),
      snapshot_workers_(
          {.queue_name = std::string(kSnapshotQueueName),
           .kind = "VolumeSnapshot",
           .workers = options.worker_threads,
           .retry_start = options.retry_interval_start,
           .retry_max = options.retry_interval_max},
          clock, [this](const std::string& key) { return SyncSnapshot(key); },
          [this](const std::string& key) { return SnapshotLaneOf(key); }),
      content_workers_(
          {.queue_name = std::string(kContentQueueName),
           .kind = "VolumeSnapshotContent",
           .workers = options.worker_threads,
           .retry_start = options.retry_interval_start,
           .retry_max = options.retry_interval_max},
          clock, [this](const std::string& name) { return SyncContent(name); },
          [this](const std::string& name) { return ContentLaneOf(name); }) {}

void Controller::Run(const ControllerSources& sources, std::stop_token stop) {
  SnapshotChanges snapshot_changes(*this);
  ContentChanges content_changes(*this);
  kube::ReflectorOptions with_resync;
  with_resync.resync_period = options_.resync_period;
  // The other kinds are only read from their stores: nothing to resync.
  const kube::ReflectorOptions read_only;
  // Declared before the workers run, so they stop after the workers drained.
  kube::Informer<VolumeSnapshot> snapshots(sources.snapshots, stores_.snapshots, with_resync,
                                           clock_);
  kube::Informer<VolumeSnapshotContent> contents(sources.contents, stores_.contents, with_resync,
                                                 clock_);
  kube::Informer<kube::VolumeSnapshotClass> classes(sources.classes, stores_.classes, read_only,
                                                    clock_);
  kube::Informer<kube::PersistentVolumeClaim> claims(sources.claims, stores_.claims, read_only,
                                                     clock_);
  kube::Informer<kube::PersistentVolume> volumes(sources.volumes, stores_.volumes, read_only,
                                                 clock_);
  std::optional<kube::Informer<kube::Node>> nodes;
  if (sources.nodes) nodes.emplace(*sources.nodes, stores_.nodes, read_only, clock_);
  snapshots.AddEventHandler(snapshot_changes);
  contents.AddEventHandler(content_changes);
  snapshots.Start();
  contents.Start();
  classes.Start();
  claims.Start();
  volumes.Start();
  if (nodes) nodes->Start();
  if (!kube::WaitForCacheSync(stop, snapshots, contents, classes, claims, volumes)) return;
  if (nodes && !kube::WaitForCacheSync(stop, *nodes)) return;
  LOG_INFO("Caches synced, starting workers").With("workers", options_.worker_threads);
  // Both pools watch `stop`; each shuts its queue the moment it is requested.
  std::jthread content_workers([this, stop] { content_workers_.Run(stop); });
  snapshot_workers_.Run(stop);
}

base::Status Controller::SyncSnapshot(const std::string& key) {
  for (const SnapshotPtr& gone : TakeDeleted(key)) {
    LOG_V(4, "VolumeSnapshot deleted").With("VolumeSnapshot", key);
    handler_.SnapshotDeleted(*gone);
    // Its content need not wait for the resync to learn it (§4.2).
    if (std::optional<std::string> content = BoundContentOf(*gone)) QueueContent(*content);
  }
  SnapshotPtr snapshot = stores_.snapshots.GetByKey(key);
  if (!snapshot) {
    LOG_V(4, "VolumeSnapshot not in the cache, nothing to sync").With("VolumeSnapshot", key);
    return {};
  }
  return handler_.SyncSnapshot(*snapshot);
}

base::Status Controller::SyncContent(const std::string& name) {
  std::shared_ptr<const VolumeSnapshotContent> content = stores_.contents.GetByKey(name);
  if (!content) {
    LOG_V(4, "VolumeSnapshotContent not in the cache, nothing to sync")
        .With("VolumeSnapshotContent", name);
    return {};
  }
  base::Result<ContentSyncOutcome> outcome = handler_.SyncContent(*content);
  if (!outcome.ok()) return outcome.error();
  if (*outcome == ContentSyncOutcome::kSyncSnapshot) {
    if (std::optional<std::string> snapshot_key = SnapshotKeyOf(*content)) {
      LOG_V(4, "VolumeSnapshot status lags its content's, scheduling its sync")
          .With("VolumeSnapshotContent", name)
          .With("VolumeSnapshot", *snapshot_key);
      // Its status must catch up: that is action, whatever it says now.
      snapshot_workers_.queue().Add(*snapshot_key, Lane::kUrgent);
    }
  }
  return {};
}

void Controller::QueueSnapshot(const std::string& key) {
  snapshot_workers_.queue().Add(key, SnapshotLaneOf(key));
}

void Controller::QueueContent(const std::string& name) {
  content_workers_.queue().Add(name, ContentLaneOf(name));
}

Lane Controller::SnapshotLaneOf(const std::string& key) const {
  SnapshotPtr snapshot = stores_.snapshots.GetByKey(key);
  return snapshot ? SnapshotLane(*snapshot) : Lane::kNormal;
}

Lane Controller::ContentLaneOf(const std::string& name) const {
  std::shared_ptr<const VolumeSnapshotContent> content = stores_.contents.GetByKey(name);
  return content ? ContentLane(*content) : Lane::kNormal;
}

void Controller::RememberDeleted(SnapshotPtr snapshot) {
  std::string key = kube::Store<VolumeSnapshot>::KeyOf(*snapshot);
  {
    std::lock_guard lock(deleted_mu_);
    deleted_[key].push_back(std::move(snapshot));
  }
  LOG_V(5, "Enqueued deleted VolumeSnapshot").With("VolumeSnapshot", key);
  // A deletion is action: the metrics end its operation, its content syncs.
  snapshot_workers_.queue().Add(key, Lane::kUrgent);
}

std::vector<Controller::SnapshotPtr> Controller::TakeDeleted(const std::string& key) {
  std::lock_guard lock(deleted_mu_);
  auto it = deleted_.find(key);
  if (it == deleted_.end()) return {};
  std::vector<SnapshotPtr> gone = std::move(it->second);
  deleted_.erase(it);
  return gone;
}

}  // namespace snapshot_controller
