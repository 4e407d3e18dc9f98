// Reconciler: compares what the driver says is published (ListVolumes with
// published_node_ids) with status.attached of this driver's
// VolumeAttachments, and hands every mismatch back to the controller as a
// forced sync (docs/attacher.md §5.7). Used only when the driver has LIST_VOLUMES
// and LIST_VOLUMES_PUBLISHED_NODES. It never writes to the API: the forced
// sync re-runs Publish (VA not being deleted) or Unpublish (being deleted).
//
// A VolumeAttachment is compared only when its driver is ours, its volume
// resolves as attach and detach resolve it (volume_source.h) to a csi source
// (volume ID = volumeHandle), and its node ID is known (node_id.h: CSINode
// entry of our driver, else the VA's node-id annotation, as for detach).
// Translated volumes (an in-tree PV, or any inline spec: kube-controller-
// manager makes those only for migrated volumes) have their handle repaired
// first (migration::RepairVolumeHandle); a VA whose repair fails is skipped.
//
// Thread-safety: ReconcileOnce() only reads the stores, which are thread-safe;
// Run() is one loop for one thread.
#pragma once

#include <functional>
#include <stop_token>
#include <string>

#include "attacher/handler.h"
#include "base/clock.h"
#include "base/result.h"
#include "csi/controller_client.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/store.h"

namespace attacher {

class Reconciler {
 public:
  // One full ListVolumes pass (all pages).
  using ListPublishedVolumes = std::function<base::Result<csi::PublishedVolumes>()>;
  // Queues a VolumeAttachment, by name, for a sync.
  using EnqueueVolumeAttachment = std::function<void(const std::string& name)>;

  // Everything referenced must outlive the reconciler.
  Reconciler(std::string driver_name, Handler& handler,
             const kube::Store<kube::VolumeAttachment>& volume_attachments,
             const kube::Store<kube::PersistentVolume>& persistent_volumes,
             const kube::Store<kube::CSINode>& csi_nodes, ListPublishedVolumes list_volumes,
             EnqueueVolumeAttachment enqueue, base::Clock::Duration period, base::Clock& clock);

  // Until `stop`: a pass at once, then one `period` after each pass ends (a
  // slow driver never gets overlapping passes). A failed pass is logged and
  // left to the next period. Start it once the caches are complete
  // (Controller::WaitForCacheSync), or it has nothing to compare.
  void Run(std::stop_token stop);

  // One pass. Fails only when ListVolumes does, having changed nothing.
  base::Status ReconcileOnce();

 private:
  // Where the driver would report `va`'s volume as published.
  struct Placement {
    std::string volume_id;
    std::string node_id;
  };
  // Fails when `va` cannot be compared (see above), saying why.
  base::Result<Placement> PlacementOf(const kube::VolumeAttachment& va) const;

  const std::string driver_name_;
  Handler& handler_;
  const kube::Store<kube::VolumeAttachment>& va_store_;
  const kube::Store<kube::PersistentVolume>& pv_store_;
  const kube::Store<kube::CSINode>& csi_node_store_;
  const ListPublishedVolumes list_volumes_;
  const EnqueueVolumeAttachment enqueue_;
  const base::Clock::Duration period_;
  base::Clock& clock_;
};

}  // namespace attacher
