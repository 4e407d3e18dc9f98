// Controller: the attacher's two controllers (docs/attacher.md §5.1) on the
// generic runtime (kube/runtime/controller.h); what is the attacher's own is
// which kinds, which events (event_filters.h), which reconcile and which lane.
//
// Two queues, "csi-attacher-va" and "csi-attacher-pv", each with
// worker_threads workers:
//   - VolumeAttachments: every add, every update that counts
//     (ShouldEnqueueVolumeAttachmentUpdate) and every resync; never the
//     events of the attacher's own writes (its finalizer and status
//     patches), so one attach calls ControllerPublishVolume once. Attachments
//     still to be attached take the urgent lane (VolumeAttachmentLane), so
//     they overtake queued detaches without starving them (#761).
//     VolumeAttachments of other drivers are cached and queued but skipped
//     at sync, as upstream does.
//   - PersistentVolumes: adds and updates that may free our finalizer
//     (ShouldEnqueuePersistentVolume), and the PV of every deleted
//     VolumeAttachment.
// A reconcile passes the stored object to the Handler; success forgets the
// name's backoff, an error logs and requeues it after retry_interval_start *
// 2^failures, capped at retry_interval_max.
//
// The informers are the InformerSet's (VolumeAttachments and
// PersistentVolumes; CSINodes are read by the handler from the same set, and
// an attach missing its node ID just fails and is retried, so the workers do
// not wait for them). Build the controller, start the set, Run.
//
// Thread-safety: every method may be called from any thread. Run() may be
// called once (its queues cannot restart after shutdown).
#pragma once

#include <stop_token>
#include <string>
#include <string_view>

#include "attacher/handler.h"
#include "base/clock.h"
#include "component/loop_options.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/work_queue.h"

namespace attacher {

// --worker-threads (per queue), --retry-interval-start, --retry-interval-max
// and --resync (the informers'; 0 = never).
using ControllerOptions = component::LoopOptions;

class Controller {
 public:
  static constexpr std::string_view kVolumeAttachmentQueueName = "csi-attacher-va";
  static constexpr std::string_view kPersistentVolumeQueueName = "csi-attacher-pv";

  // `handler` and `informers` must outlive the controller; so must the
  // metrics observers, which may be null.
  Controller(std::string driver_name, Handler& handler, kube::InformerSet& informers,
             ControllerOptions options, base::Clock& clock,
             kube::WorkQueueMetrics* va_queue_metrics = nullptr,
             kube::WorkQueueMetrics* pv_queue_metrics = nullptr);

  // Blocks until `stop` is requested: waits until the VolumeAttachment and
  // PersistentVolume stores hold a complete list, then runs the workers of
  // both queues. On stop: the queues take no new work, in-flight syncs
  // finish, Run returns.
  void Run(std::stop_token stop);

  // Whether Run() has seen both stores complete and started the VolumeAttachment workers.
  bool HasSynced() const;
  // Blocks until HasSynced() or `stop`; returns HasSynced(). Lets whatever
  // reads the stores on its own (the reconciler) start on complete caches.
  bool WaitForCacheSync(std::stop_token stop) const;

  // Queues a VolumeAttachment by name for a sync (the reconciler's entry), in
  // the lane its cached object calls for.
  void EnqueueVolumeAttachment(const std::string& name);

  // For the workqueue gauges read at scrape time.
  const kube::WorkQueue& volume_attachment_queue() const { return volume_attachments_.queue(); }
  const kube::WorkQueue& persistent_volume_queue() const { return persistent_volumes_.queue(); }

 private:
  kube::ReconcileResult SyncVolumeAttachment(
      const std::string& name, const kube::Controller<kube::VolumeAttachment>::Ptr& va);
  kube::ReconcileResult SyncPersistentVolume(
      const std::string& name, const kube::Controller<kube::PersistentVolume>::Ptr& pv);

  const std::string driver_name_;
  const std::string finalizer_;
  Handler& handler_;
  kube::Controller<kube::VolumeAttachment> volume_attachments_;
  kube::Controller<kube::PersistentVolume> persistent_volumes_;
};

}  // namespace attacher
