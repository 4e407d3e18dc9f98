#include "snapshotter/sidecar_metrics.h"

#include "metrics/process_collector.h"

namespace snapshotter {

SidecarMetrics::SidecarMetrics()
    : leader_election_(component::AddLeaderElectionMetrics(registry_)) {
  content_queue();  // the queue's series exist (at 0) before the controller starts
  metrics::RegisterProcessCollector(registry_);
}

void SidecarMetrics::SetDriverName(const std::string& name) {
  operations_.SetDriverName(name, /*migrated_label=*/false);
}

kube::WorkQueueMetrics& SidecarMetrics::content_queue() {
  return queues_.ForQueue(std::string(ContentController::kQueueName));
}

kube::WorkQueueMetrics& SidecarMetrics::group_content_queue() {
  return queues_.ForQueue(std::string(GroupContentController::kQueueName));
}

component::ScrapeRegistrations SidecarMetrics::WatchController(
    const ContentController& controller, const GroupContentController* groups) {
  std::vector<const kube::WorkQueue*> queues = {&controller.queue()};
  if (groups != nullptr) queues.push_back(&groups->queue());
  return queues_.Watch(std::move(queues));
}

}  // namespace snapshotter
