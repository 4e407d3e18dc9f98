// livenessprobe end to end (docs/node-sidecars.md §6): the real binary against the
// e2e mock driver and the fault-injecting driver.
#include <gmock/gmock.h>

#include "tests/integration/node/node_fixture.h"

namespace node_it {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

// §6.3: a healthy driver is 200 "ok"; §6.4: the start-up GetPluginInfo and
// every Probe are in csi_sidecar_operations_seconds on --http-endpoint.
TEST_F(NodeSidecarTest, LivenessHealthyMockDriverIs200AndProbesAreMetered) {
  StartMockDriver("mock.csi.test");
  const int port = FreePort();
  auto probe = StartLivenessProbe({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(probe);
  HttpAnswer answer = AwaitAnswer(port, "/healthz", 200, 10s);
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "ok");
  HttpAnswer metrics = Get(port, "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_THAT(metrics.body,
              HasSubstr("csi_sidecar_operations_seconds_count{driver_name=\"mock.csi.test\","
                        "grpc_status_code=\"OK\",method_name=\"/csi.v1.Identity/Probe\"}"));
  EXPECT_THAT(metrics.body, HasSubstr("method_name=\"/csi.v1.Identity/GetPluginInfo\""));
  EXPECT_THAT(metrics.body, HasSubstr("process_start_time_seconds"));
  EXPECT_TRUE(probe->IsRunning());
}

// §9.5: /healthz answers 500 from the start while the driver is missing (upstream:
// connection refused), and 200 once the driver is up; no crash loop (#236).
TEST_F(NodeSidecarTest, LivenessAnswers500BeforeTheDriverAnd200After) {
  const int port = FreePort();
  auto probe = StartLivenessProbe({"--health-port=" + std::to_string(port)});
  ASSERT_TRUE(probe);
  HttpAnswer answer = AwaitAnswer(port, "/healthz", 500, 5s);
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "driver not connected yet");
  StartFaultDriver("fault.csi.test");
  answer = AwaitAnswer(port, "/healthz", 200, 10s);
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "ok");
}

// §6.3: a hung Probe is 500 within --probe-timeout; ready=false is 500 with
// upstream's body; a driver that went away is 500 (fresh connection per
// request, #68) and one that comes back is 200 again.
TEST_F(NodeSidecarTest, LivenessFaultDriverHungNotReadyAndGone) {
  StartFaultDriver("fault.csi.test");
  const int port = FreePort();
  auto probe = StartLivenessProbe(
      {"--http-endpoint=127.0.0.1:" + std::to_string(port), "--probe-timeout=1s"});
  ASSERT_TRUE(probe);
  ASSERT_EQ(AwaitAnswer(port, "/healthz", 200, 10s).status, 200);

  WriteFaults(R"({"Probe": [{"hang": true}]})");
  auto start = std::chrono::steady_clock::now();
  HttpAnswer answer = Get(port, "/healthz");
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  EXPECT_GE(took, 900ms);
  EXPECT_LT(took, 2500ms);

  WriteFaults(R"({"Probe": [{"ready": false}]})");
  answer = Get(port, "/healthz");
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "driver responded but is not ready");

  WriteFaults(R"({"Probe": [{"code": "FAILED_PRECONDITION", "message": "disk gone"}]})");
  answer = Get(port, "/healthz");
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "rpc error: code = FailedPrecondition desc = disk gone");

  WriteFaults("{}");
  EXPECT_EQ(Get(port, "/healthz").status, 200);
  driver_->Kill();
  answer = Get(port, "/healthz");
  EXPECT_EQ(answer.status, 500);
  StartFaultDriver("fault.csi.test");
  EXPECT_EQ(AwaitAnswer(port, "/healthz", 200, 10s).status, 200);
  EXPECT_TRUE(probe->IsRunning());
}

// §6.2, §6.4: the deprecated --metrics-address serves the metrics on a server
// of its own; the health port then has /healthz only.
TEST_F(NodeSidecarTest, LivenessMetricsAddressServesMetricsApart) {
  StartMockDriver("mock.csi.test");
  const int health_port = FreePort();
  const int metrics_port = FreePort();
  auto probe = StartLivenessProbe({"--health-port=" + std::to_string(health_port),
                                   "--metrics-address=127.0.0.1:" + std::to_string(metrics_port),
                                   "--metrics-path=/m"});
  ASSERT_TRUE(probe);
  ASSERT_EQ(AwaitAnswer(health_port, "/healthz", 200, 10s).status, 200);
  HttpAnswer metrics = Get(metrics_port, "/m");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_THAT(metrics.body, HasSubstr("method_name=\"/csi.v1.Identity/Probe\""));
  EXPECT_EQ(Get(health_port, "/m").status, 404);
  EXPECT_EQ(Get(metrics_port, "/healthz").status, 404);
}

// §6.2 quirk, §9.4: a port it cannot listen on is exit 1 (upstream: 0).
TEST_F(NodeSidecarTest, LivenessExitsOneWhenItCannotListen) {
  const int port = FreePort();
  auto first = StartLivenessProbe({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(first);
  ASSERT_EQ(AwaitAnswer(port, "/healthz", 500, 5s).status, 500);
  auto second = StartLivenessProbe({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(second);
  EXPECT_EQ(AwaitExit(*second, 5s), 1);
}

// §6.1: --version is not a flag of livenessprobe (exit 2).
TEST_F(NodeSidecarTest, LivenessHasNoVersionFlag) {
  auto probe = StartLivenessProbe({"--version"});
  ASSERT_TRUE(probe);
  EXPECT_EQ(AwaitExit(*probe, 5s), 2);
}

}  // namespace
}  // namespace node_it
