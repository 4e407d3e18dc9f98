// Controller: the snapshot-controller's controllers (docs/snapshots.md
// §4.2), one KindPairLoop per pair of kinds over the process's InformerSet,
// which also keeps current what the handlers only look up.
//
// The informers - VolumeSnapshots and contents, classes,
// PersistentVolumeClaims, PersistentVolumes, Nodes with distributed
// snapshotting, and the three group kinds when a GroupHandler is given -
// feed the queues:
//   - "snapshot-controller-snapshot" and "snapshot-controller-content", the
//     single snapshots' pair, synced by the ControllerHandler;
//   - "snapshot-controller-group-snapshot" and
//     "snapshot-controller-group-content", the groups' pair (§4.7), synced by
//     the GroupHandler; a group snapshot deleted from the API also queues
//     its member VolumeSnapshots, whose deletion waited for it (§4.5 step 3);
//   - a claim that shows the pvc-as-source-protection finalizer it did not
//     show before queues its ready VolumeSnapshots: their last sync may have
//     seen a cache without it (after an API server restart, only the next
//     list brings it), and a sync lets go of it (§9.14).
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
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_handler.h"
#include "snapshot_controller/controller_options.h"
#include "snapshot_controller/group_handler.h"
#include "snapshot_controller/kind_pair_loop.h"
#include "snapshot_controller/kind_pairs.h"

namespace snapshot_controller {

// The stores of `informers` the handlers read (making their informers):
// Nodes only `with_nodes`, the group kinds only `with_groups` (their storage
// is `group_caches`, which must outlive the answer).
Caches CachesOf(kube::InformerSet& informers, bool with_nodes, bool with_groups,
                std::optional<GroupCaches>& group_caches);

class Controller {
 public:
  static constexpr std::string_view kSnapshotQueueName = SnapshotKinds::kSnapshotQueueName;
  static constexpr std::string_view kContentQueueName = SnapshotKinds::kContentQueueName;
  static constexpr std::string_view kGroupSnapshotQueueName =
      GroupSnapshotKinds::kSnapshotQueueName;
  static constexpr std::string_view kGroupContentQueueName = GroupSnapshotKinds::kContentQueueName;

  // `handler`, `group_handler` (null: no groups) and `informers` must
  // outlive the controller. The workers wait for Nodes too `with_nodes`.
  Controller(ControllerHandler& handler, kube::InformerSet& informers, ControllerOptions options,
             base::Clock& clock, bool with_nodes, GroupHandler* group_handler = nullptr);

  // Blocks until `stop` is requested: waits until every store holds a
  // complete list, then runs the workers of every queue. On stop: no queue
  // takes new work, in-flight syncs finish, Run returns.
  void Run(std::stop_token stop);

  const kube::WorkQueue& snapshot_queue() const { return snapshots_.snapshot_queue(); }
  const kube::WorkQueue& content_queue() const { return snapshots_.content_queue(); }
  // Only with a GroupHandler.
  const kube::WorkQueue& group_snapshot_queue() const { return groups_->snapshot_queue(); }
  const kube::WorkQueue& group_content_queue() const { return groups_->content_queue(); }

 private:
  // Queues the members of a group snapshot deleted from the API.
  void QueueMembersOf(const kube::VolumeGroupSnapshot& group);
  // The keys of the ready snapshots of a claim that has just come to show
  // the pvc-as-source-protection finalizer; none for any other change.
  std::vector<std::string> ReadySnapshotsOfNewlyProtected(
      const kube::Change<kube::PersistentVolumeClaim>& change) const;

  kube::Store<kube::VolumeSnapshot>& snapshot_store_;
  KindPairLoop<SnapshotKinds> snapshots_;
  std::optional<KindPairLoop<GroupSnapshotKinds>> groups_;
};

}  // namespace snapshot_controller
