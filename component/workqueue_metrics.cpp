#include "component/workqueue_metrics.h"

#include <algorithm>
#include <atomic>
#include <map>

namespace component {
namespace {

metrics::Desc QueueDesc(std::string name, std::string help) {
  return {std::move(name), std::move(help), metrics::Stability::kBeta, {"name"}};
}

std::vector<double> QueueBuckets() { return metrics::ExponentialBuckets(10e-9, 10, 10); }

std::vector<metrics::Sample> Samples(const std::map<std::string, double>& by_name) {
  std::vector<metrics::Sample> samples;
  for (const auto& [name, value] : by_name) samples.push_back({{name}, value});
  return samples;
}

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
  // Queues sharing a name share the series: each adds what its own depth
  // changed by.
  void OnDepth(size_t depth) override {
    depth_.Add(static_cast<double>(depth) - static_cast<double>(last_depth_.exchange(depth)));
  }
  void OnQueueLatency(double seconds) override { queue_duration_.Observe(seconds); }
  void OnWorkDuration(double seconds) override { work_duration_.Observe(seconds); }
  void OnRetry() override { retries_.Inc(); }

 private:
  metrics::Gauge& depth_;
  std::atomic<size_t> last_depth_{0};
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
  return *queues_.emplace_back(std::make_unique<QueueMetrics>(*this, name));
}

ScrapeRegistrations WorkQueueMetricFamilies::Watch(std::vector<const kube::WorkQueue*> queues) {
  ScrapeRegistrations watch;
  // Queues sharing a name give one sample: their unfinished work summed,
  // their longest running processor the longest.
  watch.registrations.push_back(unfinished_work_.Add([queues] {
    std::map<std::string, double> by_name;
    for (const kube::WorkQueue* q : queues)
      by_name[std::string(q->name())] += q->UnfinishedWorkSeconds();
    return Samples(by_name);
  }));
  watch.registrations.push_back(longest_running_.Add([queues] {
    std::map<std::string, double> by_name;
    for (const kube::WorkQueue* q : queues) {
      double& longest = by_name[std::string(q->name())];
      longest = std::max(longest, q->LongestRunningProcessorSeconds());
    }
    return Samples(by_name);
  }));
  return watch;
}

}  // namespace component
