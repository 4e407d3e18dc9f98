// What the HTTP endpoint of upstream's resizer and ours serve
// (docs/resizer.md §7): the CSI call histogram under the driver's name, the
// queue "<driver>-pvc", and /healthz/leader-election while leading.
#include <gtest/gtest.h>

#include "tests/integration/resizer/resizer_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/http_get.h"

namespace resizer_it {
namespace {

using nlohmann::json;

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

  const std::vector<std::string> expanded = {
      "driver_name=\"" + driver + "\"", "grpc_status_code=\"OK\"",
      "method_name=\"/csi.v1.Controller/ControllerExpandVolume\""};
  const std::string body = AwaitSeries(*port, "csi_sidecar_operations_seconds_count", expanded);
  EXPECT_TRUE(testsupport::HasSeries(body, "csi_sidecar_operations_seconds_count", expanded))
      << body;
  EXPECT_TRUE(testsupport::HasSeries(body, "workqueue_adds_total", {"name=\"" + driver + "-pvc\""}))
      << body;
  EXPECT_NE(testsupport::HttpGet(*port, "/healthz/leader-election").find(" 200 "),
            std::string::npos);
}

INSTANTIATE_RESIZER_PAIRS(MetricsTest);
INSTANTIATE_RESIZER_IN_CSI_SIDECARS(MetricsTest);

}  // namespace
}  // namespace resizer_it
