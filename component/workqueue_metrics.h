// WorkQueueMetricFamilies: client-go's workqueue_* metrics (BETA, label
// "name") on one registry, for any number of named queues:
//   - depth, adds_total, queue_duration_seconds, work_duration_seconds and
//     retries_total, fed by the queue through kube::WorkQueueMetrics;
//   - unfinished_work_seconds and longest_running_processor_seconds,
//     computed at scrape time from the queues being watched.
//
// Thread-safety: every method may be called from any thread. The object must
// outlive the queues using its observers; the registry must outlive it.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kube/runtime/work_queue.h"
#include "metrics/registry.h"

namespace component {

// Scrape-time gauges; they disappear when this is destroyed, which must
// happen before what they read goes.
struct ScrapeRegistrations {
  std::vector<metrics::FunctionFamily::Registration> registrations;
};

class WorkQueueMetricFamilies {
 public:
  explicit WorkQueueMetricFamilies(metrics::Registry& registry);
  ~WorkQueueMetricFamilies();
  WorkQueueMetricFamilies(const WorkQueueMetricFamilies&) = delete;
  WorkQueueMetricFamilies& operator=(const WorkQueueMetricFamilies&) = delete;

  // A new observer for one queue called `name` (its series appear at once,
  // 0). Queues of one name share their series, as client-go's do: counts
  // and depths add up.
  kube::WorkQueueMetrics& ForQueue(const std::string& name);

  // Reports the scrape-time gauges of `queues` while the result lives.
  [[nodiscard]] ScrapeRegistrations Watch(std::vector<const kube::WorkQueue*> queues);

 private:
  class QueueMetrics;

  metrics::GaugeFamily& depth_;
  metrics::CounterFamily& adds_;
  metrics::HistogramFamily& queue_duration_;
  metrics::HistogramFamily& work_duration_;
  metrics::CounterFamily& retries_;
  metrics::FunctionFamily& unfinished_work_;
  metrics::FunctionFamily& longest_running_;
  std::mutex mu_;  // guards queues_
  std::vector<std::unique_ptr<QueueMetrics>> queues_;
};

}  // namespace component
