// Attacher: the last step of startup (docs/attacher.md §1.4 "handler → run").
// Built on an InformerSet - the attacher's own, or one csi-sidecars shares
// between its controllers - it takes the caches, the handler the driver's
// capabilities call for (CsiHandler with PUBLISH_UNPUBLISH_VOLUME, else
// TrivialHandler), the Controller and, when the driver can also list
// published volumes, the Reconciler. Building registers its event handlers;
// Run() runs them until `stop` and returns once all have stopped, with
// in-flight CSI calls finished. The queues and caches report to
// `attacher_metrics` while they run; failed attaches and detaches also become
// Warning Events on their VolumeAttachment (kube/tools/event_recorder.h).
//
// RunController is the separate binary's whole run: its own InformerSet, an
// Attacher on it, both run until `stop`.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>

#include "attacher/attacher_metrics.h"
#include "attacher/controller.h"
#include "attacher/kubernetes_api.h"
#include "attacher/reconciler.h"
#include "component/sidecar_startup.h"
#include "csi/controller_client.h"
#include "kube/client/client.h"
#include "kube/runtime/informer_set.h"

namespace attacher {

// What the attacher's flags and feature gates decide (docs/attacher.md §1.1).
struct RunControllerOptions {
  std::chrono::nanoseconds timeout{std::chrono::seconds(15)};  // one CSI call
  std::string default_fstype;
  ControllerOptions controller;
  int32_t max_entries = 0;  // per ListVolumes page; 0 = no limit
  std::chrono::nanoseconds reconcile_sync{std::chrono::minutes(1)};
  bool error_code_enabled = true;  // gate MutableCSINodeAllocatableCount
};

class Attacher {
 public:
  // `client`, `informers`, `driver` and `attacher_metrics` must outlive it.
  Attacher(const RunControllerOptions& options, const component::CsiDriver& driver,
           kube::Client& client, kube::InformerSet& informers, AttacherMetrics& attacher_metrics);
  ~Attacher();
  Attacher(const Attacher&) = delete;
  Attacher& operator=(const Attacher&) = delete;

  void Run(std::stop_token stop);

 private:
  struct Parts;
  std::unique_ptr<Parts> parts_;
};

void RunController(const RunControllerOptions& options, const component::CsiDriver& driver,
                   kube::Client& client, AttacherMetrics& attacher_metrics, std::stop_token stop);

}  // namespace attacher
