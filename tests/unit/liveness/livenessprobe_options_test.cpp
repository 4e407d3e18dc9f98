// livenessprobe's flags, their checks and exit codes (docs/node-sidecars.md §6.1, §9.4).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <sstream>

#include "cmd/livenessprobe/options.h"
#include "cmd/livenessprobe/run.h"
#include "tests/support/loopback_listener.h"

namespace livenessprobe {
namespace {

using namespace std::chrono_literals;

Options ParsedLivenessOptions(std::vector<std::string> args) {
  Options options;
  std::ostringstream err;
  base::FlagSet flags("livenessprobe", &err);
  RegisterFlags(flags, options);
  EXPECT_TRUE(flags.Parse(args).ok()) << err.str();
  return options;
}

TEST(LivenessProbeOptionsTest, DefaultsAreUpstreams) {
  Options o = ParsedLivenessOptions({});
  EXPECT_EQ(o.csi_address, "/run/csi/socket");
  EXPECT_EQ(o.probe_timeout, 3s);
  EXPECT_EQ(o.health_port, "9808");
  EXPECT_EQ(o.http_endpoint, "");
  EXPECT_EQ(o.metrics_address, "");
  EXPECT_EQ(o.metrics_path, "/metrics");
  liveness::LivenessOptions l = LivenessOptionsFrom(o);
  EXPECT_EQ(l.health_address, "0.0.0.0:9808");
  EXPECT_FALSE(l.metrics_on_health_server);
}

struct CheckCase {
  std::vector<std::string> args;
  std::string error;  // empty: accepted
};

// §6.1 conflicts (upstream's messages) and §9.4 (a non-numeric port).
TEST(LivenessProbeOptionsTest, ConflictsAndBadPortsAreRefused) {
  const std::vector<CheckCase> cases = {
      {{"--http-endpoint=:9000"}, ""},
      {{"--health-port=9808", "--http-endpoint=:9000"}, ""},
      {{"--health-port=9809", "--http-endpoint=:9000"},
       "Only one of `--health-port` and `--http-endpoint` can be explicitly set"},
      {{"--metrics-address=:9001", "--http-endpoint=:9000"},
       "Only one of `--metrics-address` and `--http-endpoint` can be explicitly set"},
      {{"--metrics-address=:9001"}, ""},
      {{"--health-port=abc"}, "--health-port must be a port number, got \"abc\""},
      {{"--health-port=70000"}, "--health-port must be a port number, got \"70000\""},
      {{"--health-port=0"}, ""},
  };
  for (const CheckCase& c : cases) {
    base::Status s = CheckOptions(ParsedLivenessOptions(c.args));
    EXPECT_EQ(s.ok() ? "" : s.error().message, c.error) << ::testing::PrintToString(c.args);
  }
}

// --http-endpoint replaces the health address and carries the metrics.
TEST(LivenessProbeOptionsTest, HttpEndpointServesHealthAndMetrics) {
  liveness::LivenessOptions l =
      LivenessOptionsFrom(ParsedLivenessOptions({"--http-endpoint=127.0.0.1:9000"}));
  EXPECT_EQ(l.health_address, "127.0.0.1:9000");
  EXPECT_TRUE(l.metrics_on_health_server);
}

struct ExitCase {
  std::vector<std::string> args;
  int code;
};

// §6.1: no --version (exit 2 as any unknown flag); conflicts exit 1; a health
// port already taken exits 1, not upstream's 0 (§9.4).
TEST(LivenessProbeRunTest, ExitCodesOfTheCommandLine) {
  const std::vector<ExitCase> cases = {
      {{"--version"}, 2},
      {{"--no-such-flag"}, 2},
      {{"--health-port=1", "--http-endpoint=:1"}, 1},
      {{"--metrics-address=:1", "--http-endpoint=:2"}, 1},
      {{"--health-port=x"}, 1},
  };
  for (const ExitCase& c : cases) {
    std::ostringstream out, err;
    component::RunEnvironment env;
    env.out = &out;
    env.err = &err;
    env.handle_signals = false;
    std::vector<std::string> args = {"livenessprobe"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    EXPECT_EQ(livenessprobe::Run(args, std::move(env)), c.code) << ::testing::PrintToString(c.args);
  }
}

// §9.4: a server that cannot listen (its port taken) ends the process with
// exit 1 before it waits for the driver; upstream returns 0 from main.
TEST(LivenessProbeRunTest, PortInUseExitsOne) {
  testsupport::LoopbackListener taken = testsupport::ListenOnLoopback("port holder");
  std::ostringstream out, err;
  component::RunEnvironment env;
  env.out = &out;
  env.err = &err;
  env.handle_signals = false;
  int code = livenessprobe::Run({"livenessprobe", "--csi-address=/nonexistent/csi.sock",
                                 "--http-endpoint=127.0.0.1:" + std::to_string(taken.port)},
                                std::move(env));
  ::close(taken.fd);
  EXPECT_EQ(code, 1);
}

}  // namespace
}  // namespace livenessprobe
