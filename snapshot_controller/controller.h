// Controller: the snapshot-controller's informers, its two work queues and
// their workers (docs/snapshots.md §4.2), composed from kube::Informer and
// kube::WorkerPool; what is its own is which events queue what, in which lane.
//
// Run() keeps the stores current (VolumeSnapshots, contents, classes,
// PersistentVolumeClaims, PersistentVolumes, and Nodes when a Node source is
// given) and feeds two queues, each with worker_threads workers:
//   - "snapshot-controller-snapshot", keys "namespace/name": every
//     VolumeSnapshot add, update that counts (ShouldSyncSnapshotUpdate, §9.3)
//     and resync; a content deleted from the API queues the VolumeSnapshot its
//     volumeSnapshotRef names; a content sync answering kSyncSnapshot queues
//     the content's VolumeSnapshot;
//   - "snapshot-controller-content", keys the content's name: every content
//     add, update that counts (ShouldSyncContentUpdate) and resync; a
//     VolumeSnapshot deleted from the API queues the content it was bound to.
// A worker hands the object as the store holds it when the sync starts to the
// ControllerHandler; a key whose object is gone from the store is not synced.
// A VolumeSnapshot deleted from the API goes through its queue too, so the
// handler's SnapshotDeleted never runs alongside a sync of the same key: the
// worker calls SnapshotDeleted with the last known object, then queues its
// bound content, then syncs whatever the store holds under the key now (a
// VolumeSnapshot created again under the same name).
// An error retries the key after the error backoff, retry_interval_start
// doubling up to retry_interval_max; success forgets it. Objects that need
// action take the urgent lane (SnapshotLane, ContentLane, §9.5). The queues
// have no workqueue metrics (upstream's controller exports none, §4.6).
//
// Thread-safety: Run() may be called once (the queues cannot restart after
// stop); the queue accessors from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "kube/runtime/worker_pool.h"
#include "snapshot_controller/controller_handler.h"

namespace snapshot_controller {

struct ControllerOptions {
  uint32_t worker_threads = 10;                          // --worker-threads, per queue
  std::chrono::milliseconds retry_interval_start{1000};  // --retry-interval-start
  std::chrono::milliseconds retry_interval_max{300000};  // --retry-interval-max
  std::chrono::milliseconds resync_period{900000};       // --resync-period; 0 = never
};

// The caches the Controller keeps current. They are the caller's, so the
// handler reads the very stores (Caches) the informers fill.
struct ControllerStores {
  kube::Store<kube::VolumeSnapshot> snapshots;
  kube::Store<kube::VolumeSnapshotContent> contents;
  kube::Store<kube::VolumeSnapshotClass> classes;
  kube::Store<kube::PersistentVolumeClaim> claims;
  kube::Store<kube::PersistentVolume> volumes;
  kube::Store<kube::Node> nodes;  // filled only when ControllerSources::nodes is set
};

// Where the informers list and watch; each must outlive Run().
struct ControllerSources {
  kube::ListerWatcher<kube::VolumeSnapshot>& snapshots;
  kube::ListerWatcher<kube::VolumeSnapshotContent>& contents;
  kube::ListerWatcher<kube::VolumeSnapshotClass>& classes;
  kube::ListerWatcher<kube::PersistentVolumeClaim>& claims;
  kube::ListerWatcher<kube::PersistentVolume>& volumes;
  // With distributed snapshotting only: dynamic contents name the node of
  // their volume (§4.3 createSnapshotContent step 3).
  kube::ListerWatcher<kube::Node>* nodes = nullptr;
};

class Controller {
 public:
  static constexpr std::string_view kSnapshotQueueName = "snapshot-controller-snapshot";
  static constexpr std::string_view kContentQueueName = "snapshot-controller-content";

  // `handler` and `stores` must outlive the controller.
  Controller(ControllerHandler& handler, ControllerStores& stores, ControllerOptions options,
             base::Clock& clock);

  // Blocks until `stop` is requested. Starts one reflector per kind, waits
  // until every store holds a complete list, then starts the workers of both
  // queues. On stop: neither queue takes new work, in-flight syncs finish,
  // the reflectors stop, Run returns.
  void Run(const ControllerSources& sources, std::stop_token stop);

  const kube::WorkQueue& snapshot_queue() const { return snapshot_workers_.queue(); }
  const kube::WorkQueue& content_queue() const { return content_workers_.queue(); }

 private:
  class SnapshotChanges;
  class ContentChanges;
  using SnapshotPtr = std::shared_ptr<const kube::VolumeSnapshot>;

  base::Status SyncSnapshot(const std::string& key);
  base::Status SyncContent(const std::string& name);
  // Queue a key in the lane its stored object needs; normal once it is gone.
  void QueueSnapshot(const std::string& key);
  void QueueContent(const std::string& name);
  kube::WorkQueue::Lane SnapshotLaneOf(const std::string& key) const;
  kube::WorkQueue::Lane ContentLaneOf(const std::string& name) const;
  // A VolumeSnapshot deleted from the API, for its key's next sync.
  void RememberDeleted(SnapshotPtr snapshot);
  std::vector<SnapshotPtr> TakeDeleted(const std::string& key);

  ControllerHandler& handler_;
  ControllerStores& stores_;
  const ControllerOptions options_;
  base::Clock& clock_;
  std::mutex deleted_mu_;  // guards deleted_
  // VolumeSnapshots deleted from the API whose key has not synced since, in
  // the order they went.
  std::unordered_map<std::string, std::vector<SnapshotPtr>> deleted_;
  kube::WorkerPool snapshot_workers_;
  kube::WorkerPool content_workers_;
};

}  // namespace snapshot_controller
