// VolumeController: the provisioner's controller of PersistentVolumes
// (docs/provisioner.md §4), on the generic runtime, queue "volumes", keyed
// by PV name.
//
// A PV is this driver's when its provisioned-by or migrated-to annotation
// names the driver (or the in-tree plugin it replaces, §3.13), or, without
// provisioned-by, its CSI source does (a static PV). A PV of an in-tree
// plugin is deleted through its CSI translation, counted `migrated`. On each sync of one:
//   - the finalizer follows the reclaim policy (§4.1): added while the PV is
//     Bound, not being deleted and its policy is Delete; removed when the
//     policy is Retain or Recycle. Strategic merge patches: another
//     writer's finalizers are never touched;
//   - a Released PV with policy Delete is deleted (§4.2): unless a
//     VolumeAttachment still names it (Normal VolumeDelete, retried with
//     backoff), DeleteVolume with the Secret the PV's deletion-secret
//     annotations name (or the class's, for PVs without them), then the PV,
//     then our finalizer. A failed DeleteVolume records Warning
//     VolumeFailedDelete and is retried with the error backoff. A volume
//     deleted once is remembered until its PV is gone, so a sync between
//     deleting the volume and removing the finalizer never calls DeleteVolume
//     a second time (§9.3).
// In node deployment (§3.12) a Released PV whose node affinity does not
// admit this node is another node's to delete: it is left alone without an
// Event (and, as upstream, counted as a deletion that succeeded).
//
// Thread-safety: Run() once.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "provisioner/capacity_refresh.h"
#include "provisioner/known_provisioners.h"
#include "provisioner/node_deployment.h"
#include "provisioner/provisioner_api.h"
#include "provisioner/provisioner_metrics.h"
#include "provisioner/volume_driver.h"
#include "provisioner/volume_events.h"

namespace provisioner {

struct VolumeControllerOptions {
  component::LoopOptions loop;
  // The driver has PUBLISH_UNPUBLISH_VOLUME: VolumeAttachments are watched
  // and hold deletion back.
  bool check_attachments = false;
  // With capacity tracking (§5): told of every volume deleted. Outlives the
  // controller.
  CapacityRefresh* capacity = nullptr;
  // --node-deployment (§3.12).
  std::optional<NodeDeploymentOptions> node;
  // --delete-volume-not-found-is-success (§9.9, #1277): a DeleteVolume
  // answered NotFound counts as done (the volume is gone) instead of
  // failing, and retrying, forever.
  bool not_found_is_deleted = false;
};

class VolumeController {
 public:
  using Volume = kube::PersistentVolume;

  VolumeController(const std::string& driver_name, VolumeControllerOptions options,
                   kube::InformerSet& informers, ProvisionerApi& api, VolumeDriver& driver,
                   VolumeEvents& events, ProvisionerMetrics* metrics, base::Clock& clock);

  void Run(std::stop_token stop) { controller_.Run(stop); }
  const kube::WorkQueue& queue() const { return controller_.queue(); }

 private:
  kube::ReconcileResult Sync(const std::string& name, const std::shared_ptr<const Volume>& volume);
  bool IsOurs(const Volume& volume) const;
  // §4.1; returns whether it patched.
  base::Result<bool> SyncFinalizer(const Volume& volume);
  kube::ReconcileResult Delete(const Volume& volume);
  // The node a VolumeAttachment of the volume names, or "".
  std::string AttachedNode(const Volume& volume) const;

  const KnownProvisioners known_;  // the driver's names, §3.13
  const VolumeControllerOptions options_;
  ProvisionerApi& api_;
  VolumeDriver& driver_;
  VolumeEvents& events_;
  ProvisionerMetrics* const metrics_;
  base::Clock& clock_;
  kube::Store<kube::StorageClass>& classes_;
  kube::Store<kube::VolumeAttachment>* attachments_ = nullptr;

  std::mutex mu_;
  std::set<std::string> deleted_volumes_;  // guarded by mu_

  kube::Controller<Volume> controller_;
};

}  // namespace provisioner
