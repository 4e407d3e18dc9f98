#include "cmd/csi-attacher/metrics_wiring.h"

#include <chrono>
#include <string_view>

#include "attacher/names.h"
#include "cmd/csi-attacher/va_census.h"
#include "csi/errors.h"
#include "metrics/process_collector.h"
#include "migration/drivers.h"

namespace csiattacher {
namespace {

using metrics::Stability;

constexpr std::string_view kOperationsName = "csi_sidecar_operations_seconds";
constexpr std::string_view kOperationsHelp =
    "Container Storage Interface operation duration with gRPC error code status total";

metrics::HistogramFamily& AddOperations(metrics::Registry& registry, bool migrated) {
  std::vector<std::string> labels = {"driver_name", "method_name", "grpc_status_code"};
  if (migrated) labels.push_back("migrated");
  return registry.AddHistogram(
      {std::string(kOperationsName), std::string(kOperationsHelp), Stability::kAlpha, labels},
      {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25, 50, 120, 300, 600});
}

metrics::Desc QueueDesc(std::string name, std::string help) {
  return {std::move(name), std::move(help), Stability::kBeta, {"name"}};
}

}  // namespace

// The workqueue_* families of one queue, children looked up once.
class AttacherMetrics::QueueMetrics final : public kube::WorkQueueMetrics {
 public:
  struct Families {
    metrics::GaugeFamily& depth;
    metrics::CounterFamily& adds;
    metrics::HistogramFamily& queue_duration;
    metrics::HistogramFamily& work_duration;
    metrics::CounterFamily& retries;
  };
  QueueMetrics(const Families& families, const std::string& name)
      : depth_(families.depth.WithLabels({name})),
        adds_(families.adds.WithLabels({name})),
        queue_duration_(families.queue_duration.WithLabels({name})),
        work_duration_(families.work_duration.WithLabels({name})),
        retries_(families.retries.WithLabels({name})) {}

  void OnAdd() override { adds_.Inc(); }
  void OnDepth(size_t depth) override { depth_.Set(static_cast<double>(depth)); }
  void OnQueueLatency(double seconds) override { queue_duration_.Observe(seconds); }
  void OnWorkDuration(double seconds) override { work_duration_.Observe(seconds); }
  void OnRetry() override { retries_.Inc(); }

 private:
  metrics::Gauge& depth_;
  metrics::Counter& adds_;
  metrics::Histogram& queue_duration_;
  metrics::Histogram& work_duration_;
  metrics::Counter& retries_;
};

AttacherMetrics::AttacherMetrics() : operations_(&AddOperations(registry_, false)) {
  std::vector<double> queue_buckets = metrics::ExponentialBuckets(10e-9, 10, 10);
  QueueMetrics::Families families{
      registry_.AddGauge(QueueDesc("workqueue_depth", "Current depth of workqueue")),
      registry_.AddCounter(
          QueueDesc("workqueue_adds_total", "Total number of adds handled by workqueue")),
      registry_.AddHistogram(
          QueueDesc("workqueue_queue_duration_seconds",
                    "How long in seconds an item stays in workqueue before being requested."),
          queue_buckets),
      registry_.AddHistogram(
          QueueDesc("workqueue_work_duration_seconds",
                    "How long in seconds processing an item from workqueue takes."),
          queue_buckets),
      registry_.AddCounter(
          QueueDesc("workqueue_retries_total", "Total number of retries handled by workqueue")),
  };
  va_queue_ = std::make_unique<QueueMetrics>(
      families, std::string(attacher::Controller::kVolumeAttachmentQueueName));
  pv_queue_ = std::make_unique<QueueMetrics>(
      families, std::string(attacher::Controller::kPersistentVolumeQueueName));
  unfinished_work_ = &registry_.AddFunctions(
      QueueDesc("workqueue_unfinished_work_seconds",
                "How many seconds of work has done that is in progress and hasn't been observed "
                "by work_duration. Large values indicate stuck threads. One can deduce the number "
                "of stuck threads by observing the rate at which this increases."),
      metrics::Type::kGauge);
  longest_running_ = &registry_.AddFunctions(
      QueueDesc("workqueue_longest_running_processor_seconds",
                "How many seconds has the longest running processor for workqueue been running."),
      metrics::Type::kGauge);

  master_status_ = &registry_
                        .AddGauge({"leader_election_master_status",
                                   "Gauge of if the reporting system is master of the relevant "
                                   "lease, 0 indicates backup, 1 indicates master. 'name' is the "
                                   "string used to identify the lease. Please make sure to group "
                                   "by name.",
                                   Stability::kAlpha,
                                   {"name"}})
                        .WithLabels({""});
  slowpath_total_ = &registry_
                         .AddCounter({"leader_election_slowpath_total",
                                      "Total number of slow path exercised in renewing leader "
                                      "leases. 'name' is the string used to identify the lease. "
                                      "Please make sure to group by name.",
                                      Stability::kAlpha,
                                      {"name"}})
                         .WithLabels({""});

  oldest_pending_ = &registry_.AddFunctions(
      {"csi_attacher_oldest_pending_volumeattachment_seconds",
       "Age of the oldest VolumeAttachment of this driver still waiting to be attached (since "
       "creation) or detached (since deletion); 0 when none is pending.",
       Stability::kAlpha},
      metrics::Type::kGauge);
  attachments_by_state_ = &registry_.AddFunctions(
      {"csi_attacher_volumeattachments",
       "Number of VolumeAttachments of this driver by state: attached, attaching, detaching, "
       "failed (attach or detach error recorded).",
       Stability::kAlpha,
       {"state"}},
      metrics::Type::kGauge);

  metrics::RegisterProcessCollector(registry_);
}

AttacherMetrics::~AttacherMetrics() = default;

kube::WorkQueueMetrics& AttacherMetrics::volume_attachment_queue() { return *va_queue_; }

kube::WorkQueueMetrics& AttacherMetrics::persistent_volume_queue() { return *pv_queue_; }

csi::MetricsHook AttacherMetrics::CsiHook() {
  return [this](const csi::CallRecord& call) { Record(call); };
}

void AttacherMetrics::SetDriverName(const std::string& name) {
  std::lock_guard lock(mu_);
  driver_name_ = name;
  if (migration::IsMigratedCsiDriverByName(name) && !migration_driver_) {
    // Upstream starts a fresh, migrated-labelled manager here, dropping the
    // series recorded so far.
    registry_.Remove(std::string(kOperationsName));
    operations_ = &AddOperations(registry_, true);
    migration_driver_ = true;
  }
}

void AttacherMetrics::Record(const csi::CallRecord& call) {
  std::lock_guard lock(mu_);
  metrics::LabelValues labels = {driver_name_, std::string(call.method), csi::CodeName(call.code)};
  if (migration_driver_) labels.push_back(call.migrated ? "true" : "false");
  operations_->WithLabels(labels).Observe(call.seconds);
}

ControllerGauges AttacherMetrics::WatchController(
    const attacher::Controller& controller,
    const kube::Store<kube::VolumeAttachment>& volume_attachments, const std::string& driver_name) {
  using metrics::Sample;
  const kube::WorkQueue* queues[] = {&controller.volume_attachment_queue(),
                                     &controller.persistent_volume_queue()};
  ControllerGauges gauges;
  gauges.registrations.push_back(unfinished_work_->Add([queues] {
    std::vector<Sample> samples;
    for (const kube::WorkQueue* q : queues) {
      samples.push_back({{q->name()}, q->UnfinishedWorkSeconds()});
    }
    return samples;
  }));
  gauges.registrations.push_back(longest_running_->Add([queues] {
    std::vector<Sample> samples;
    for (const kube::WorkQueue* q : queues) {
      samples.push_back({{q->name()}, q->LongestRunningProcessorSeconds()});
    }
    return samples;
  }));
  auto census = [&volume_attachments, driver_name,
                 finalizer = attacher::FinalizerFor(driver_name)] {
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

base::Result<std::unique_ptr<metrics::HttpServer>> StartHttpServer(
    const Options& options, AttacherMetrics& attacher_metrics) {
  base::Result<std::unique_ptr<metrics::HttpServer>> server =
      metrics::HttpServer::Start(HttpAddress(options));
  if (!server.ok()) return server.error();
  metrics::Registry& registry = attacher_metrics.registry();
  (*server)->Handle(options.metrics_path, [&registry] {
    return metrics::HttpResponse{200, registry.Expose(),
                                 "text/plain; version=0.0.4; charset=utf-8"};
  });
  return server;
}

}  // namespace csiattacher
