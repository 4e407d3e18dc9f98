#include "component/workqueue_metrics.h"

namespace component {
namespace {

metrics::Desc QueueDesc(std::string name, std::string help) {
  return {std::move(name), std::move(help), metrics::Stability::kBeta, {"name"}};
}

std::vector<double> QueueBuckets() { return metrics::ExponentialBuckets(10e-9, 10, 10); }

}  // namespace

// The series of one queue, looked up once.
class WorkQueueMetricFamilies::QueueMetrics final : public kube::WorkQueueMetrics {
 public:
  QueueMetrics(WorkQueueMetricFamilies& families, const std::string& name)
      : depth_(families.depth_.WithLabels({name})),
        adds_(families.adds_.WithLabels({name})),
        queue_duration_(families.queue_duration_.WithLabels({name})),
        work_duration_(families.work_duration_.WithLabels({name})),
        retries_(families.retries_.WithLabels({name})) {}

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

WorkQueueMetricFamilies::WorkQueueMetricFamilies(metrics::Registry& registry)
    : depth_(registry.AddGauge(QueueDesc("workqueue_depth", "Current depth of workqueue"))),
      adds_(registry.AddCounter(
          QueueDesc("workqueue_adds_total", "Total number of adds handled by workqueue"))),
      queue_duration_(registry.AddHistogram(
          QueueDesc("workqueue_queue_duration_seconds",
                    "How long in seconds an item stays in workqueue before being requested."),
          QueueBuckets())),
      work_duration_(registry.AddHistogram(
          QueueDesc("workqueue_work_duration_seconds",
                    "How long in seconds processing an item from workqueue takes."),
          QueueBuckets())),
      retries_(registry.AddCounter(
          QueueDesc("workqueue_retries_total", "Total number of retries handled by workqueue"))),
      unfinished_work_(registry.AddFunctions(
          QueueDesc(
              "workqueue_unfinished_work_seconds",
              "How many seconds of work has done that is in progress and hasn't been observed by "
              "work_duration. Large values indicate stuck threads. One can deduce the number of "
              "stuck threads by observing the rate at which this increases."),
          metrics::Type::kGauge)),
      longest_running_(registry.AddFunctions(
          QueueDesc(
              "workqueue_longest_running_processor_seconds",
              "How many seconds has the longest running processor for workqueue been running."),
          metrics::Type::kGauge)) {}

WorkQueueMetricFamilies::~WorkQueueMetricFamilies() = default;

kube::WorkQueueMetrics& WorkQueueMetricFamilies::ForQueue(const std::string& name) {
  std::lock_guard lock(mu_);
  std::unique_ptr<QueueMetrics>& queue = queues_[name];
  if (!queue) queue = std::make_unique<QueueMetrics>(*this, name);
  return *queue;
}

ScrapeRegistrations WorkQueueMetricFamilies::Watch(std::vector<const kube::WorkQueue*> queues) {
  using metrics::Sample;
  ScrapeRegistrations watch;
  watch.registrations.push_back(unfinished_work_.Add([queues] {
    std::vector<Sample> samples;
    for (const kube::WorkQueue* q : queues) {
      samples.push_back({{q->name()}, q->UnfinishedWorkSeconds()});
    }
    return samples;
  }));
  watch.registrations.push_back(longest_running_.Add([queues] {
    std::vector<Sample> samples;
    for (const kube::WorkQueue* q : queues) {
      samples.push_back({{q->name()}, q->LongestRunningProcessorSeconds()});
    }
    return samples;
  }));
  return watch;
}

}  // namespace component
