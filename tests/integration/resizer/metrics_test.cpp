// What the HTTP endpoint of upstream's resizer and ours serve
// (docs/resizer.md §7): the CSI call histogram under the driver's name, the
// queue "<driver>-pvc", and /healthz/leader-election while leading.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace resizer_it {
namespace {

using nlohmann::json;

// Whether a line of `body` starts with `family` + "{" and holds every label
// of `labels` (each `name="value"`), whatever their order.
bool HasSeries(const std::string& body, const std::string& family,
               const std::vector<std::string>& labels) {
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(family + "{")) continue;
    bool all = true;
    for (const std::string& label : labels) all = all && line.find(label) != std::string::npos;
    if (all) return true;
  }
  return false;
}

// The body of a raw response, its chunks joined when it came chunked (Go's
// server chunks a long /metrics answer).
std::string BodyOf(const std::string& response) {
  std::string body = testsupport::HttpBody(response);
  const std::string head = response.substr(0, response.size() - body.size());
  if (head.find("Transfer-Encoding: chunked") == std::string::npos) return body;
  std::string joined;
  size_t at = 0;
  while (at < body.size()) {
    const size_t line_end = body.find("\r\n", at);
    if (line_end == std::string::npos) break;
    const size_t size = std::stoul(body.substr(at, line_end - at), nullptr, 16);
    if (size == 0) break;
    joined += body.substr(line_end + 2, size);
    at = line_end + 2 + size + 2;  // the chunk and its CRLF
  }
  return joined;
}

class MetricsTest : public ResizerTest {};

TEST_P(MetricsTest, EndpointServesCallsQueueAndLeaderHealth) {
  const std::string driver = DriverFor("metrics");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver));
  const std::string volume = CreateDriverVolume(Own("metrics"), int64_t{1} << 30);
  ASSERT_NO_FATAL_FAILURE(CreateExpandableClass(Own("metrics"), driver));
  ASSERT_TRUE(CreateBoundClaim({.name = Own("metrics"),
                                .storage_class = Own("metrics"),
                                .driver = driver,
                                .volume_handle = volume})
                  .is_object());
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  ASSERT_NE(StartResizer({"--http-endpoint=127.0.0.1:" + std::to_string(*port), "--leader-election",
                          "--leader-election-namespace=default"}),
            nullptr);
  ASSERT_TRUE(RequestSize(Own("metrics"), "2Gi").ok());
  json done = AwaitClaim(Own("metrics"), [](const json& c) {
    return StatusString(c, "/status/capacity/storage") == "2Gi";
  });
  ASSERT_EQ(StatusString(done, "/status/capacity/storage"), "2Gi") << done.dump();

  std::string body;
  const bool served = testsupport::PollUntil(
      [&] {
        body = BodyOf(testsupport::HttpGet(*port, "/metrics"));
        return HasSeries(body, "csi_sidecar_operations_seconds_count",
                         {"driver_name=\"" + driver + "\"", "grpc_status_code=\"OK\"",
                          "method_name=\"/csi.v1.Controller/ControllerExpandVolume\""});
      },
      kResizeAwait);
  EXPECT_TRUE(served) << body;
  EXPECT_TRUE(HasSeries(body, "workqueue_adds_total", {"name=\"" + driver + "-pvc\""})) << body;
  EXPECT_NE(testsupport::HttpGet(*port, "/healthz/leader-election").find(" 200 "),
            std::string::npos);
}

INSTANTIATE_RESIZER_PAIRS(MetricsTest);

}  // namespace
}  // namespace resizer_it
