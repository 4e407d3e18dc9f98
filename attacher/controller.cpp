#include "attacher/controller.h"

#include <thread>
#include <utility>
#include <vector>

#include "attacher/event_filters.h"
#include "attacher/names.h"
#include "base/log.h"

namespace attacher {
namespace {

using kube::PersistentVolume;
using kube::VolumeAttachment;

kube::ControllerOptions QueueOptions(std::string_view name, const ControllerOptions& options,
                                     kube::WorkQueueMetrics* metrics) {
  return {.name = std::string(name),
          .workers = options.worker_threads,
          .retry_start = options.retry_interval_start,
          .retry_max = options.retry_interval_max,
          .metrics = metrics};
}

kube::PrimaryRules<VolumeAttachment> VolumeAttachmentRules() {
  return {.update_needs_sync = ShouldEnqueueVolumeAttachmentUpdate,
          // A failing attach stays urgent, but its backoff paces it and the
          // burst rule keeps the normal lane moving.
          .lane = VolumeAttachmentLane,
          // The PV queue learns of it (below); the VA itself has nothing left to do.
          .on_delete = [](const auto&) { return std::nullopt; }};
}

// Removing a PV finalizer is never urgent: the PV queue has one lane.
kube::PrimaryRules<PersistentVolume> PersistentVolumeRules(std::string_view finalizer,
                                                           std::string_view driver) {
  return {.admits =
              [finalizer, driver](const PersistentVolume& pv) {
                return ShouldEnqueuePersistentVolume(pv, finalizer, driver);
              },
          // A PV that is gone has no finalizer left to remove.
          .on_delete = [](const auto&) { return std::nullopt; }};
}

// The PV may be free of attachments once one of its VolumeAttachments is gone.
std::vector<std::string> PersistentVolumeOfDeleted(const kube::Change<VolumeAttachment>& change) {
  if (change.type != kube::Change<VolumeAttachment>::Type::kDeleted) return {};
  const std::optional<std::string>& pv_name = PersistentVolumeToSyncOnDelete(change.object);
  if (!pv_name) return {};
  return {*pv_name};
}

}  // namespace

Controller::Controller(std::string driver_name, Handler& handler, kube::InformerSet& informers,
                       ControllerOptions options, base::Clock& clock,
                       kube::WorkQueueMetrics* va_queue_metrics,
                       kube::WorkQueueMetrics* pv_queue_metrics)
    : driver_name_(std::move(driver_name)),
      finalizer_(FinalizerFor(driver_name_)),
      handler_(handler),
      volume_attachments_(
          informers, QueueOptions(kVolumeAttachmentQueueName, options, va_queue_metrics),
          VolumeAttachmentRules(),
          [this](const std::string& name, const auto& va) {
            return SyncVolumeAttachment(name, va);
          },
          clock),
      persistent_volumes_(
          informers, QueueOptions(kPersistentVolumeQueueName, options, pv_queue_metrics),
          PersistentVolumeRules(finalizer_, driver_name_),
          [this](const std::string& name, const auto& pv) {
            return SyncPersistentVolume(name, pv);
          },
          clock) {
  persistent_volumes_.Watches<VolumeAttachment>(PersistentVolumeOfDeleted);
  // An attach reads its PV: no VolumeAttachment syncs before the PVs are listed.
  volume_attachments_.Reads<PersistentVolume>();
}

void Controller::Run(std::stop_token stop) {
  // Both run on `stop`: both queues stop taking work before either waits
  // for its syncs in flight.
  std::jthread pv_workers([this, stop] { persistent_volumes_.Run(stop); });
  volume_attachments_.Run(stop);
}

// The VolumeAttachment controller waits for both stores (it reads PVs).
bool Controller::HasSynced() const { return volume_attachments_.HasSynced(); }

bool Controller::WaitForCacheSync(std::stop_token stop) const {
  return volume_attachments_.WaitForCacheSync(stop);
}

void Controller::EnqueueVolumeAttachment(const std::string& name) {
  volume_attachments_.Enqueue(name);
}

kube::ReconcileResult Controller::SyncVolumeAttachment(
    const std::string& name, const kube::Controller<VolumeAttachment>::Ptr& va) {
  if (!va) {
    LOG_V(3, "VolumeAttachment deleted, ignoring").With("VolumeAttachment", name);
    return kube::Action::Done();
  }
  if (va->spec.attacher != driver_name_) {
    LOG_V(4, "Skipping VolumeAttachment of another attacher")
        .With("VolumeAttachment", name)
        .With("attacher", va->spec.attacher.str());
    return kube::Action::Done();
  }
  return kube::DoneOr(handler_.SyncVolumeAttachment(*va));
}

kube::ReconcileResult Controller::SyncPersistentVolume(
    const std::string& name, const kube::Controller<PersistentVolume>::Ptr& pv) {
  if (!pv) {
    LOG_V(3, "PersistentVolume deleted, ignoring").With("PersistentVolume", name);
    return kube::Action::Done();
  }
  return kube::DoneOr(handler_.SyncPersistentVolume(*pv));
}

}  // namespace attacher
