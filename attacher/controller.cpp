#include "attacher/controller.h"

#include <optional>
#include <thread>
#include <utility>

#include "attacher/event_filters.h"
#include "attacher/names.h"
#include "base/log.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer.h"

namespace attacher {
namespace {

using kube::CSINode;
using kube::PersistentVolume;
using kube::VolumeAttachment;

class VolumeAttachmentEvents final : public kube::EventHandler<VolumeAttachment> {
 public:
  VolumeAttachmentEvents(kube::WorkQueue& va_queue, kube::WorkQueue& pv_queue)
      : va_queue_(va_queue), pv_queue_(pv_queue) {}

  void OnAdd(const Ptr& va) override {
    va_queue_.Add(va->metadata.name, VolumeAttachmentLane(*va));
  }

  void OnUpdate(const Ptr& old_va, const Ptr& new_va) override {
    if (ShouldEnqueueVolumeAttachmentUpdate(*old_va, *new_va)) {
      va_queue_.Add(new_va->metadata.name, VolumeAttachmentLane(*new_va));
      return;
    }
    LOG_V(3, "Ignoring VolumeAttachment change").With("VolumeAttachment", new_va->metadata.name);
  }

  // The PV may now be free of attachments, so its finalizer may go.
  void OnDelete(const Ptr& va) override {
    if (const auto& pv_name = PersistentVolumeToSyncOnDelete(*va)) pv_queue_.Add(*pv_name);
  }

 private:
  kube::WorkQueue& va_queue_;
  kube::WorkQueue& pv_queue_;
};

class PersistentVolumeEvents final : public kube::EventHandler<PersistentVolume> {
 public:
  PersistentVolumeEvents(kube::WorkQueue& pv_queue, std::string_view finalizer,
                         std::string_view driver)
      : pv_queue_(pv_queue), finalizer_(finalizer), driver_(driver) {}

  void OnAdd(const Ptr& pv) override { Consider(*pv); }
  void OnUpdate(const Ptr&, const Ptr& pv) override { Consider(*pv); }
  // A PV that is gone has no finalizer left to remove.
  void OnDelete(const Ptr&) override {}

 private:
  void Consider(const PersistentVolume& pv) {
    if (ShouldEnqueuePersistentVolume(pv, finalizer_, driver_)) pv_queue_.Add(pv.metadata.name);
  }

  kube::WorkQueue& pv_queue_;
  const std::string_view finalizer_;
  const std::string_view driver_;
};

kube::WorkerPoolOptions PoolOptions(std::string_view queue_name, std::string_view kind,
                                    const ControllerOptions& options,
                                    kube::WorkQueueMetrics* metrics) {
  return {.queue_name = std::string(queue_name),
          .kind = std::string(kind),
          .workers = options.worker_threads,
          .retry_start = options.retry_interval_start,
          .retry_max = options.retry_interval_max,
          .metrics = metrics};
}

}  // namespace

Controller::Controller(std::string driver_name, Handler& handler,
                       kube::Store<VolumeAttachment>& volume_attachments,
                       kube::Store<PersistentVolume>& persistent_volumes,
                       kube::Store<CSINode>& csi_nodes, ControllerOptions options,
                       base::Clock& clock, kube::WorkQueueMetrics* va_queue_metrics,
                       kube::WorkQueueMetrics* pv_queue_metrics)
    : driver_name_(std::move(driver_name)),
      finalizer_(FinalizerFor(driver_name_)),
      handler_(handler),
      va_store_(volume_attachments),
      pv_store_(persistent_volumes),
      csi_node_store_(csi_nodes),
      options_(options),
      clock_(clock),
      va_workers_(
          PoolOptions(kVolumeAttachmentQueueName, "VolumeAttachment", options, va_queue_metrics),
          clock, [this](const std::string& name) { return SyncVolumeAttachment(name); },
          // A failing attach stays urgent, but its backoff paces it and the
          // burst rule keeps the normal lane moving.
          [this](const std::string& name) { return VolumeAttachmentLaneOf(name); }),
      // Removing a PV finalizer is never urgent: its retries take the normal lane.
      pv_workers_(
          PoolOptions(kPersistentVolumeQueueName, "PersistentVolume", options, pv_queue_metrics),
          clock, [this](const std::string& name) { return SyncPersistentVolume(name); }) {}

void Controller::Run(kube::ListerWatcher<VolumeAttachment>& volume_attachments,
                     kube::ListerWatcher<PersistentVolume>& persistent_volumes,
                     kube::ListerWatcher<CSINode>* csi_nodes, std::stop_token stop) {
  VolumeAttachmentEvents va_events(va_workers_.queue(), pv_workers_.queue());
  PersistentVolumeEvents pv_events(pv_workers_.queue(), finalizer_, driver_name_);
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options_.resync_period;
  // Declared before the workers run, so they stop after the workers drained.
  kube::Informer<VolumeAttachment> va_informer(volume_attachments, va_store_, reflector_options,
                                               clock_);
  kube::Informer<PersistentVolume> pv_informer(persistent_volumes, pv_store_, reflector_options,
                                               clock_);
  // CSINodes are only read from their store; their changes need no work.
  std::optional<kube::Informer<CSINode>> csi_node_informer;
  va_informer.AddEventHandler(va_events);
  pv_informer.AddEventHandler(pv_events);
  va_informer.Start();
  pv_informer.Start();
  if (csi_nodes) {
    csi_node_informer.emplace(*csi_nodes, csi_node_store_, reflector_options, clock_);
    csi_node_informer->Start();
  }

  if (!kube::WaitForCacheSync(stop, va_informer, pv_informer)) return;
  synced_.Notify();
  LOG_INFO("Caches synced, starting workers").With("workers", options_.worker_threads);
  // Both pools run on `stop`: both queues stop taking work before either
  // waits for its syncs in flight.
  std::jthread pv_workers([this, stop] { pv_workers_.Run(stop); });
  va_workers_.Run(stop);
}

bool Controller::HasSynced() const { return synced_.HasBeenNotified(); }

bool Controller::WaitForCacheSync(std::stop_token stop) const {
  return synced_.WaitForNotification(stop);
}

void Controller::EnqueueVolumeAttachment(const std::string& name) {
  va_workers_.queue().Add(name, VolumeAttachmentLaneOf(name));
}

base::Status Controller::SyncVolumeAttachment(const std::string& name) {
  std::shared_ptr<const VolumeAttachment> va = va_store_.GetByKey(name);
  if (!va) {
    LOG_V(3, "VolumeAttachment deleted, ignoring").With("VolumeAttachment", name);
    return {};
  }
  if (va->spec.attacher != driver_name_) {
    LOG_V(4, "Skipping VolumeAttachment of another attacher")
        .With("VolumeAttachment", name)
        .With("attacher", va->spec.attacher.str());
    return {};
  }
  return handler_.SyncVolumeAttachment(*va);
}

kube::WorkQueue::Lane Controller::VolumeAttachmentLaneOf(const std::string& name) const {
  std::shared_ptr<const VolumeAttachment> va = va_store_.GetByKey(name);
  return va ? VolumeAttachmentLane(*va) : kube::WorkQueue::Lane::kNormal;
}

base::Status Controller::SyncPersistentVolume(const std::string& name) {
  std::shared_ptr<const PersistentVolume> pv = pv_store_.GetByKey(name);
  if (!pv) {
    LOG_V(3, "PersistentVolume deleted, ignoring").With("PersistentVolume", name);
    return {};
  }
  return handler_.SyncPersistentVolume(*pv);
}

}  // namespace attacher
