// What the option tests of the three binaries share (docs/attacher.md §1,
// docs/snapshots.md §3.1, §4.1): a binary's flags registered on fresh
// options and parsed as its Run parses them, and the check that a bad or
// unknown flag is a usage error: exit code 2, an output that says why and
// shows "Usage of <program>:".
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "base/flags.h"
#include "base/result.h"
#include "component/standard_flags.h"

namespace cmdtest {

// `Register` is the binary's RegisterFlags for its `Options`.
template <class Options, void (*Register)(base::FlagSet&, Options&)>
class FlagsTest : public ::testing::Test {
 protected:
  explicit FlagsTest(std::string program)
      : program_(std::move(program)), flags_(program_, &output_) {
    Register(flags_, options_);
  }

  // The exit code Parse asks for: -1 when it succeeded.
  int Parse(const std::vector<std::string>& args) {
    base::Status s = flags_.Parse(args);
    return s.ok() ? -1 : s.error().code;
  }

  // The defaults of the flag groups of component/standard_flags.h and of
  // the retry intervals, which every binary has; a flag a binary lacks
  // (--leader-election-labels, say) leaves its field at that default too.
  void ExpectStandardDefaults() const {
    using std::chrono::minutes;
    using std::chrono::seconds;
    EXPECT_TRUE(options_.feature_gates.empty());
    EXPECT_FALSE(options_.show_version);
    EXPECT_FALSE(options_.automaxprocs);
    EXPECT_EQ(options_.logging.format, "text");
    EXPECT_EQ(options_.logging.flush_frequency, seconds(5));
    EXPECT_EQ(options_.logging.verbosity, 0);
    EXPECT_EQ(options_.kubeconfig, "");
    EXPECT_EQ(options_.kube_api_qps, 5.0);
    EXPECT_EQ(options_.kube_api_burst, 10);
    EXPECT_FALSE(options_.leader_election);
    EXPECT_EQ(options_.leader_election_namespace, "");
    EXPECT_EQ(options_.leader_election_lease_duration, seconds(15));
    EXPECT_EQ(options_.leader_election_renew_deadline, seconds(10));
    EXPECT_EQ(options_.leader_election_retry_period, seconds(5));
    EXPECT_TRUE(options_.leader_election_labels.empty());
    EXPECT_EQ(options_.http_endpoint, "");
    EXPECT_EQ(options_.metrics_address, "");
    EXPECT_EQ(options_.metrics_path, "/metrics");
    EXPECT_EQ(options_.retry_interval_start, seconds(1));
    EXPECT_EQ(options_.retry_interval_max, minutes(5));
    if constexpr (std::is_base_of_v<component::SidecarOptions, Options>) {
      EXPECT_EQ(options_.csi_address, "/run/csi/socket");
    }
  }

  // Parsing `args` on fresh options is a usage error whose output says `message`.
  void ExpectUsageError(const std::vector<std::string>& args, const std::string& message) {
    SCOPED_TRACE(::testing::PrintToString(args));
    Options options;
    std::ostringstream output;
    base::FlagSet flags(program_, &output);
    Register(flags, options);
    base::Status s = flags.Parse(args);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, 2);
    EXPECT_THAT(output.str(), ::testing::HasSubstr(message));
    EXPECT_THAT(output.str(), ::testing::HasSubstr("Usage of " + program_ + ":"));
  }

  // `flag` is one the binary does not define.
  void ExpectNotDefined(const std::string& flag) {
    ExpectUsageError({flag}, "flag provided but not defined: -");
  }

  const std::string program_;
  std::ostringstream output_;
  Options options_;
  base::FlagSet flags_;
};

}  // namespace cmdtest
