// KindPairLoop<Kinds>: the informers, the two work queues and their workers
// for one pair of kinds, a snapshot kind and its content kind
// (docs/snapshots.md §4.2): VolumeSnapshot with VolumeSnapshotContent, and
// VolumeGroupSnapshot with VolumeGroupSnapshotContent (§4.7), which the
// controller handles alike. `Kinds` (kind_pairs.h) names the two kinds, the
// handler and the queue names; the event filters of each pair are overloads
// (event_filters.h, group_event_filters.h).
//
// StartInformers() keeps both stores current and feeds two queues, each with
// worker_threads workers once RunWorkers() starts them:
//   - the snapshot queue, keys "namespace/name": every snapshot add, update
//     that counts (ShouldSyncSnapshotUpdate, §9.3) and resync; a
//     content deleted from the API queues the snapshot its ref names; a
//     content sync answering kSyncSnapshot queues that snapshot;
//   - the content queue, keys the content's name: every content add, update
//     that counts (ShouldSyncContentUpdate) and resync; a snapshot
//     deleted from the API queues the content it was bound to.
// A worker hands the object as the store holds it when the sync starts to
// the handler; a key whose object is gone from the store is not synced. A
// snapshot deleted from the API goes through its queue too, so the
// handler's deletion call never runs alongside a sync of the same key: the
// worker calls the handler's SnapshotDeleted with the last known object, then `gone` (the
// caller's, may be empty), queues the bound content, then syncs whatever the
// store holds under the key now (one created again under the same name).
// An error retries the key after the error backoff, retry_interval_start
// doubling up to retry_interval_max; success forgets it. Objects that need
// action take the urgent lane (SnapshotLane, ContentLane, §9.5).
//
// Thread-safety: StartInformers and RunWorkers once each; the queues from any
// thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>

#include "base/clock.h"
#include "base/log.h"
#include "base/result.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "kube/runtime/worker_pool.h"
#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/controller_options.h"
#include "snapshot_controller/deleted_objects.h"
#include "snapshot_controller/event_filters.h"
#include "snapshot_controller/group_event_filters.h"

namespace snapshot_controller {

template <class Kinds>
class KindPairLoop {
 public:
  using Snapshot = typename Kinds::Snapshot;
  using Content = typename Kinds::Content;
  using Handler = typename Kinds::Handler;
  using Lane = kube::WorkQueue::Lane;

 private:
  // Turns snapshot events into keys on the snapshot queue.
  class SnapshotChanges final : public kube::EventHandler<Snapshot> {
   public:
    using typename kube::EventHandler<Snapshot>::Ptr;
    explicit SnapshotChanges(KindPairLoop& loop) : loop_(loop) {}

    void OnAdd(const Ptr& snapshot) override { Enqueue(*snapshot); }
    void OnUpdate(const Ptr& old_snapshot, const Ptr& new_snapshot) override {
      if (!ShouldSyncSnapshotUpdate(*old_snapshot, *new_snapshot)) {
        LOG_V(4, Ignoring(Snapshot::kFacts.kind))
            .With(Snapshot::kFacts.kind, kube::Store<Snapshot>::KeyOf(*new_snapshot));
        return;
      }
      Enqueue(*new_snapshot);
    }
    void OnDelete(const Ptr& snapshot) override { loop_.RememberDeleted(snapshot); }

   private:
    void Enqueue(const Snapshot& snapshot) {
      const std::string key = kube::Store<Snapshot>::KeyOf(snapshot);
      LOG_V(5, "Enqueued for sync").With(Snapshot::kFacts.kind, key);
      loop_.snapshot_workers_.queue().Add(key, SnapshotLane(snapshot));
    }
    KindPairLoop& loop_;
  };

  // Turns content events into names on the content queue, and a deleted
  // content into its snapshot's key: that one may be waiting for it to go.
  class ContentChanges final : public kube::EventHandler<Content> {
   public:
    using typename kube::EventHandler<Content>::Ptr;
    explicit ContentChanges(KindPairLoop& loop) : loop_(loop) {}

    void OnAdd(const Ptr& content) override { Enqueue(*content); }
    void OnUpdate(const Ptr& old_content, const Ptr& new_content) override {
      if (!ShouldSyncContentUpdate(*old_content, *new_content)) {
        LOG_V(4, Ignoring(Content::kFacts.kind))
            .With(Content::kFacts.kind, new_content->metadata.name);
        return;
      }
      Enqueue(*new_content);
    }
    void OnDelete(const Ptr& content) override {
      std::optional<std::string> snapshot_key = SnapshotKeyOf(*content);
      if (!snapshot_key) return;
      LOG_V(5, "Content deleted, scheduling sync of its snapshot")
          .With(Content::kFacts.kind, content->metadata.name)
          .With(Snapshot::kFacts.kind, *snapshot_key);
      loop_.QueueSnapshot(*snapshot_key);
    }

   private:
    void Enqueue(const Content& content) {
      LOG_V(5, "Enqueued for sync").With(Content::kFacts.kind, content.metadata.name);
      loop_.content_workers_.queue().Add(content.metadata.name, ContentLane(content));
    }
    KindPairLoop& loop_;
  };

 public:
  // Called by the worker for each snapshot deleted from the API, after the handler.
  using Gone = std::function<void(const Snapshot&)>;

  // `handler` and the stores must outlive the loop.
  KindPairLoop(Handler& handler, kube::Store<Snapshot>& snapshots, kube::Store<Content>& contents,
               const ControllerOptions& options, base::Clock& clock, Gone gone = {})
      : handler_(handler),
        snapshots_(snapshots),
        contents_(contents),
        resync_period_(options.resync_period),
        clock_(clock),
        gone_(std::move(gone)),
        snapshot_workers_(
            PoolOptions(Kinds::kSnapshotQueueName, Snapshot::kFacts.kind, options), clock,
            [this](const std::string& key) { return SyncSnapshot(key); },
            [this](const std::string& key) { return SnapshotLaneOf(key); }),
        content_workers_(
            PoolOptions(Kinds::kContentQueueName, Content::kFacts.kind, options), clock,
            [this](const std::string& name) { return SyncContent(name); },
            [this](const std::string& name) { return ContentLaneOf(name); }) {}

  // Both informers and their event handlers, running; destroying it stops
  // them. It must not outlive the loop.
  class Informers {
   public:
    Informers(KindPairLoop& loop, kube::ListerWatcher<Snapshot>& snapshot_source,
              kube::ListerWatcher<Content>& content_source)
        : snapshot_changes_(loop),
          content_changes_(loop),
          snapshots_(snapshot_source, loop.snapshots_, loop.WithResync(), loop.clock_),
          contents_(content_source, loop.contents_, loop.WithResync(), loop.clock_) {
      snapshots_.AddEventHandler(snapshot_changes_);
      contents_.AddEventHandler(content_changes_);
      snapshots_.Start();
      contents_.Start();
    }
    // Blocks until both stores hold a complete list, or `stop`; whether they do.
    bool WaitForCacheSync(std::stop_token stop) const {
      return kube::WaitForCacheSync(stop, snapshots_, contents_);
    }

   private:
    // Before the informers, which call them until they stop.
    SnapshotChanges snapshot_changes_;
    ContentChanges content_changes_;
    kube::Informer<Snapshot> snapshots_;
    kube::Informer<Content> contents_;
  };

  std::unique_ptr<Informers> StartInformers(kube::ListerWatcher<Snapshot>& snapshots,
                                            kube::ListerWatcher<Content>& contents) {
    return std::make_unique<Informers>(*this, snapshots, contents);
  }

  // Runs the workers of both queues until `stop`; in-flight syncs finish.
  // Pools on one stop token all stop taking work the moment it is requested.
  void RunWorkers(std::stop_token stop) {
    std::jthread content_workers([this, stop] { content_workers_.Run(stop); });
    snapshot_workers_.Run(stop);
  }

  const kube::WorkQueue& snapshot_queue() const { return snapshot_workers_.queue(); }
  const kube::WorkQueue& content_queue() const { return content_workers_.queue(); }

  // Queues a snapshot key in the lane its stored object needs.
  void QueueSnapshot(const std::string& key) {
    snapshot_workers_.queue().Add(key, SnapshotLaneOf(key));
  }

 private:
  static std::string Ignoring(std::string_view kind) {
    return "Ignoring " + std::string(kind) + " change, only the controller's own fields changed";
  }
  static kube::WorkerPoolOptions PoolOptions(std::string_view queue, std::string_view kind,
                                             const ControllerOptions& options) {
    return {.queue_name = std::string(queue),
            .kind = std::string(kind),
            .workers = options.worker_threads,
            .retry_start = options.retry_interval_start,
            .retry_max = options.retry_interval_max};
  }
  kube::ReflectorOptions WithResync() const {
    kube::ReflectorOptions options;
    options.resync_period = resync_period_;
    return options;
  }

  base::Status SyncSnapshot(const std::string& key) {
    for (const auto& gone : deleted_.Take(key)) {
      LOG_V(4, "Deleted from the API").With(Snapshot::kFacts.kind, key);
      handler_.SnapshotDeleted(*gone);
      if (gone_) gone_(*gone);
      // Its content need not wait for the resync to learn it (§4.2).
      if (std::optional<std::string> content = BoundContentOf(*gone)) {
        content_workers_.queue().Add(*content, ContentLaneOf(*content));
      }
    }
    std::shared_ptr<const Snapshot> snapshot = snapshots_.GetByKey(key);
    if (!snapshot) {
      LOG_V(4, "Not in the cache, nothing to sync").With(Snapshot::kFacts.kind, key);
      return {};
    }
    return handler_.SyncSnapshot(*snapshot);
  }

  base::Status SyncContent(const std::string& name) {
    std::shared_ptr<const Content> content = contents_.GetByKey(name);
    if (!content) {
      LOG_V(4, "Not in the cache, nothing to sync").With(Content::kFacts.kind, name);
      return {};
    }
    base::Result<ContentSyncOutcome> outcome = handler_.SyncContent(*content);
    if (!outcome.ok()) return outcome.error();
    if (*outcome == ContentSyncOutcome::kSyncSnapshot) {
      if (std::optional<std::string> snapshot_key = SnapshotKeyOf(*content)) {
        LOG_V(4, "Snapshot status lags its content's, scheduling its sync")
            .With(Content::kFacts.kind, name)
            .With(Snapshot::kFacts.kind, *snapshot_key);
        // Its status must catch up: that is action, whatever it says now.
        snapshot_workers_.queue().Add(*snapshot_key, Lane::kUrgent);
      }
    }
    return {};
  }

  Lane SnapshotLaneOf(const std::string& key) const {
    std::shared_ptr<const Snapshot> snapshot = snapshots_.GetByKey(key);
    return snapshot ? SnapshotLane(*snapshot) : Lane::kNormal;
  }
  Lane ContentLaneOf(const std::string& name) const {
    std::shared_ptr<const Content> content = contents_.GetByKey(name);
    return content ? ContentLane(*content) : Lane::kNormal;
  }

  void RememberDeleted(std::shared_ptr<const Snapshot> snapshot) {
    const std::string key = deleted_.Remember(std::move(snapshot));
    LOG_V(5, "Enqueued deleted object").With(Snapshot::kFacts.kind, key);
    // A deletion is action: the metrics end its operation, its content syncs.
    snapshot_workers_.queue().Add(key, Lane::kUrgent);
  }

  Handler& handler_;
  kube::Store<Snapshot>& snapshots_;
  kube::Store<Content>& contents_;
  const std::chrono::milliseconds resync_period_;
  base::Clock& clock_;
  const Gone gone_;
  DeletedObjects<Snapshot> deleted_;
  kube::WorkerPool snapshot_workers_;
  kube::WorkerPool content_workers_;
};

}  // namespace snapshot_controller
