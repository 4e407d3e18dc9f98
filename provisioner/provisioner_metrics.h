// ProvisionerMetrics: every metric the csi-provisioner exposes
// (docs/provisioner.md §6), in one registry served on --http-endpoint /
// --metrics-address:
//   - controller_persistentvolumeclaim_provision_{total,failed_total,
//     duration_seconds}{class,source} and controller_persistentvolume_delete_
//     {total,failed_total,duration_seconds}{class}, the provisioning
//     library's names and help texts (duration: successes only, Prometheus'
//     default buckets);
//   - csi_sidecar_operations_seconds (component/csi_operation_metrics.h);
//   - workqueue_* for the claims and volumes queues, present (at 0) from the
//     start, and csistoragecapacity's with capacity tracking; leader_election_*;
//     process_*;
//   - with capacity tracking, csistoragecapacities_desired_goal,
//     csistoragecapacities_desired_current and csistoragecapacities_obsolete
//     (ALPHA gauges, §5).
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the CSI connection using CsiHook() and the queues using
// claim_queue() / volume_queue().
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "component/leader_election_metrics.h"
#include "component/sidecar_metric_families.h"
#include "component/workqueue_metrics.h"
#include "kube/runtime/work_queue.h"
#include "metrics/registry.h"

namespace provisioner {

inline constexpr std::string_view kClaimQueueName = "claims";
inline constexpr std::string_view kVolumeQueueName = "volumes";
inline constexpr std::string_view kCapacityQueueName = "csistoragecapacity";

// Capacity tracking's gauges: its work items, those with an object, and
// managed objects that match no item.
struct CapacityCounts {
  size_t goal = 0;
  size_t current = 0;
  size_t obsolete = 0;
};

class ProvisionerMetrics {
 public:
  ProvisionerMetrics();
  // Adds the provisioner's own families to `shared` (csi-sidecars), which
  // must outlive this object.
  explicit ProvisionerMetrics(component::SidecarMetricFamilies& shared);
  ProvisionerMetrics(const ProvisionerMetrics&) = delete;
  ProvisionerMetrics& operator=(const ProvisionerMetrics&) = delete;

  metrics::Registry& registry() { return families_->registry(); }
  csi::MetricsHook CsiHook() { return families_->operations().Hook(); }
  // Later CSI calls carry `name`; for a CSI migration target (§3.13) also
  // the `migrated` label, as upstream's WithMigration.
  void SetDriverName(const std::string& name);

  kube::WorkQueueMetrics& claim_queue();
  kube::WorkQueueMetrics& volume_queue();
  kube::WorkQueueMetrics& capacity_queue();
  component::LeaderElectionMetrics leader_election() { return families_->LeaderElectionFor(""); }
  // The queues' scrape-time gauges, while the result lives.
  [[nodiscard]] component::ScrapeRegistrations WatchQueues(
      std::vector<const kube::WorkQueue*> queues);
  // Adds the three capacity gauges, read from `counts` at each scrape while
  // the result lives. Once per process.
  [[nodiscard]] component::ScrapeRegistrations WatchCapacity(
      std::function<CapacityCounts()> counts);

  // `source` is the claim's dataSource kind, or "".
  void ProvisionSucceeded(const std::string& storage_class, const std::string& source,
                          std::chrono::nanoseconds took);
  void ProvisionFailed(const std::string& storage_class, const std::string& source);
  void DeleteSucceeded(const std::string& storage_class, std::chrono::nanoseconds took);
  void DeleteFailed(const std::string& storage_class);

 private:
  void AddOwnFamilies();

  component::OwnOrSharedFamilies families_;
  metrics::CounterFamily* provisions_ = nullptr;
  metrics::CounterFamily* provision_failures_ = nullptr;
  metrics::HistogramFamily* provision_durations_ = nullptr;
  metrics::CounterFamily* deletes_ = nullptr;
  metrics::CounterFamily* delete_failures_ = nullptr;
  metrics::HistogramFamily* delete_durations_ = nullptr;
};

}  // namespace provisioner
