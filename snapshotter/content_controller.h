// ContentControllerOf<Kind>: the csi-snapshotter's controller of one content
// kind (docs/snapshots.md §3.3, §3.8); what is the sidecar's own is which
// events (the kind's event filters), which lane, and the readiness cadence. Two kinds share it:
//   - ContentController: VolumeSnapshotContents and VolumeSnapshotClasses,
//     queue "csi-snapshotter-content" (content_event_filters.h);
//   - GroupContentController: VolumeGroupSnapshotContents and
//     VolumeGroupSnapshotClasses, queue
//     "csi-snapshotter-groupsnapshotcontent" (group_content_event_filters.h).
//
// Built on the generic runtime (kube/runtime/controller.h): the content
// informer (with the --node-deployment label selector) and the class
// informer come from the process's InformerSet. The content events that
// matter - adds, updates that count (the kind's event filters) and resyncs
// of contents of this driver (IsDriverMatch, with the class from the
// store), and deletions - queue the name; the class is only read. A
// reconcile hands the content, as the store holds it when it starts (the
// newest version this process knows; there is no second store that could
// drop an update as stale, §9.12), to the handler; contents of other
// drivers and contents gone from the store are done. What the handler
// answers decides when the name comes back:
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
#include <memory>
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
#include "kube/runtime/controller.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"
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

  // `handler` and `informers` must outlive the controller; so must
  // `queue_metrics`, which may be null. Contents are watched with
  // `label_selector`; the handler reads the classes from `informers` too.
  ContentControllerOf(std::string driver_name, ContentHandlerOf<Content>& handler,
                      kube::InformerSet& informers, ContentControllerOptions options,
                      base::Clock& clock, kube::WorkQueueMetrics* queue_metrics = nullptr,
                      std::string_view label_selector = {});

  // Blocks until `stop` is requested: waits until the content and class
  // stores hold a complete list, then runs the workers. On stop: the queue
  // takes no new work, in-flight syncs finish (their CSI calls included),
  // Run returns.
  void Run(std::stop_token stop) { controller_.Run(stop); }

  // For the workqueue gauges read at scrape time.
  const kube::WorkQueue& queue() const { return controller_.queue(); }

 private:
  kube::ReconcileResult SyncContent(const std::string& name,
                                    const std::shared_ptr<const Content>& content);
  // IsDriverMatch with the content's class from the store.
  bool IsOurs(const Content& content) const;

  const std::string driver_name_;
  ContentHandlerOf<Content>& handler_;
  kube::Store<Class>& classes_;
  kube::Controller<Content> controller_;
};

extern template class ContentControllerOf<SnapshotContentKind>;
extern template class ContentControllerOf<GroupContentKind>;

using ContentController = ContentControllerOf<SnapshotContentKind>;
using GroupContentController = ContentControllerOf<GroupContentKind>;

}  // namespace snapshotter
