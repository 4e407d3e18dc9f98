// SidecarMetricFamilies: the metric families every CSI sidecar serves, on one
// registry: csi_sidecar_operations_seconds (fed by the CSI connection's
// hook), workqueue_*, leader_election_* and process_*. A sidecar's own
// metrics object (AttacherMetrics, ProvisionerMetrics, ...) adds its families
// to the registry of one it owns or, in csi-sidecars, of one shared by all
// the process's controllers, so one endpoint serves every family once.
//
// Thread-safety: every method may be called from any thread. The object
// must outlive the connection using Hook() and the queues using observers.
#pragma once

#include <memory>
#include <string>

#include "component/csi_operation_metrics.h"
#include "component/leader_election_metrics.h"
#include "component/workqueue_metrics.h"
#include "metrics/registry.h"

namespace component {

class SidecarMetricFamilies {
 public:
  SidecarMetricFamilies();
  SidecarMetricFamilies(const SidecarMetricFamilies&) = delete;
  SidecarMetricFamilies& operator=(const SidecarMetricFamilies&) = delete;

  metrics::Registry& registry() { return registry_; }
  CsiOperationMetrics& operations() { return operations_; }
  WorkQueueMetricFamilies& queues() { return queues_; }

  // The series of one Lease, labelled name=`lease` (a separate sidecar's
  // single series has name=""), made on first use, 0 until its elector
  // reports.
  LeaderElectionMetrics LeaderElectionFor(const std::string& lease);

 private:
  metrics::Registry registry_;
  CsiOperationMetrics operations_{registry_};
  WorkQueueMetricFamilies queues_{registry_};
  metrics::GaugeFamily& master_status_;
  metrics::CounterFamily& slowpath_total_;
};

// The families a sidecar's metrics object adds to: its own (a separate
// sidecar, whose leader-election series name="" exist from the start) or
// ones shared by the process.
class OwnOrSharedFamilies {
 public:
  OwnOrSharedFamilies() : owned_(std::make_unique<SidecarMetricFamilies>()), families_(*owned_) {
    families_.LeaderElectionFor("");
  }
  explicit OwnOrSharedFamilies(SidecarMetricFamilies& shared) : families_(shared) {}

  SidecarMetricFamilies* operator->() const { return &families_; }

 private:
  std::unique_ptr<SidecarMetricFamilies> owned_;  // null when shared
  SidecarMetricFamilies& families_;
};

}  // namespace component
