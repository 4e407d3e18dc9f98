// The metrics endpoint of the real binary (docs/attacher.md §4; §7 real driver
// name; #706 backlog gauges) after an attach through the e2e mock driver.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace attacher_it {
namespace {

using testsupport::HttpGet;
// The value of the first sample line starting with `prefix`, or -1.
double SampleValue(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) return std::stod(line.substr(line.rfind(' ') + 1));
  }
  return -1;
}

constexpr char kLongestRunningPv[] =
    "workqueue_longest_running_processor_seconds{name=\"csi-attacher-pv\"}";

// GETs /metrics until `settled` holds for the body or 30 s pass; the last response.
std::string ScrapeUntil(int port, const std::function<bool(const std::string&)>& settled) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::string response = HttpGet(port, "/metrics");
  while (!settled(testsupport::HttpBody(response)) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    response = HttpGet(port, "/metrics");
  }
  return response;
}

TEST_F(AttacherTest, MetricsEndpointReportsCsiCallsQueuesProcessAndBacklog) {
  const std::string driver = "mock-metrics.csi.example.com";
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  StartMockDriver(driver, 1);
  CreateCsiNode("node-metrics", driver, driver);
  CreatePv(CsiPv("pv-metrics", driver, "4"));
  StartAttacher({"--http-endpoint=127.0.0.1:" + std::to_string(*port)});
  CreateVa("va-metrics", driver, "pv-metrics", "node-metrics");
  auto va =
      AwaitVa("va-metrics", [](const kube::VolumeAttachment& v) { return v.status.attached; });
  ASSERT_TRUE(va && va->status.attached) << AttacherLog();

  // The gauges read the attacher's own cache and queues, which see the attach
  // after the API server does: scrape until they have settled.
  std::string response = ScrapeUntil(*port, [](const std::string& body) {
    return SampleValue(body, "csi_attacher_volumeattachments{state=\"attached\"}") == 1 &&
           SampleValue(body, "csi_attacher_oldest_pending_volumeattachment_seconds ") == 0 &&
           SampleValue(body, kLongestRunningPv) == 0;
  });
  ASSERT_EQ(response.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << response << AttacherLog();
  const std::string text = response.substr(response.find("\r\n\r\n") + 4);

  EXPECT_NE(text.find("# HELP csi_sidecar_operations_seconds [ALPHA] Container Storage "
                      "Interface operation duration with gRPC error code status total\n"),
            std::string::npos);
  EXPECT_GE(SampleValue(text, "csi_sidecar_operations_seconds_count{driver_name=\"" + driver +
                                  "\",grpc_status_code=\"OK\",method_name=\"/csi.v1.Controller/"
                                  "ControllerPublishVolume\"}"),
            1)
      << text;
  EXPECT_EQ(text.find("unknown-driver\",grpc_status_code=\"OK\",method_name=\"/csi.v1.Controller"),
            std::string::npos)
      << "controller calls must carry the real driver name";
  EXPECT_GE(SampleValue(text, "workqueue_adds_total{name=\"csi-attacher-va\"}"), 1) << text;
  EXPECT_NE(text.find("# HELP workqueue_adds_total [BETA] "), std::string::npos);
  EXPECT_EQ(SampleValue(text, kLongestRunningPv), 0) << "no PV sync left running";
  EXPECT_GT(SampleValue(text, "process_resident_memory_bytes "), 0) << text;
  EXPECT_EQ(SampleValue(text, "leader_election_master_status{name=\"\"}"), 0);
  EXPECT_EQ(SampleValue(text, "csi_attacher_oldest_pending_volumeattachment_seconds "), 0) << text;
  EXPECT_EQ(SampleValue(text, "csi_attacher_volumeattachments{state=\"attached\"}"), 1) << text;
  EXPECT_EQ(SampleValue(text, "csi_attacher_volumeattachments{state=\"attaching\"}"), 0);

  EXPECT_EQ(HttpGet(*port, "/healthz/leader-election").rfind("HTTP/1.1 404 ", 0), 0u);
  EXPECT_EQ(HttpGet(*port, "/unknown").rfind("HTTP/1.1 404 ", 0), 0u);
}

}  // namespace
}  // namespace attacher_it
