// The resizer's command line (docs/resizer.md §2): upstream's defaults, which
// deadline a ControllerExpandVolume gets, and the start-up order of §2.3
// step 1 driven through Run() with captured streams (no cluster, no driver).
#include <gtest/gtest.h>

#include <sstream>

#include "base/flags.h"
#include "base/version.h"
#include "resizer/command/options.h"
#include "resizer/command/run.h"

namespace csiresizer {
namespace {

using namespace std::chrono_literals;

TEST(ResizerFlagsTest, DefaultsAreUpstreams) {
  Options options;
  std::ostringstream err;
  base::FlagSet flags("csi-resizer", &err);
  RegisterFlags(flags, options);
  ASSERT_TRUE(flags.Parse(std::vector<std::string>{}).ok());
  EXPECT_EQ(options.resync_period, 10min);
  EXPECT_EQ(options.workers, 10);
  EXPECT_EQ(options.timeout, 10s);
  EXPECT_EQ(options.resize_timeout, 10s);
  EXPECT_EQ(options.modify_timeout, 10s);
  EXPECT_EQ(options.retry_interval_start, 1s);
  EXPECT_EQ(options.retry_interval_max, 5min);
  EXPECT_TRUE(options.handle_volume_inuse_error);
  EXPECT_FALSE(options.extra_modify_metadata);
  EXPECT_EQ(options.csi_address, "/run/csi/socket");
}

// --timeout replaces --resize-timeout only when given on the command line.
TEST(ResizerFlagsTest, ExplicitTimeoutOverridesResizeTimeout) {
  struct Case {
    std::vector<std::string> args;
    std::chrono::nanoseconds want;
  };
  for (const Case& c : {Case{{}, 10s}, Case{{"--resize-timeout=30s"}, 30s},
                        Case{{"--resize-timeout=30s", "--timeout=3s"}, 3s},
                        Case{{"--timeout=10s", "--resize-timeout=30s"}, 10s}}) {
    Options options;
    std::ostringstream err;
    base::FlagSet flags("csi-resizer", &err);
    RegisterFlags(flags, options);
    ASSERT_TRUE(flags.Parse(c.args).ok()) << err.str();
    EXPECT_EQ(ResizeTimeout(options, flags), c.want) << ::testing::PrintToString(c.args);
  }
}

int RunWith(std::vector<std::string> args, std::ostringstream& out) {
  std::ostringstream err;
  args.insert(args.begin(), "csi-resizer");
  RunEnvironment env;
  env.out = &out;
  env.err = &err;
  env.handle_signals = false;
  return Run(args, std::move(env));
}

// Upstream answers --version before it sets the gates.
TEST(ResizerRunTest, VersionWinsOverAnUnknownGate) {
  std::ostringstream out;
  EXPECT_EQ(RunWith({"--version", "--feature-gates=RecoverVolumeExpansionFailure=true"}, out), 0);
  EXPECT_EQ(out.str(), "csi-resizer " + std::string(base::Version()) + "\n");
}

TEST(ResizerRunTest, CommandLineMistakesExitAsUpstream) {
  struct Case {
    std::vector<std::string> args;
    int want;
  };
  for (const Case& c : {Case{{"--no-such-flag"}, 2}, Case{{"positional"}, 2},
                        Case{{"--feature-gates=RecoverVolumeExpansionFailure=true"}, 1},
                        Case{{"--http-endpoint=:1", "--metrics-address=:2"}, 1}}) {
    std::ostringstream out;
    EXPECT_EQ(RunWith(c.args, out), c.want) << ::testing::PrintToString(c.args);
  }
}

// Upstream's Go flag parsing ignores what follows the flags; every binary of
// this project refuses it instead (docs/resizer.md §9).
TEST(ResizerRunTest, PositionalArgumentExits2) {
  std::ostringstream out;
  EXPECT_EQ(RunWith({"positional"}, out), 2);
}

}  // namespace
}  // namespace csiresizer
