#include "provisioner/volume_controller.h"

#include <grpcpp/support/status_code_enum.h>

#include <utility>

#include "base/log.h"
#include "csi/errors.h"
#include "csi_params/volumes.h"
#include "kube/api/metadata_patch.h"
#include "kube/api/strategic_metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/annotations.h"
#include "provisioner/csi_view.h"
#include "provisioner/deletion_secrets.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

constexpr std::string_view kDeletePolicy = "Delete";

kube::ControllerOptions LoopOf(const VolumeControllerOptions& options,
                               ProvisionerMetrics* metrics) {
  return {.name = std::string(kVolumeQueueName),
          .workers = options.loop.worker_threads,
          .retry_start = options.loop.retry_interval_start,
          .retry_max = options.loop.retry_interval_max,
          .requeue_start = options.loop.retry_interval_start,
          .requeue_max = options.loop.retry_interval_max,
          .metrics = metrics ? &metrics->volume_queue() : nullptr};
}

bool IsBeingDeleted(const kube::PersistentVolume& volume) {
  return !volume.metadata.deletion_timestamp.empty();
}

}  // namespace

VolumeController::VolumeController(const std::string& driver_name, VolumeControllerOptions options,
                                   kube::InformerSet& informers, ProvisionerApi& api,
                                   VolumeDriver& driver, VolumeEvents& events,
                                   ProvisionerMetrics* metrics, base::Clock& clock)
    : known_(driver_name),
      options_(std::move(options)),
      api_(api),
      driver_(driver),
      events_(events),
      metrics_(metrics),
      clock_(clock),
      classes_(informers.StoreOf<kube::StorageClass>()),
      controller_(
          informers, LoopOf(options_, metrics),
          // A deletion is synced too (the default): the sync that finds the
          // PV gone forgets its deleted volume, so a sync still running on an
          // older copy finds that memory intact.
          {.admits = [this](const Volume& volume) { return IsOurs(volume); }},
          [this](const std::string& name, const std::shared_ptr<const Volume>& volume) {
            return Sync(name, volume);
          },
          clock) {
  controller_.Reads<kube::StorageClass>();
  if (options_.check_attachments) attachments_ = &controller_.Reads<kube::VolumeAttachment>();
}

bool VolumeController::IsOurs(const Volume& volume) const {
  const std::string* to = AnnotationOf(volume.metadata, kMigratedToAnnotation);
  const bool migrated_to_us = to && known_.Knows(*to);
  if (const std::string* by = AnnotationOf(volume.metadata, kProvisionedByAnnotation)) {
    return known_.Knows(*by) || migrated_to_us;
  }
  // A static PV: its CSI driver, or for an in-tree one the migration's.
  const kube::CSIPersistentVolumeSource* csi = csi_params::CsiSourceOf(volume);
  return csi ? known_.Knows(csi->driver) : migrated_to_us;
}

kube::ReconcileResult VolumeController::Sync(const std::string& name,
                                             const std::shared_ptr<const Volume>& volume) {
  if (!volume) {
    std::lock_guard lock(mu_);
    deleted_volumes_.erase(name);
    return kube::Action::Done();
  }
  if (!IsOurs(*volume)) return kube::Action::Done();
  auto patched = SyncFinalizer(*volume);
  if (!patched.ok()) return patched.error();
  // A finalizer is added only to a Bound PV and removed only from a kept
  // one: neither has anything left to delete.
  if (*patched) return kube::Action::Done();
  const bool has_finalizer = kube::HasFinalizer(volume->metadata, kVolumeFinalizer);
  if (IsBeingDeleted(*volume) && !has_finalizer) return kube::Action::Done();
  if (volume->status.phase != "Released" ||
      volume->spec.persistent_volume_reclaim_policy != kDeletePolicy) {
    return kube::Action::Done();
  }
  return Delete(*volume);
}

base::Result<bool> VolumeController::SyncFinalizer(const Volume& volume) {
  const bool has = kube::HasFinalizer(volume.metadata, kVolumeFinalizer);
  const auto& policy = volume.spec.persistent_volume_reclaim_policy;
  kube::StrategicMetadataPatch patch;
  if (!has && policy == kDeletePolicy && !IsBeingDeleted(volume) &&
      volume.status.phase == "Bound") {
    patch.AddFinalizer(kVolumeFinalizer);
  } else if (has && (policy == "Retain" || policy == "Recycle")) {
    patch.RemoveFinalizer(kVolumeFinalizer);
  } else {
    return false;
  }
  auto written =
      api_.PatchVolume(volume.metadata.name, kube::PatchType::kStrategicMerge, patch.Serialize());
  if (!written.ok()) {
    if (kube::IsNotFound(written.error())) return true;
    return written.error().Wrap("failed to update finalizer of PersistentVolume " +
                                volume.metadata.name);
  }
  return true;
}

kube::ReconcileResult VolumeController::Delete(const Volume& volume) {
  const std::string& name = volume.metadata.name;
  const std::string class_name(volume.spec.storage_class_name);
  const base::Clock::TimePoint started = clock_.Now();
  auto view = CsiViewOf(volume);  // §3.13: an in-tree PV is translated
  if (!view.ok()) {
    events_.DeleteFailed(volume, view.error().message);
    return view.error();
  }
  const std::string& handle = view->source.volume_handle;
  if (options_.node && !VolumeIsOnNode(volume, options_.node->info.topology)) {
    LOG_V(4, "Volume deletion ignored")
        .With("PV", name)
        .With("reason", "PV was not provisioned on this node");
    if (metrics_) metrics_->DeleteSucceeded(class_name, clock_.Now() - started);
    return kube::Action::Done();
  }
  if (std::string node = AttachedNode(volume); !node.empty()) {
    // Not a failure: the attacher detaches it, then deletion goes on.
    events_.WaitingForDetach(volume, node);
    return kube::Action::RequeueWithBackoff();
  }
  bool already_deleted;
  {
    std::lock_guard lock(mu_);
    already_deleted = deleted_volumes_.contains(name);
  }
  if (!already_deleted) {
    auto secrets = DeletionSecretsOf(volume, classes_, api_, view->migrated ? &known_ : nullptr);
    if (!secrets.ok()) {
      events_.DeleteFailed(volume, secrets.error().message);
      if (metrics_) metrics_->DeleteFailed(class_name);
      return secrets.error();
    }
    base::Status s = driver_.DeleteVolume(handle, *secrets, view->migrated);
    if (!s.ok() && options_.not_found_is_deleted && csi::IsGrpcCode(s.error(), grpc::NOT_FOUND)) {
      LOG_INFO("Volume not found by the driver, taken as deleted")
          .With("PV", name)
          .With("volumeHandle", handle)
          .With("err", s.error().message);
      s = base::Status::Ok();
    }
    if (!s.ok()) {
      LOG_ERROR("Volume deletion failed").With("PV", name).With("err", s.error().message);
      events_.DeleteFailed(volume, s.error().message);
      if (metrics_) metrics_->DeleteFailed(class_name);
      return s.error();
    }
    LOG_INFO("Volume deleted").With("PV", name).With("volumeHandle", handle);
    if (metrics_) metrics_->DeleteSucceeded(class_name, clock_.Now() - started);
    if (options_.capacity) options_.capacity->VolumeDeleted(volume);
    std::lock_guard lock(mu_);
    deleted_volumes_.insert(name);
  }
  if (base::Status s = api_.DeleteVolume(name); !s.ok() && !kube::IsNotFound(s.error())) {
    return s.error().Wrap("failed to delete PersistentVolume " + name);
  }
  if (kube::HasFinalizer(volume.metadata, kVolumeFinalizer)) {
    kube::StrategicMetadataPatch patch;
    patch.RemoveFinalizer(kVolumeFinalizer);
    auto written = api_.PatchVolume(name, kube::PatchType::kStrategicMerge, patch.Serialize());
    if (!written.ok() && !kube::IsNotFound(written.error())) {
      return written.error().Wrap("failed to remove finalizer of PersistentVolume " + name);
    }
  }
  LOG_V(4, "PersistentVolume deleted and released").With("PV", name);
  return kube::Action::Done();
}

std::string VolumeController::AttachedNode(const Volume& volume) const {
  if (!attachments_) return "";
  for (const auto& attachment : attachments_->List()) {
    const auto& pv_name = attachment->spec.source.persistent_volume_name;
    if (pv_name && *pv_name == volume.metadata.name) return std::string(attachment->spec.node_name);
  }
  return "";
}

}  // namespace provisioner
