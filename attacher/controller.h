// Controller: the attacher's informers, work queues and workers
// (docs/attacher.md §5.1), composed from kube::Informer and kube::WorkerPool;
// what is the attacher's own is which kinds, which events (event_filters.h),
// which sync and which lane.
//
// Run() keeps the VolumeAttachment, PersistentVolume and (CSI handler only)
// CSINode stores current, turns the events that matter into object names on
// two queues, "csi-attacher-va" and "csi-attacher-pv", and runs worker_threads
// workers on each. A worker syncs one name at a time through the Handler:
// success forgets the name's backoff; an error logs and requeues it after
// retry_interval_start * 2^failures, capped at retry_interval_max. The queue
// never hands one name to two workers at once; different names (even of the
// same volume) sync concurrently. VolumeAttachments of other drivers are
// cached and queued but skipped at sync, as upstream does. Attachments still
// to be attached take the VolumeAttachment queue's urgent lane
// (VolumeAttachmentLane), so they overtake queued detaches without starving
// them (kube::WorkQueue's burst rule; #761).
//
// The stores are owned by the caller so the handler (and the reconciler) read
// the very caches this controller fills; they must outlive the controller.
//
// Thread-safety: every method may be called from any thread. Run() may be
// called once (its queues cannot restart after shutdown).
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>

#include "attacher/handler.h"
#include "base/clock.h"
#include "base/notification.h"
#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "kube/runtime/worker_pool.h"

namespace attacher {

struct ControllerOptions {
  uint32_t worker_threads = 10;                          // --worker-threads, per queue
  std::chrono::milliseconds retry_interval_start{1000};  // --retry-interval-start
  std::chrono::milliseconds retry_interval_max{300000};  // --retry-interval-max
  std::chrono::milliseconds resync_period{600000};       // --resync; 0 = never
};

class Controller {
 public:
  static constexpr std::string_view kVolumeAttachmentQueueName = "csi-attacher-va";
  static constexpr std::string_view kPersistentVolumeQueueName = "csi-attacher-pv";

  // `handler` must outlive the controller; so must the metrics observers,
  // which may be null.
  Controller(std::string driver_name, Handler& handler,
             kube::Store<kube::VolumeAttachment>& volume_attachments,
             kube::Store<kube::PersistentVolume>& persistent_volumes,
             kube::Store<kube::CSINode>& csi_nodes, ControllerOptions options, base::Clock& clock,
             kube::WorkQueueMetrics* va_queue_metrics = nullptr,
             kube::WorkQueueMetrics* pv_queue_metrics = nullptr);

  // Blocks until `stop` is requested. Starts one reflector per kind (no CSINode
  // reflector when `csi_nodes` is null: the trivial handler never reads
  // CSINodes), waits until the VolumeAttachment and PersistentVolume stores
  // hold a complete list (CSINodes may lag: an attach missing its node ID just
  // fails and is retried), then starts the workers. On stop: the queues take
  // no new work, in-flight syncs finish, the reflectors stop, Run returns.
  void Run(kube::ListerWatcher<kube::VolumeAttachment>& volume_attachments,
           kube::ListerWatcher<kube::PersistentVolume>& persistent_volumes,
           kube::ListerWatcher<kube::CSINode>* csi_nodes, std::stop_token stop);

  // Whether Run() has seen the VolumeAttachment and PersistentVolume stores
  // complete and started the workers.
  bool HasSynced() const;
  // Blocks until HasSynced() or `stop`; returns HasSynced(). Lets whatever
  // reads the stores on its own (the reconciler) start on complete caches.
  bool WaitForCacheSync(std::stop_token stop) const;

  // Queues a VolumeAttachment by name for a sync (the reconciler's entry), in
  // the lane its cached object calls for.
  void EnqueueVolumeAttachment(const std::string& name);

  // For the workqueue gauges read at scrape time.
  const kube::WorkQueue& volume_attachment_queue() const { return va_workers_.queue(); }
  const kube::WorkQueue& persistent_volume_queue() const { return pv_workers_.queue(); }

 private:
  base::Status SyncVolumeAttachment(const std::string& name);
  base::Status SyncPersistentVolume(const std::string& name);
  // VolumeAttachmentLane of the cached object; normal once it is gone.
  kube::WorkQueue::Lane VolumeAttachmentLaneOf(const std::string& name) const;

  const std::string driver_name_;
  const std::string finalizer_;
  Handler& handler_;
  kube::Store<kube::VolumeAttachment>& va_store_;
  kube::Store<kube::PersistentVolume>& pv_store_;
  kube::Store<kube::CSINode>& csi_node_store_;
  const ControllerOptions options_;
  base::Clock& clock_;
  kube::WorkerPool va_workers_;
  kube::WorkerPool pv_workers_;
  base::Notification synced_;  // the workers have started
};

}  // namespace attacher
