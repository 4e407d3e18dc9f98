// Controller: the snapshot-controller's informers, work queues and workers
// (docs/snapshots.md §4.2), composed from one KindPairLoop per pair of kinds
// and read-only informers for what the handlers only look up.
//
// Run() keeps the stores current - VolumeSnapshots and contents, classes,
// PersistentVolumeClaims, PersistentVolumes, Nodes when a Node source is
// given, and the three group kinds when group sources and a GroupHandler are
// - and runs the queues:
//   - "snapshot-controller-snapshot" and "snapshot-controller-content", the
//     single snapshots' pair, synced by the ControllerHandler;
//   - "snapshot-controller-group-snapshot" and
//     "snapshot-controller-group-content", the groups' pair (§4.7), synced by
//     the GroupHandler; a group snapshot deleted from the API also queues
//     its member VolumeSnapshots, whose deletion waited for it (§4.5 step 3).
// What each queue takes, in which lane, and how errors back off is
// KindPairLoop's. The queues have no workqueue metrics (upstream's
// controller exports none, §4.6). The workers start once every store holds
// a complete list, so no sync sees a group cache that is still filling.
//
// Thread-safety: Run() may be called once (the queues cannot restart after
// stop); the queue accessors from any thread.
#pragma once

#include <optional>
#include <stop_token>
#include <string_view>

#include "base/clock.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/controller_options.h"
#include "snapshot_controller/group_handler.h"
#include "snapshot_controller/kind_pair_loop.h"
#include "snapshot_controller/kind_pairs.h"

namespace snapshot_controller {

// The caches the Controller keeps current. They are the caller's, so the
// handlers read the very stores (Caches) the informers fill.
struct ControllerStores {
  kube::Store<kube::VolumeSnapshot> snapshots;
  kube::Store<kube::VolumeSnapshotContent> contents;
  kube::Store<kube::VolumeSnapshotClass> classes;
  kube::Store<kube::PersistentVolumeClaim> claims;
  kube::Store<kube::PersistentVolume> volumes;
  kube::Store<kube::Node> nodes;  // filled only when ControllerSources::nodes is set
  // Filled only while group snapshots run (ControllerSources::groups set).
  kube::Store<kube::VolumeGroupSnapshot> group_snapshots;
  kube::Store<kube::VolumeGroupSnapshotContent> group_contents;
  kube::Store<kube::VolumeGroupSnapshotClass> group_classes;
};

// Where the group informers list and watch; each must outlive Run().
struct GroupSources {
  kube::ListerWatcher<kube::VolumeGroupSnapshot>& group_snapshots;
  kube::ListerWatcher<kube::VolumeGroupSnapshotContent>& group_contents;
  kube::ListerWatcher<kube::VolumeGroupSnapshotClass>& group_classes;
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
  // While group snapshots run (§4.1); needs the Controller's GroupHandler.
  const GroupSources* groups = nullptr;
};

class Controller {
 public:
  static constexpr std::string_view kSnapshotQueueName = SnapshotKinds::kSnapshotQueueName;
  static constexpr std::string_view kContentQueueName = SnapshotKinds::kContentQueueName;
  static constexpr std::string_view kGroupSnapshotQueueName =
      GroupSnapshotKinds::kSnapshotQueueName;
  static constexpr std::string_view kGroupContentQueueName = GroupSnapshotKinds::kContentQueueName;

  // `handler`, `group_handler` (null: no groups) and `stores` must outlive
  // the controller.
  Controller(ControllerHandler& handler, ControllerStores& stores, ControllerOptions options,
             base::Clock& clock, GroupHandler* group_handler = nullptr);

  // Blocks until `stop` is requested. Starts one reflector per kind, waits
  // until every store holds a complete list, then starts the workers of every
  // queue. On stop: no queue takes new work, in-flight syncs finish, the
  // reflectors stop, Run returns.
  void Run(const ControllerSources& sources, std::stop_token stop);

  const kube::WorkQueue& snapshot_queue() const { return snapshots_.snapshot_queue(); }
  const kube::WorkQueue& content_queue() const { return snapshots_.content_queue(); }
  // Only with a GroupHandler.
  const kube::WorkQueue& group_snapshot_queue() const { return groups_->snapshot_queue(); }
  const kube::WorkQueue& group_content_queue() const { return groups_->content_queue(); }

 private:
  // Queues the members of a group snapshot deleted from the API.
  void QueueMembersOf(const kube::VolumeGroupSnapshot& group);

  ControllerStores& stores_;
  const ControllerOptions options_;
  base::Clock& clock_;
  KindPairLoop<SnapshotKinds> snapshots_;
  std::optional<KindPairLoop<GroupSnapshotKinds>> groups_;
};

}  // namespace snapshot_controller
