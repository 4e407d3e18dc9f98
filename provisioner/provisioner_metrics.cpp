#include "provisioner/provisioner_metrics.h"

#include "metrics/process_collector.h"

namespace provisioner {
namespace {

// Prometheus' DefBuckets.
const std::vector<double> kDefaultBuckets = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

double Seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

ProvisionerMetrics::ProvisionerMetrics()
    : leader_election_(component::AddLeaderElectionMetrics(registry_)),
      provisions_(registry_.AddCounter(
          {.name = "controller_persistentvolumeclaim_provision_total",
           .help = "Total number of persistent volumes provisioned successfully. Broken down by "
                   "storage class name and source of the claim.",
           .label_names = {"class", "source"}})),
      provision_failures_(registry_.AddCounter(
          {.name = "controller_persistentvolumeclaim_provision_failed_total",
           .help = "Total number of persistent volume provision failed attempts. Broken down by "
                   "storage class name and source of the claim.",
           .label_names = {"class", "source"}})),
      provision_durations_(registry_.AddHistogram(
          {.name = "controller_persistentvolumeclaim_provision_duration_seconds",
           .help = "Latency in seconds to provision persistent volumes. Failed provisioning "
                   "attempts are ignored. Broken down by storage class name and source of the "
                   "claim.",
           .label_names = {"class", "source"}},
          kDefaultBuckets)),
      deletes_(registry_.AddCounter(
          {.name = "controller_persistentvolume_delete_total",
           .help = "Total number of persistent volumes deleted successfully. Broken down by "
                   "storage class name.",
           .label_names = {"class"}})),
      delete_failures_(registry_.AddCounter(
          {.name = "controller_persistentvolume_delete_failed_total",
           .help = "Total number of persistent volume delete failed attempts. Broken down by "
                   "storage class name.",
           .label_names = {"class"}})),
      delete_durations_(registry_.AddHistogram(
          {.name = "controller_persistentvolume_delete_duration_seconds",
           .help = "Latency in seconds to delete persistent volumes. Failed deletion attempts "
                   "are ignored. Broken down by storage class name.",
           .label_names = {"class"}},
          kDefaultBuckets)) {
  claim_queue();  // the queues' series exist (at 0) before the controllers start
  volume_queue();
  metrics::RegisterProcessCollector(registry_);
}

void ProvisionerMetrics::SetDriverName(const std::string& name) {
  operations_.SetDriverName(name, /*migrated_label=*/false);
}

kube::WorkQueueMetrics& ProvisionerMetrics::claim_queue() {
  return queues_.ForQueue(std::string(kClaimQueueName));
}

kube::WorkQueueMetrics& ProvisionerMetrics::volume_queue() {
  return queues_.ForQueue(std::string(kVolumeQueueName));
}

component::ScrapeRegistrations ProvisionerMetrics::WatchQueues(
    std::vector<const kube::WorkQueue*> queues) {
  return queues_.Watch(std::move(queues));
}

void ProvisionerMetrics::ProvisionSucceeded(const std::string& storage_class,
                                            const std::string& source,
                                            std::chrono::nanoseconds took) {
  provisions_.WithLabels({storage_class, source}).Inc();
  provision_durations_.WithLabels({storage_class, source}).Observe(Seconds(took));
}

void ProvisionerMetrics::ProvisionFailed(const std::string& storage_class,
                                         const std::string& source) {
  provision_failures_.WithLabels({storage_class, source}).Inc();
}

void ProvisionerMetrics::DeleteSucceeded(const std::string& storage_class,
                                         std::chrono::nanoseconds took) {
  deletes_.WithLabels({storage_class}).Inc();
  delete_durations_.WithLabels({storage_class}).Observe(Seconds(took));
}

void ProvisionerMetrics::DeleteFailed(const std::string& storage_class) {
  delete_failures_.WithLabels({storage_class}).Inc();
}

}  // namespace provisioner
