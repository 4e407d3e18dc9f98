// component/workqueue_metrics.h: queues that share a name (the resizer's
// resize and modify queues, both "<driver>-pvc", as upstream's) share their
// series: depths and adds add up, and the scrape-time gauges give one sample
// per name.
#include "component/workqueue_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/clock.h"

namespace component {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

TEST(WorkQueueMetricFamiliesTest, QueuesSharingANameAddTheirDepthsAndAdds) {
  metrics::Registry registry;
  WorkQueueMetricFamilies families(registry);
  base::FakeClock clock;
  kube::WorkQueue resize("d-pvc", clock, 10ms, 1s, &families.ForQueue("d-pvc"));
  kube::WorkQueue modify("d-pvc", clock, 10ms, 1s, &families.ForQueue("d-pvc"));
  ScrapeRegistrations gauges = families.Watch({&resize, &modify});
  resize.Add("ns/a");
  resize.Add("ns/b");
  modify.Add("ns/a");
  const std::string text = registry.Expose();
  EXPECT_THAT(text, HasSubstr("workqueue_depth{name=\"d-pvc\"} 3\n")) << text;
  EXPECT_THAT(text, HasSubstr("workqueue_adds_total{name=\"d-pvc\"} 3\n")) << text;
  EXPECT_THAT(text, HasSubstr("workqueue_unfinished_work_seconds{name=\"d-pvc\"} 0\n")) << text;
  // One sample per name, not one per queue.
  const std::string sample = "workqueue_longest_running_processor_seconds{name=\"d-pvc\"}";
  const size_t first = text.find(sample);
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find(sample, first + 1), std::string::npos) << text;
}

}  // namespace
}  // namespace component
