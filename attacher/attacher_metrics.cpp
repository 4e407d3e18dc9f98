#include "attacher/attacher_metrics.h"

#include <chrono>

#include "attacher/names.h"
#include "attacher/va_census.h"
#include "migration/drivers.h"

namespace attacher {

AttacherMetrics::AttacherMetrics() { AddOwnFamilies(); }

AttacherMetrics::AttacherMetrics(component::SidecarMetricFamilies& shared) : families_(shared) {
  AddOwnFamilies();
}

void AttacherMetrics::AddOwnFamilies() {
  metrics::Registry& registry = families_->registry();
  oldest_pending_ = &registry.AddFunctions(
      {"csi_attacher_oldest_pending_volumeattachment_seconds",
       "Age of the oldest VolumeAttachment of this driver still waiting to be attached (since "
       "creation) or detached (since deletion); 0 when none is pending.",
       metrics::Stability::kAlpha},
      metrics::Type::kGauge);
  attachments_by_state_ = &registry.AddFunctions(
      {"csi_attacher_volumeattachments",
       "Number of VolumeAttachments of this driver by state: attached, attaching, detaching, "
       "failed (attach or detach error recorded).",
       metrics::Stability::kAlpha,
       {"state"}},
      metrics::Type::kGauge);
  // The queues' series exist (at 0) before the controller starts.
  volume_attachment_queue();
  persistent_volume_queue();
}

void AttacherMetrics::SetDriverName(const std::string& name) {
  families_->operations().SetDriverName(name, migration::IsMigratedCsiDriverByName(name));
}

kube::WorkQueueMetrics& AttacherMetrics::volume_attachment_queue() {
  return families_->queues().ForQueue(std::string(Controller::kVolumeAttachmentQueueName));
}

kube::WorkQueueMetrics& AttacherMetrics::persistent_volume_queue() {
  return families_->queues().ForQueue(std::string(Controller::kPersistentVolumeQueueName));
}

component::ScrapeRegistrations AttacherMetrics::WatchController(
    const Controller& controller, const kube::Store<kube::VolumeAttachment>& volume_attachments,
    const std::string& driver_name) {
  using metrics::Sample;
  component::ScrapeRegistrations gauges = families_->queues().Watch(
      {&controller.volume_attachment_queue(), &controller.persistent_volume_queue()});
  auto census = [&volume_attachments, driver_name, finalizer = FinalizerFor(driver_name)] {
    return TakeVolumeAttachmentCensus(volume_attachments.List(), driver_name, finalizer,
                                      std::chrono::system_clock::now());
  };
  gauges.registrations.push_back(oldest_pending_->Add([census] {
    return std::vector<Sample>{{{}, census().oldest_pending_seconds}};
  }));
  gauges.registrations.push_back(attachments_by_state_->Add([census] {
    VolumeAttachmentCensus c = census();
    return std::vector<Sample>{{{"attached"}, c.attached},
                               {{"attaching"}, c.attaching},
                               {{"detaching"}, c.detaching},
                               {{"failed"}, c.failed}};
  }));
  return gauges;
}

}  // namespace attacher
