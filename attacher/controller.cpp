#include "attacher/controller.h"

#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "attacher/event_filters.h"
#include "attacher/names.h"
#include "base/log.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/reflector.h"

namespace attacher {
namespace {

using kube::CSINode;
using kube::PersistentVolume;
using kube::VolumeAttachment;

// Waiting for the first lists waits on other threads, not on time, so it polls
// the real clock even when the controller's clock is a fake one.
constexpr auto kCacheSyncPollInterval = std::chrono::milliseconds(100);

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

// CSINodes are only read from their store; their changes need no work.
class IgnoredCsiNodeEvents final : public kube::EventHandler<CSINode> {
 public:
  void OnAdd(const Ptr&) override {}
  void OnUpdate(const Ptr&, const Ptr&) override {}
  void OnDelete(const Ptr&) override {}
};

bool WaitForLists(const kube::Reflector<VolumeAttachment>& volume_attachments,
                  const kube::Reflector<PersistentVolume>& persistent_volumes,
                  std::stop_token stop) {
  while (!volume_attachments.HasSynced() || !persistent_volumes.HasSynced()) {
    if (!base::Clock::Real().SleepFor(kCacheSyncPollInterval, stop)) return false;
  }
  return true;
}

void WaitForStop(std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait(lock, stop, [] { return false; });
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
      va_queue_(std::string(kVolumeAttachmentQueueName), clock, options.retry_interval_start,
                options.retry_interval_max, va_queue_metrics),
      pv_queue_(std::string(kPersistentVolumeQueueName), clock, options.retry_interval_start,
                options.retry_interval_max, pv_queue_metrics) {}

void Controller::Run(kube::ListerWatcher<VolumeAttachment>& volume_attachments,
                     kube::ListerWatcher<PersistentVolume>& persistent_volumes,
                     kube::ListerWatcher<CSINode>* csi_nodes, std::stop_token stop) {
  VolumeAttachmentEvents va_events(va_queue_, pv_queue_);
  PersistentVolumeEvents pv_events(pv_queue_, finalizer_, driver_name_);
  IgnoredCsiNodeEvents csi_node_events;
  kube::ReflectorOptions reflector_options;
  reflector_options.resync_period = options_.resync_period;
  kube::Reflector<VolumeAttachment> va_reflector(volume_attachments, va_store_, va_events,
                                                 reflector_options, clock_);
  kube::Reflector<PersistentVolume> pv_reflector(persistent_volumes, pv_store_, pv_events,
                                                 reflector_options, clock_);
  std::optional<kube::Reflector<CSINode>> csi_node_reflector;
  if (csi_nodes) {
    csi_node_reflector.emplace(*csi_nodes, csi_node_store_, csi_node_events, reflector_options,
                               clock_);
  }

  // jthreads: destroying one stops and joins it.
  std::vector<std::jthread> reflector_threads;
  reflector_threads.emplace_back([&](std::stop_token s) { va_reflector.Run(s); });
  reflector_threads.emplace_back([&](std::stop_token s) { pv_reflector.Run(s); });
  if (csi_node_reflector) {
    reflector_threads.emplace_back([&](std::stop_token s) { csi_node_reflector->Run(s); });
  }

  std::vector<std::jthread> workers;
  if (WaitForLists(va_reflector, pv_reflector, stop)) {
    MarkSynced();
    LOG_INFO("Caches synced, starting workers").With("workers", options_.worker_threads);
    for (uint32_t i = 0; i < options_.worker_threads; ++i) {
      workers.emplace_back([this] {
        Work(va_queue_, "VolumeAttachment", &Controller::SyncVolumeAttachment,
             &Controller::VolumeAttachmentLaneOf);
      });
      workers.emplace_back([this] {
        Work(pv_queue_, "PersistentVolume", &Controller::SyncPersistentVolume,
             &Controller::PersistentVolumeLaneOf);
      });
    }
    WaitForStop(stop);
  }

  LOG_INFO("Shutting down workers");
  // Both queues stop handing out work before either is waited for.
  va_queue_.ShutDown();
  pv_queue_.ShutDown();
  va_queue_.ShutDownWithDrain();
  pv_queue_.ShutDownWithDrain();
  workers.clear();
  reflector_threads.clear();
}

bool Controller::HasSynced() const {
  std::lock_guard lock(synced_mu_);
  return synced_;
}

bool Controller::WaitForCacheSync(std::stop_token stop) const {
  std::unique_lock lock(synced_mu_);
  return synced_cv_.wait(lock, stop, [this] { return synced_; });
}

void Controller::MarkSynced() {
  std::lock_guard lock(synced_mu_);
  synced_ = true;
  synced_cv_.notify_all();
}

void Controller::EnqueueVolumeAttachment(const std::string& name) {
  va_queue_.Add(name, VolumeAttachmentLaneOf(name));
}

void Controller::Work(kube::WorkQueue& queue, std::string_view kind,
                      base::Status (Controller::*sync)(const std::string& name),
                      kube::WorkQueue::Lane (Controller::*lane)(const std::string& name) const) {
  while (std::optional<std::string> name = queue.Get()) {
    base::Status status = (this->*sync)(*name);
    if (status.ok()) {
      queue.Forget(*name);
    } else {
      LOG_ERROR("Sync failed, retrying with backoff")
          .With(kind, *name)
          .With("err", status.error().message);
      // The lane is picked again from the cache rather than remembered from
      // the add: by now the VolumeAttachment may be attached or being deleted,
      // and the retry will act on what the cache holds. A failing attach stays
      // urgent, but its backoff paces it and the burst rule keeps the normal
      // lane moving.
      queue.AddRateLimited(*name, (this->*lane)(*name));
    }
    queue.Done(*name);
  }
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
        .With("attacher", va->spec.attacher);
    return {};
  }
  return handler_.SyncVolumeAttachment(*va);
}

kube::WorkQueue::Lane Controller::VolumeAttachmentLaneOf(const std::string& name) const {
  std::shared_ptr<const VolumeAttachment> va = va_store_.GetByKey(name);
  return va ? VolumeAttachmentLane(*va) : kube::WorkQueue::Lane::kNormal;
}

kube::WorkQueue::Lane Controller::PersistentVolumeLaneOf(const std::string&) const {
  return kube::WorkQueue::Lane::kNormal;
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
