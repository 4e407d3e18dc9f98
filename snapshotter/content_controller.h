// ContentControllerOf<Kind>: the csi-snapshotter's informers, work queue and
// workers for one content kind (docs/snapshots.md §3.3, §3.8), composed from
// kube::Informer and kube::WorkerPool; what is the sidecar's own is which
// events (the kind's event filters), which lane, and the two requeue
// cadences. Two kinds share it:
//   - ContentController: VolumeSnapshotContents and VolumeSnapshotClasses,
//     queue "csi-snapshotter-content" (content_event_filters.h);
//   - GroupContentController: VolumeGroupSnapshotContents and
//     VolumeGroupSnapshotClasses, queue
//     "csi-snapshotter-groupsnapshotcontent" (group_content_event_filters.h).
//
// Run() keeps the content and class stores current, turns the content events
// that matter into names on the queue, and runs worker_threads workers on
// it. A worker hands the content of a name, as the store holds it when the
// sync starts (the newest version this process knows; there is no second
// store that could drop an update as stale, §9.12), to the handler; contents
// of other drivers (IsDriverMatch) and contents gone from the store are
// skipped. What the handler answers decides when the name comes back:
//   - an error: after the error backoff, retry_interval_start doubling up to
//     retry_interval_max (upstream's), in the lane the content then needs;
//   - kPollReadiness: after the readiness cadence (§9.2), which starts at
//     retry_interval_start and doubles up to 30 s (or retry_interval_max when
//     that is lower). Only these answers move it: the handler's own writes
//     cause no sync (§9.3), so they never lengthen it, and errors neither
//     reset nor advance it. The error backoff is forgotten, as after every
//     sync that succeeded;
//   - kDone: both are forgotten; the name comes back on its next change or
//     resync.
// Contents that need action take the urgent lane (snapshot::ContentLane, §9.5). The
// queue never hands one name to two workers at once.
//
// Both kinds are instantiated in content_controller.cpp; no other.
//
// Thread-safety: Run() may be called once (the queue cannot restart after
// stop); queue() from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "component/loop_options.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/rate_limiter.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
#include "kube/runtime/worker_pool.h"
#include "snapshotter/content_handler.h"

namespace snapshotter {

// The two kinds the sidecar syncs: the content, its class, and the queue.
struct SnapshotContentKind {
  using Content = kube::VolumeSnapshotContent;
  using Class = kube::VolumeSnapshotClass;
  static constexpr std::string_view kQueueName = "csi-snapshotter-content";
};
struct GroupContentKind {
  using Content = kube::VolumeGroupSnapshotContent;
  using Class = kube::VolumeGroupSnapshotClass;
  static constexpr std::string_view kQueueName = "csi-snapshotter-groupsnapshotcontent";
};

// --worker-threads, --retry-interval-start, --retry-interval-max and
// --resync-period (0 = never).
using ContentControllerOptions = component::LoopOptions;

template <class Kind>
class ContentControllerOf {
 public:
  using Content = typename Kind::Content;
  using Class = typename Kind::Class;

  static constexpr std::string_view kQueueName = Kind::kQueueName;
  // The readiness cadence's cap, unless retry_interval_max is lower (§9.2).
  static constexpr std::chrono::milliseconds kReadinessPollCap{30000};

  // `handler` must outlive the controller; so must `queue_metrics`, which may
  // be null. The stores are the caller's, so the handler reads the very
  // classes this controller keeps current; they must outlive it too.
  ContentControllerOf(std::string driver_name, ContentHandlerOf<Content>& handler,
                      kube::Store<Content>& contents, kube::Store<Class>& classes,
                      ContentControllerOptions options, base::Clock& clock,
                      kube::WorkQueueMetrics* queue_metrics = nullptr);

  // Blocks until `stop` is requested. Starts one reflector per kind, waits
  // until both stores hold a complete list, then starts the workers. On
  // stop: the queue takes no new work, in-flight syncs finish (their CSI
  // calls included), the reflectors stop, Run returns.
  void Run(kube::ListerWatcher<Content>& contents, kube::ListerWatcher<Class>& classes,
           std::stop_token stop);

  // For the workqueue gauges read at scrape time.
  const kube::WorkQueue& queue() const { return workers_.queue(); }

 private:
  class ContentChanges;

  base::Status SyncContent(const std::string& name);
  // IsDriverMatch with the content's class from the store.
  bool IsOurs(const Content& content) const;
  // ContentLane of the stored content; normal once it is gone.
  kube::WorkQueue::Lane LaneOf(const std::string& name) const;

  const std::string driver_name_;
  ContentHandlerOf<Content>& handler_;
  kube::Store<Content>& contents_;
  kube::Store<Class>& classes_;
  const ContentControllerOptions options_;
  base::Clock& clock_;
  kube::ItemExponentialRateLimiter readiness_;  // per-name readiness cadence
  kube::WorkerPool workers_;
};

extern template class ContentControllerOf<SnapshotContentKind>;
extern template class ContentControllerOf<GroupContentKind>;

using ContentController = ContentControllerOf<SnapshotContentKind>;
using GroupContentController = ContentControllerOf<GroupContentKind>;

}  // namespace snapshotter
