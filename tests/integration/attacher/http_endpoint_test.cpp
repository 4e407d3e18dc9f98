// Issue 18: an attacker on the pod network holding 1,000 half-sent requests
// open must not take down /metrics or the liveness probe on
// /healthz/leader-election (a failing probe restarts a healthy leader). The
// real binary, with --http-endpoint and leader election, keeps answering
// both within a second, drops a slow header at the header timeout and
// answers a 1 MB header with 431 while it goes on serving.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "metrics/http_limits.h"
#include "tests/integration/attacher/attacher_fixture.h"
#include "tests/support/free_port.h"
#include "tests/support/raw_http_client.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;
using testsupport::RawHttpClient;

constexpr int kIdleConnections = 1000;

// Room for the idle connections next to everything else the test holds.
bool RaiseOpenFileLimit(rlim_t wanted) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur >= wanted) return true;
  limit.rlim_cur = std::min(wanted, limit.rlim_max);
  return setrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur >= wanted;
}

// The response to GET `path` and how long it took; "" when no answer came
// within the client's safety bound.
std::pair<std::string, SteadyClock::duration> TimedGet(int port, const std::string& path) {
  const auto start = SteadyClock::now();
  RawHttpClient client(port);
  std::string response;
  if (client.Send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) {
    response = client.ReadResponse();
  }
  return {response, SteadyClock::now() - start};
}

bool IsOk(const std::string& response) { return response.rfind("HTTP/1.1 200 OK\r\n", 0) == 0; }

TEST_F(AttacherTest, HttpEndpointServesUnderThousandIdleConnections) {
  ASSERT_TRUE(RaiseOpenFileLimit(kIdleConnections + 512));
  const std::string driver = "mock-http.csi.example.com";
  base::Result<int> port = testsupport::PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.error().message;
  StartMockDriver(driver, 0);
  StartAttacher({"--http-endpoint=127.0.0.1:" + std::to_string(*port), "--leader-election",
                 "--leader-election-namespace=default"});
  const auto ready_by = SteadyClock::now() + 60s;
  while (!IsOk(TimedGet(*port, "/healthz/leader-election").first) &&
         SteadyClock::now() < ready_by) {
    ASSERT_TRUE(attacher_->IsRunning()) << AttacherLog();
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(IsOk(TimedGet(*port, "/healthz/leader-election").first)) << AttacherLog();

  auto idle = testsupport::OpenWaitingClients(
      *port, kIdleConnections, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait: ");
  ASSERT_EQ(idle.size(), static_cast<size_t>(kIdleConnections));
  for (std::string path : {"/metrics", "/healthz/leader-election"}) {
    auto [response, took] = TimedGet(*port, path);
    EXPECT_TRUE(IsOk(response)) << path << ": " << response;
    EXPECT_LT(took, 1s) << path;
  }

  // A header that never ends is dropped at the header timeout, not before.
  const auto slow_start = SteadyClock::now();
  RawHttpClient slow(*port);
  ASSERT_TRUE(slow.Send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
  EXPECT_TRUE(slow.AwaitClosed());
  EXPECT_GE(SteadyClock::now() - slow_start, metrics::HttpServerLimits{}.header_timeout);

  RawHttpClient huge(*port);
  huge.Send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: " + std::string(1 << 20, 'a'));
  std::string rejected;
  huge.AwaitClosed(&rejected);
  EXPECT_TRUE(rejected.empty() || rejected.rfind("HTTP/1.1 431 ", 0) == 0) << rejected;

  EXPECT_TRUE(IsOk(TimedGet(*port, "/metrics").first));
  EXPECT_TRUE(IsOk(TimedGet(*port, "/healthz/leader-election").first));
  EXPECT_TRUE(attacher_->IsRunning()) << AttacherLog();
}

}  // namespace
}  // namespace attacher_it
