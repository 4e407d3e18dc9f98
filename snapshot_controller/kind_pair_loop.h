// KindPairLoop<Kinds>: the two controllers of one pair of kinds, a snapshot
// kind and its content kind (docs/snapshots.md §4.2), on the generic runtime
// (kube/runtime/controller.h): VolumeSnapshot with VolumeSnapshotContent,
// and VolumeGroupSnapshot with VolumeGroupSnapshotContent (§4.7), which the
// controller handles alike. `Kinds` (kind_pairs.h) names the two kinds, the
// handler and the queue names; the event filters of each pair are overloads
// (event_filters.h, group_event_filters.h).
//
// Two queues, each with worker_threads workers once Run() starts them:
//   - the snapshot queue, keys "namespace/name": every snapshot add, update
//     that counts (ShouldSyncSnapshotUpdate, §9.3) and resync; a content
//     deleted from the API queues the snapshot its ref names; a content sync
//     answering kSyncSnapshot queues that snapshot;
//   - the content queue, keys the content's name: every content add, update
//     that counts (ShouldSyncContentUpdate) and resync; a snapshot deleted
//     from the API queues the content it was bound to.
// Neither queue takes the events of its own controller's writes. A worker
// hands the object as the store holds it when the sync starts to the
// handler; a key whose object is gone from the store is not synced. A
// snapshot deleted from the API goes through its queue too, so the handler's
// deletion call never runs alongside a sync of the same key: the worker calls
// the handler's SnapshotDeleted with the last known object, then `gone` (the
// caller's, may be empty), queues the bound content, then syncs whatever the
// store holds under the key now (one created again under the same name). An
// error retries the key after the error backoff, retry_interval_start
// doubling up to retry_interval_max; success forgets it. Objects that need
// action take the urgent lane (SnapshotLane, ContentLane, §9.5).
//
// Thread-safety: Run once; the queues from any thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
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
  // Called by the worker for each snapshot deleted from the API, after the handler.
  using Gone = std::function<void(const Snapshot&)>;

  // `handler` and `informers` must outlive the loop.
  KindPairLoop(Handler& handler, kube::InformerSet& informers, const ControllerOptions& options,
               base::Clock& clock, Gone gone = {})
      : handler_(handler),
        gone_(std::move(gone)),
        snapshots_(
            informers, QueueOptions(Kinds::kSnapshotQueueName, options), SnapshotRules(),
            [this](const std::string& key, const std::shared_ptr<const Snapshot>& snapshot) {
              return SyncSnapshot(key, snapshot);
            },
            clock),
        contents_(
            informers, QueueOptions(Kinds::kContentQueueName, options), ContentRules(),
            [this](const std::string& name, const std::shared_ptr<const Content>& content) {
              return SyncContent(name, content);
            },
            clock) {
    // A deleted content's snapshot may be waiting for it to go.
    snapshots_.template Watches<Content>([](const kube::Change<Content>& change) {
      std::vector<std::string> keys;
      if (change.type != kube::Change<Content>::Type::kDeleted) return keys;
      if (std::optional<std::string> snapshot_key = SnapshotKeyOf(change.object)) {
        LOG_V(5, "Content deleted, scheduling sync of its snapshot")
            .With(Content::kFacts.kind, change.object.metadata.name)
            .With(Snapshot::kFacts.kind, *snapshot_key);
        keys.push_back(std::move(*snapshot_key));
      }
      return keys;
    });
  }

  // The workers of both queues wait for the store of S too.
  template <class S>
  void AlsoWaitFor() {
    snapshots_.template Reads<S>();
    contents_.template Reads<S>();
  }

  // Runs the workers of both queues until `stop`; in-flight syncs finish.
  // Both stop taking work the moment it is requested.
  void Run(std::stop_token stop) {
    std::jthread content_workers([this, stop] { contents_.Run(stop); });
    snapshots_.Run(stop);
  }

  // Each change of an S also queues the snapshots `map` names (while building).
  template <class S>
  void QueueSnapshotsOn(std::function<std::vector<std::string>(const kube::Change<S>&)> map) {
    snapshots_.template Watches<S>(std::move(map));
  }

  const kube::WorkQueue& snapshot_queue() const { return snapshots_.queue(); }
  const kube::WorkQueue& content_queue() const { return contents_.queue(); }

  // Queues a snapshot key in the lane its stored object needs.
  void QueueSnapshot(const std::string& key) { snapshots_.Enqueue(key); }

 private:
  static kube::ControllerOptions QueueOptions(std::string_view queue,
                                              const ControllerOptions& options) {
    return {.name = std::string(queue),
            .workers = options.worker_threads,
            .retry_start = options.retry_interval_start,
            .retry_max = options.retry_interval_max};
  }

  kube::PrimaryRules<Snapshot> SnapshotRules() {
    return {.update_needs_sync =
                [](const Snapshot& old_snapshot, const Snapshot& new_snapshot) {
                  return ShouldSyncSnapshotUpdate(old_snapshot, new_snapshot);
                },
            .lane = [](const Snapshot& snapshot) { return SnapshotLane(snapshot); },
            // A deletion is action: the metrics end its operation, its content syncs.
            .on_delete =
                [this](const std::shared_ptr<const Snapshot>& snapshot) -> std::optional<Lane> {
              const std::string key = deleted_.Remember(snapshot);
              LOG_V(5, "Enqueued deleted object").With(Snapshot::kFacts.kind, key);
              return Lane::kUrgent;
            }};
  }

  static kube::PrimaryRules<Content> ContentRules() {
    return {.update_needs_sync =
                [](const Content& old_content, const Content& new_content) {
                  return ShouldSyncContentUpdate(old_content, new_content);
                },
            .lane = [](const Content& content) { return ContentLane(content); },
            // Its snapshot learns of it (the Watches above); the content has
            // nothing left to sync.
            .on_delete = [](const auto&) { return std::nullopt; }};
  }

  kube::ReconcileResult SyncSnapshot(const std::string& key,
                                     const std::shared_ptr<const Snapshot>& snapshot) {
    for (const auto& gone : deleted_.Take(key)) {
      LOG_V(4, "Deleted from the API").With(Snapshot::kFacts.kind, key);
      handler_.SnapshotDeleted(*gone);
      if (gone_) gone_(*gone);
      // Its content need not wait for the resync to learn it (§4.2).
      if (std::optional<std::string> content = BoundContentOf(*gone)) contents_.Enqueue(*content);
    }
    if (!snapshot) {
      LOG_V(4, "Not in the cache, nothing to sync").With(Snapshot::kFacts.kind, key);
      return kube::Action::Done();
    }
    return kube::DoneOr(handler_.SyncSnapshot(*snapshot));
  }

  kube::ReconcileResult SyncContent(const std::string& name,
                                    const std::shared_ptr<const Content>& content) {
    if (!content) {
      LOG_V(4, "Not in the cache, nothing to sync").With(Content::kFacts.kind, name);
      return kube::Action::Done();
    }
    base::Result<ContentSyncOutcome> outcome = handler_.SyncContent(*content);
    if (!outcome.ok()) return outcome.error();
    if (*outcome == ContentSyncOutcome::kSyncSnapshot) {
      if (std::optional<std::string> snapshot_key = SnapshotKeyOf(*content)) {
        LOG_V(4, "Snapshot status lags its content's, scheduling its sync")
            .With(Content::kFacts.kind, name)
            .With(Snapshot::kFacts.kind, *snapshot_key);
        // Its status must catch up: that is action, whatever it says now.
        snapshots_.Enqueue(*snapshot_key, Lane::kUrgent);
      }
    }
    return kube::Action::Done();
  }

  Handler& handler_;
  const Gone gone_;
  DeletedObjects<Snapshot> deleted_;
  kube::Controller<Snapshot> snapshots_;
  kube::Controller<Content> contents_;
};

}  // namespace snapshot_controller
