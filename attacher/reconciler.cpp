#include "attacher/reconciler.h"

#include <algorithm>
#include <utility>

#include "attacher/node_id.h"
#include "attacher/volume_source.h"
#include "base/log.h"
#include "migration/translate.h"

namespace attacher {

Reconciler::Reconciler(std::string driver_name, Handler& handler,
                       const kube::Store<kube::VolumeAttachment>& volume_attachments,
                       const kube::Store<kube::PersistentVolume>& persistent_volumes,
                       const kube::Store<kube::CSINode>& csi_nodes,
                       ListPublishedVolumes list_volumes, EnqueueVolumeAttachment enqueue,
                       base::Clock::Duration period, base::Clock& clock)
    : driver_name_(std::move(driver_name)),
      handler_(handler),
      va_store_(volume_attachments),
      pv_store_(persistent_volumes),
      csi_node_store_(csi_nodes),
      list_volumes_(std::move(list_volumes)),
      enqueue_(std::move(enqueue)),
      period_(period),
      clock_(clock) {}

void Reconciler::Run(std::stop_token stop) {
  do {
    base::Status status = ReconcileOnce();
    if (!status.ok()) {
      LOG_ERROR("Failed to reconcile VolumeAttachments").With("err", status.error().message);
    }
  } while (clock_.SleepFor(period_, stop));
}

base::Status Reconciler::ReconcileOnce() {
  LOG_V(4, "Reconciling VolumeAttachments with the driver's published volumes");
  base::Result<csi::PublishedVolumes> published = list_volumes_();
  if (!published.ok()) return published.error();
  for (const auto& va : va_store_.List()) {
    if (va->spec.attacher != driver_name_) continue;
    base::Result<Placement> placement = PlacementOf(*va);
    if (!placement.ok()) {
      LOG_V(4, "Skipping VolumeAttachment in reconcile")
          .With("VolumeAttachment", va->metadata.name)
          .With("err", placement.error().message);
      continue;
    }
    auto volume = published->find(placement->volume_id);
    bool is_published =
        volume != published->end() && std::find(volume->second.begin(), volume->second.end(),
                                                placement->node_id) != volume->second.end();
    if (va->status.attached == is_published) continue;
    LOG_ERROR("VolumeAttachment status disagrees with the driver, forcing a sync")
        .With("VolumeAttachment", va->metadata.name)
        .With("volumeHandle", placement->volume_id)
        .With("nodeID", placement->node_id)
        .With("attached", va->status.attached)
        .With("publishedByDriver", is_published);
    handler_.RequestForceSync(va->metadata.name);
    enqueue_(va->metadata.name);
  }
  return {};
}

base::Result<Reconciler::Placement> Reconciler::PlacementOf(
    const kube::VolumeAttachment& va) const {
  base::Result<VolumeRef> volume = VolumeOf(va, pv_store_);
  if (!volume.ok()) return volume.error();
  base::Result<CsiVolume> csi = CsiVolumeOf(*volume);
  if (!csi.ok()) return csi.error();
  base::Result<std::string> node_id =
      NodeIdOf(csi_node_store_, driver_name_, va.spec.node_name, &va);
  if (!node_id.ok()) return node_id.error();
  // Upstream counts every inline CSI spec as migrated: only
  // kube-controller-manager's translation of in-tree inline volumes makes one.
  if (csi->migrated || volume->pv == nullptr) {
    base::Result<std::string> handle =
        migration::RepairVolumeHandle(csi->source->driver, csi->source->volume_handle, *node_id);
    if (!handle.ok()) return handle.error();
    return Placement{std::move(*handle), std::move(*node_id)};
  }
  return Placement{csi->source->volume_handle, std::move(*node_id)};
}

}  // namespace attacher
