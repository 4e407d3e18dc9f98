// FloorSnapshotController: the snapshot floor's controller half (the floor:
// snapshot_stack.h). It keeps copies of the VolumeSnapshots, contents, claims
// and volumes (one ObjectWatch each, so it reads nothing twice) and of the
// classes (one list at start), and with the controller's identity, its two
// clients (claims and volumes on the core one, the rest on the snapshot one,
// each with its own QPS limiter as upstream's and ours) and `workers`
// threads issues exactly these writes per dynamic snapshot:
//   create: 1 JSON Patch adding both VolumeSnapshot finalizers; 1 PUT adding
//     the claim's finalizer (the controller's RBAC grants no patch on
//     claims); 1 POST of the content (snapshot_controller::DynamicContentFor, its
//     finalizer already in it); once the content is ready, 1 merge patch of
//     the snapshot's status (snapshot_controller::SnapshotStatusFromContent: bound,
//     created, ready, size at once) and 1 PUT removing the claim's finalizer;
//   delete: 1 JSON Patch annotating the content being-deleted, 1 DELETE of
//     it and, once it is gone, 1 merge patch removing both finalizers.
// No Events, no status before the content is ready. A failed sync is retried
// after 5 ms, doubling up to 1 s.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "base/result.h"
#include "bench/floor_cache.h"
#include "bench/object_watch.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/client.h"
#include "kube/runtime/reconcile_loop.h"
#include "snapshot/snapshot_clients.h"

namespace bench {

class FloorSnapshotController {
 public:
  // `clients` carry the controller's identity and QPS/burst; they must outlive this.
  static base::Result<std::unique_ptr<FloorSnapshotController>> Start(
      const snapshot::SnapshotClients& clients, int workers);
  ~FloorSnapshotController();  // stops the watches, then the workers

 private:
  FloorSnapshotController(const snapshot::SnapshotClients& clients, int workers);
  base::Status StartWatches();
  base::Status Sync(const std::string& key);
  base::Status AddSnapshotFinalizers(kube::VolumeSnapshot& snapshot);
  base::Status CreateContent(const kube::VolumeSnapshot& snapshot);
  base::Status MarkReady(const kube::VolumeSnapshot& snapshot,
                         const kube::VolumeSnapshotContent& content);
  base::Status Delete(const kube::VolumeSnapshot& snapshot,
                      const std::optional<kube::VolumeSnapshotContent>& content);
  // PUT of the snapshot's claim with (`add`) or without the finalizer, if
  // it differs.
  base::Status SetClaimFinalizer(const kube::VolumeSnapshot& snapshot, bool add);

  kube::Client& snapshot_client_;
  kube::Client& core_client_;
  std::unordered_map<std::string, kube::VolumeSnapshotClass> classes_;  // set before the watches
  FloorCache<kube::VolumeSnapshot> snapshots_;                          // by namespace/name
  FloorCache<kube::VolumeSnapshotContent> contents_;                    // by name
  FloorCache<kube::PersistentVolumeClaim> claims_;                      // by namespace/name
  FloorCache<kube::PersistentVolume> volumes_;                          // by name
  std::mutex mu_;
  std::unordered_set<std::string> deleting_;  // contents deleted; guarded by mu_
  kube::ReconcileLoop pool_;
  std::jthread runner_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolumeClaim>> claim_watch_;
  std::unique_ptr<ObjectWatch<kube::PersistentVolume>> volume_watch_;
  std::unique_ptr<ObjectWatch<kube::VolumeSnapshotContent>> content_watch_;
  std::unique_ptr<ObjectWatch<kube::VolumeSnapshot>> snapshot_watch_;
};

}  // namespace bench
