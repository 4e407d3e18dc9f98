#include "snapshotter/sidecar_metrics.h"

namespace snapshotter {

SidecarMetrics::SidecarMetrics() {
  content_queue();  // the queue's series exist (at 0) before the controller starts
}

SidecarMetrics::SidecarMetrics(component::SidecarMetricFamilies& shared) : families_(shared) {
  content_queue();
}

void SidecarMetrics::SetDriverName(const std::string& name) {
  families_->operations().SetDriverName(name, /*migrated_label=*/false);
}

kube::WorkQueueMetrics& SidecarMetrics::content_queue() {
  return families_->queues().ForQueue(std::string(ContentController::kQueueName));
}

kube::WorkQueueMetrics& SidecarMetrics::group_content_queue() {
  return families_->queues().ForQueue(std::string(GroupContentController::kQueueName));
}

component::ScrapeRegistrations SidecarMetrics::WatchController(
    const ContentController& controller, const GroupContentController* groups) {
  std::vector<const kube::WorkQueue*> queues = {&controller.queue()};
  if (groups != nullptr) queues.push_back(&groups->queue());
  return families_->queues().Watch(std::move(queues));
}

}  // namespace snapshotter
