#include "provisioner/provisioner_metrics.h"

#include "migration/drivers.h"

namespace provisioner {
namespace {

// Prometheus' DefBuckets.
const std::vector<double> kDefaultBuckets = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};

double Seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

ProvisionerMetrics::ProvisionerMetrics() { AddOwnFamilies(); }

ProvisionerMetrics::ProvisionerMetrics(component::SidecarMetricFamilies& shared)
    : families_(shared) {
  AddOwnFamilies();
}

void ProvisionerMetrics::AddOwnFamilies() {
  metrics::Registry& registry = families_->registry();
  provisions_ = &registry.AddCounter(
      {.name = "controller_persistentvolumeclaim_provision_total",
       .help = "Total number of persistent volumes provisioned successfully. Broken down by "
               "storage class name and source of the claim.",
       .label_names = {"class", "source"}});
  provision_failures_ = &registry.AddCounter(
      {.name = "controller_persistentvolumeclaim_provision_failed_total",
       .help = "Total number of persistent volume provision failed attempts. Broken down by "
               "storage class name and source of the claim.",
       .label_names = {"class", "source"}});
  provision_durations_ = &registry.AddHistogram(
      {.name = "controller_persistentvolumeclaim_provision_duration_seconds",
       .help = "Latency in seconds to provision persistent volumes. Failed provisioning "
               "attempts are ignored. Broken down by storage class name and source of the "
               "claim.",
       .label_names = {"class", "source"}},
      kDefaultBuckets);
  deletes_ = &registry.AddCounter(
      {.name = "controller_persistentvolume_delete_total",
       .help = "Total number of persistent volumes deleted successfully. Broken down by "
               "storage class name.",
       .label_names = {"class"}});
  delete_failures_ = &registry.AddCounter(
      {.name = "controller_persistentvolume_delete_failed_total",
       .help = "Total number of persistent volume delete failed attempts. Broken down by "
               "storage class name.",
       .label_names = {"class"}});
  delete_durations_ = &registry.AddHistogram(
      {.name = "controller_persistentvolume_delete_duration_seconds",
       .help = "Latency in seconds to delete persistent volumes. Failed deletion attempts "
               "are ignored. Broken down by storage class name.",
       .label_names = {"class"}},
      kDefaultBuckets);
  claim_queue();  // the queues' series exist (at 0) before the controllers start
  volume_queue();
}

void ProvisionerMetrics::SetDriverName(const std::string& name) {
  families_->operations().SetDriverName(name, migration::IsMigratedCsiDriverByName(name));
}

kube::WorkQueueMetrics& ProvisionerMetrics::claim_queue() {
  return families_->queues().ForQueue(std::string(kClaimQueueName));
}

kube::WorkQueueMetrics& ProvisionerMetrics::volume_queue() {
  return families_->queues().ForQueue(std::string(kVolumeQueueName));
}

kube::WorkQueueMetrics& ProvisionerMetrics::capacity_queue() {
  return families_->queues().ForQueue(std::string(kCapacityQueueName));
}

component::ScrapeRegistrations ProvisionerMetrics::WatchCapacity(
    std::function<CapacityCounts()> counts) {
  auto gauge = [&](const char* name, const char* help, size_t CapacityCounts::*field) {
    metrics::FunctionFamily& family = families_->registry().AddFunctions(
        {.name = name, .help = help, .stability = metrics::Stability::kAlpha},
        metrics::Type::kGauge);
    return family.Add([counts, field] {
      return std::vector<metrics::Sample>{
          {.label_values = {}, .value = static_cast<double>(counts().*field)}};
    });
  };
  component::ScrapeRegistrations out;
  out.registrations.push_back(
      gauge("csistoragecapacities_desired_goal",
            "Number of CSIStorageCapacity objects that are supposed to be managed automatically.",
            &CapacityCounts::goal));
  out.registrations.push_back(
      gauge("csistoragecapacities_desired_current",
            "Number of CSIStorageCapacity objects that exist and are supposed to be managed "
            "automatically.",
            &CapacityCounts::current));
  out.registrations.push_back(gauge(
      "csistoragecapacities_obsolete",
      "Number of CSIStorageCapacity objects that exist and will be deleted automatically. Objects "
      "that exist and may need an update are not considered obsolete and therefore not included "
      "in this value.",
      &CapacityCounts::obsolete));
  return out;
}

component::ScrapeRegistrations ProvisionerMetrics::WatchQueues(
    std::vector<const kube::WorkQueue*> queues) {
  return families_->queues().Watch(std::move(queues));
}

void ProvisionerMetrics::ProvisionSucceeded(const std::string& storage_class,
                                            const std::string& source,
                                            std::chrono::nanoseconds took) {
  provisions_->WithLabels({storage_class, source}).Inc();
  provision_durations_->WithLabels({storage_class, source}).Observe(Seconds(took));
}

void ProvisionerMetrics::ProvisionFailed(const std::string& storage_class,
                                         const std::string& source) {
  provision_failures_->WithLabels({storage_class, source}).Inc();
}

void ProvisionerMetrics::DeleteSucceeded(const std::string& storage_class,
                                         std::chrono::nanoseconds took) {
  deletes_->WithLabels({storage_class}).Inc();
  delete_durations_->WithLabels({storage_class}).Observe(Seconds(took));
}

void ProvisionerMetrics::DeleteFailed(const std::string& storage_class) {
  delete_failures_->WithLabels({storage_class}).Inc();
}

}  // namespace provisioner
