// liveness::HealthProbe and AnswerFor: /healthz answers (docs/node-sidecars.md §6.3, §9.5).
#include "liveness/health_probe.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "csi/errors.h"
#include "tests/unit/csi/fake_driver.h"

namespace liveness {
namespace {

using namespace std::chrono_literals;

struct AnswerCase {
  std::string name;
  base::Result<bool> probe;
  int status;
  std::string body;
};

// §6.3's table: status and body (no newline) for each probe outcome.
TEST(HealthProbeAnswerTest, StatusAndBodyFollowUpstreamForEachOutcome) {
  const std::vector<AnswerCase> cases = {
      {"ready", true, 200, "ok"},
      {"not ready", false, 500, "driver responded but is not ready"},
      {"probe failed", csi::ErrorFromStatus(grpc::Status(grpc::StatusCode::INTERNAL, "boom")), 500,
       "rpc error: code = Internal desc = boom"},
      {"connect failed", base::Error::Transport("context deadline exceeded"), 500,
       "context deadline exceeded"},
  };
  for (const AnswerCase& c : cases) {
    metrics::HttpResponse answer = AnswerFor(c.probe);
    EXPECT_EQ(answer.status, c.status) << c.name;
    EXPECT_EQ(answer.body, c.body) << c.name;
  }
}

class HealthProbeTest : public ::testing::Test {
 protected:
  csi::testing::FakeDriver driver_;
  std::vector<std::string> methods_;
  std::mutex mu_;
  csi::MetricsHook Hook() {
    return [this](const csi::CallRecord& call) {
      std::lock_guard lock(mu_);
      methods_.emplace_back(call.method);
    };
  }
};

// §9.5: before the driver named itself /healthz answers 500, not "connection refused".
TEST_F(HealthProbeTest, AnswersNotConnectedYetUntilTheDriverIsNamed) {
  driver_.Start();
  HealthProbe probe(driver_.socket_path(), 1s, Hook());
  metrics::HttpResponse answer = probe.Check();
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "driver not connected yet");
  EXPECT_TRUE(methods_.empty()) << "no Probe before the driver is named";
  probe.DriverNamed();
  EXPECT_EQ(probe.Check().status, 200);
}

// §6.3: a missing `ready` means ready; each request probes afresh and is recorded.
TEST_F(HealthProbeTest, ProbesTheDriverOnEveryRequest) {
  int calls = 0;
  driver_.probe = [&](grpc::ServerContext*, const csi::v1::ProbeRequest&, csi::v1::ProbeResponse*) {
    ++calls;
    return grpc::Status::OK;
  };
  driver_.Start();
  HealthProbe probe(driver_.socket_path(), 1s, Hook());
  probe.DriverNamed();
  EXPECT_EQ(probe.Check().body, "ok");
  EXPECT_EQ(probe.Check().body, "ok");
  EXPECT_EQ(calls, 2);
  EXPECT_THAT(methods_, ::testing::ElementsAre("/csi.v1.Identity/Probe", "/csi.v1.Identity/Probe"));
}

// §6.3: ready=false is 500 with upstream's body.
TEST_F(HealthProbeTest, NotReadyIs500WithUpstreamsBody) {
  driver_.probe = [](grpc::ServerContext*, const csi::v1::ProbeRequest&,
                     csi::v1::ProbeResponse* response) {
    response->mutable_ready()->set_value(false);
    return grpc::Status::OK;
  };
  driver_.Start();
  HealthProbe probe(driver_.socket_path(), 1s, Hook());
  probe.DriverNamed();
  metrics::HttpResponse answer = probe.Check();
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "driver responded but is not ready");
}

// §6.3: a hung Probe ends with --probe-timeout, 500.
TEST_F(HealthProbeTest, HungProbeIs500WithinProbeTimeout) {
  driver_.probe = [](grpc::ServerContext* context, const csi::v1::ProbeRequest&,
                     csi::v1::ProbeResponse*) {
    csi::testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  driver_.Start();
  HealthProbe probe(driver_.socket_path(), 300ms, Hook());
  probe.DriverNamed();
  auto start = std::chrono::steady_clock::now();
  metrics::HttpResponse answer = probe.Check();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
}

// §6.3, upstream #68: a fresh connection per request, so a vanished socket is 500.
TEST_F(HealthProbeTest, NoSocketIs500WithinProbeTimeout) {
  HealthProbe probe(driver_.socket_path(), 300ms, Hook());  // never started
  probe.DriverNamed();
  auto start = std::chrono::steady_clock::now();
  metrics::HttpResponse answer = probe.Check();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "context deadline exceeded");
}

}  // namespace
}  // namespace liveness
