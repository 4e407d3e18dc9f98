// Exposition in the Prometheus text format 0.0.4 (docs/attacher.md §4).
#include "metrics/registry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "metrics/text_format.h"

namespace metrics {
namespace {

TEST(TextFormatTest, FormatsValuesLikeGo) {
  EXPECT_EQ(FormatValue(0), "0");
  EXPECT_EQ(FormatValue(3), "3");
  EXPECT_EQ(FormatValue(0.1), "0.1");
  EXPECT_EQ(FormatValue(2.5), "2.5");
  EXPECT_EQ(FormatValue(600), "600");
  EXPECT_EQ(FormatValue(123456), "123456");
  EXPECT_EQ(FormatValue(23232512), "2.3232512e+07");
  EXPECT_EQ(FormatValue(1e-8), "1e-08");
  EXPECT_EQ(FormatValue(0.0001), "0.0001");
  EXPECT_EQ(FormatValue(1.0 / 0.0), "+Inf");
  EXPECT_EQ(FormatValue(-1.0 / 0.0), "-Inf");
}

TEST(TextFormatTest, WorkqueueBucketsPrintAsUpstreamDoes) {
  std::vector<double> b = ExponentialBuckets(10e-9, 10, 10);
  ASSERT_EQ(b.size(), 10u);
  EXPECT_EQ(FormatValue(b[0]), "1e-08");
  EXPECT_EQ(FormatValue(b[9]), "10");
}

TEST(RegistryTest, CounterWithHelpStabilityAndSortedChildren) {
  Registry registry;
  CounterFamily& c =
      registry.AddCounter({"workqueue_adds_total", "Total adds", Stability::kBeta, {"name"}});
  c.WithLabels({"b"}).Inc();
  c.WithLabels({"a"}).Inc(2);
  c.WithLabels({"b"}).Inc();
  EXPECT_EQ(registry.Expose(),
            "# HELP workqueue_adds_total [BETA] Total adds\n"
            "# TYPE workqueue_adds_total counter\n"
            "workqueue_adds_total{name=\"a\"} 2\n"
            "workqueue_adds_total{name=\"b\"} 2\n");
}

TEST(RegistryTest, GaugeWithoutLabelsAndFamiliesSortedByName) {
  Registry registry;
  registry.AddGauge({"zeta", "Last."}).WithLabels({}).Set(1.5);
  registry.AddGauge({"alpha", "First.", Stability::kAlpha}).WithLabels({}).Set(-2);
  EXPECT_EQ(registry.Expose(),
            "# HELP alpha [ALPHA] First.\n"
            "# TYPE alpha gauge\n"
            "alpha -2\n"
            "# HELP zeta Last.\n"
            "# TYPE zeta gauge\n"
            "zeta 1.5\n");
}

TEST(RegistryTest, FamiliesWithoutSamplesAreOmitted) {
  Registry registry;
  registry.AddCounter({"empty_total", "Nothing yet.", Stability::kAlpha, {"x"}});
  EXPECT_EQ(registry.Expose(), "");
}

TEST(RegistryTest, HistogramBucketsSumCountAndLabelNamesSorted) {
  Registry registry;
  HistogramFamily& h = registry.AddHistogram(
      {"op_seconds", "Durations.", Stability::kAlpha, {"method", "code"}}, {0.1, 1});
  Histogram& child = h.WithLabels({"/a", "OK"});
  child.Observe(0.05);
  child.Observe(0.5);
  child.Observe(1);
  child.Observe(7);
  EXPECT_EQ(registry.Expose(),
            "# HELP op_seconds [ALPHA] Durations.\n"
            "# TYPE op_seconds histogram\n"
            "op_seconds_bucket{code=\"OK\",method=\"/a\",le=\"0.1\"} 1\n"
            "op_seconds_bucket{code=\"OK\",method=\"/a\",le=\"1\"} 3\n"
            "op_seconds_bucket{code=\"OK\",method=\"/a\",le=\"+Inf\"} 4\n"
            "op_seconds_sum{code=\"OK\",method=\"/a\"} 8.55\n"
            "op_seconds_count{code=\"OK\",method=\"/a\"} 4\n");
}

TEST(RegistryTest, EscapesLabelValuesAndHelp) {
  Registry registry;
  registry.AddGauge({"g", "a\\b\nc", Stability::kNone, {"l"}})
      .WithLabels({"q\"uote\\back\nline"})
      .Set(1);
  EXPECT_EQ(registry.Expose(),
            "# HELP g a\\\\b\\nc\n"
            "# TYPE g gauge\n"
            "g{l=\"q\\\"uote\\\\back\\nline\"} 1\n");
}

TEST(RegistryTest, FunctionFamilyIsEvaluatedAtScrapeTimeUntilUnregistered) {
  Registry registry;
  FunctionFamily& f =
      registry.AddFunctions({"depth", "Depth.", Stability::kBeta, {"name"}}, Type::kGauge);
  double value = 1;
  FunctionFamily::Registration r = f.Add([&value] { return std::vector<Sample>{{{"q"}, value}}; });
  value = 4;
  EXPECT_EQ(registry.Expose(),
            "# HELP depth [BETA] Depth.\n"
            "# TYPE depth gauge\n"
            "depth{name=\"q\"} 4\n");
  r.Reset();
  EXPECT_EQ(registry.Expose(), "");
}

TEST(RegistryTest, DuplicateNamesAndWrongArityAreProgrammingErrors) {
  Registry registry;
  CounterFamily& c = registry.AddCounter({"c_total", "C.", Stability::kNone, {"a"}});
  EXPECT_THROW(registry.AddGauge({"c_total", "again"}), std::logic_error);
  EXPECT_THROW(c.WithLabels({}), std::logic_error);
}

TEST(RegistryTest, RemoveDropsTheFamily) {
  Registry registry;
  registry.AddGauge({"g", "G."}).WithLabels({}).Set(1);
  registry.Remove("g");
  EXPECT_EQ(registry.Expose(), "");
  registry.AddGauge({"g", "G again."});
}

// A scrape must not stall the controller: while one is rendering (held inside
// a scrape-time function here), registering, removing, creating children and
// updating all go ahead. The work runs on its own thread with a generous
// bound so a regression fails instead of deadlocking the test.
TEST(RegistryTest, ScrapeInProgressDoesNotBlockUpdatesRegistrationOrRemoval) {
  Registry registry;
  CounterFamily& calls = registry.AddCounter({"calls_total", "Calls.", Stability::kNone, {"m"}});
  registry.AddGauge({"removed", "Removed."}).WithLabels({}).Set(1);
  std::promise<void> rendering;
  std::promise<void> finish_rendering;
  std::shared_future<void> may_finish = finish_rendering.get_future().share();
  FunctionFamily::Registration slow =
      registry.AddFunctions({"m_slow", "Slow."}, Type::kGauge).Add([&rendering, may_finish] {
        rendering.set_value();
        may_finish.wait();
        return std::vector<Sample>{{{}, 1}};
      });
  std::string exposition;
  std::thread scrape([&registry, &exposition] { exposition = registry.Expose(); });
  rendering.get_future().wait();

  std::future<void> worker = std::async(std::launch::async, [&registry, &calls] {
    calls.WithLabels({"new"}).Inc();
    registry.AddGauge({"added", "Added."}).WithLabels({}).Set(2);
    registry.Remove("removed");
  });
  const bool worker_done = worker.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  finish_rendering.set_value();
  scrape.join();
  EXPECT_TRUE(worker_done) << "a scrape in progress blocked the registry";
  worker.wait();
  EXPECT_NE(exposition.find("m_slow 1\n"), std::string::npos) << exposition;
  slow.Reset();
  const std::string after = registry.Expose();
  EXPECT_NE(after.find("calls_total{m=\"new\"} 1\n"), std::string::npos) << after;
  EXPECT_NE(after.find("added 2\n"), std::string::npos) << after;
  EXPECT_EQ(after.find("removed"), std::string::npos) << after;
}

}  // namespace
}  // namespace metrics
