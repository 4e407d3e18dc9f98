// docs/attacher.md §1.2 (Go flag parsing rules), §1.3 (--feature-gates syntax) and
// §7 first row (positional arguments are an error).
#include "base/flags.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "base/flag_maps.h"

namespace base {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A flag set shaped like the attacher's.
class FlagsTest : public ::testing::Test {
 protected:
  FlagsTest() : flags_("csi-attacher", &output_), gates_value_(&gates_), labels_value_(&labels_) {
    flags_.Bool("leader-election", &leader_election_, false, "Enable leader election.");
    flags_.String("csi-address", &csi_address_, "/run/csi/socket",
                  "Address of the CSI driver socket.");
    flags_.String("kubeconfig", &kubeconfig_, "", "Absolute path to the kubeconfig file.");
    flags_.Duration("timeout", &timeout_, seconds(15), "Timeout for waiting for attaching.");
    flags_.Duration("resync", &resync_, minutes(10), "Resync interval of the controller.");
    flags_.Uint("worker-threads", &worker_threads_, 10, "Number of worker threads.");
    flags_.Int("max-entries", &max_entries_, 0, "Max entries per page.");
    flags_.Int("kube-api-burst", &burst_, 10, "Burst.");
    flags_.Float64("kube-api-qps", &qps_, 5, "QPS.");
    flags_.Var("feature-gates", &gates_value_, "A set of key=value pairs.");
    flags_.Var("leader-election-labels", &labels_value_, "List of labels.");
  }

  Status Parse(std::vector<std::string> args, ParseOptions options = {}) {
    output_.str("");
    return flags_.Parse(args, options);
  }

  std::ostringstream output_;
  FlagSet flags_;
  bool leader_election_;
  std::string csi_address_, kubeconfig_;
  std::chrono::nanoseconds timeout_, resync_;
  uint64_t worker_threads_;
  int64_t max_entries_, burst_;
  double qps_;
  std::map<std::string, bool> gates_;
  std::map<std::string, std::string> labels_;
  MapStringBoolValue gates_value_;
  ColonMapValue labels_value_;
};

TEST_F(FlagsTest, RegistrationStoresDefaults) {
  EXPECT_FALSE(leader_election_);
  EXPECT_EQ(csi_address_, "/run/csi/socket");
  EXPECT_EQ(timeout_, seconds(15));
  EXPECT_EQ(worker_threads_, 10u);
  EXPECT_EQ(qps_, 5.0);
  EXPECT_FALSE(flags_.IsSet("timeout"));
}

TEST_F(FlagsTest, OneAndTwoDashesWithEqualsOrSeparateValue) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"-timeout=300ms"},
                                             {"--timeout=300ms"},
                                             {"-timeout", "300ms"},
                                             {"--timeout", "300ms"}}) {
    timeout_ = {};
    ASSERT_TRUE(Parse(args).ok()) << args[0];
    EXPECT_EQ(timeout_, milliseconds(300)) << args[0];
    EXPECT_TRUE(flags_.IsSet("timeout"));
  }
  ASSERT_TRUE(Parse({"--csi-address=/a=b", "-kubeconfig", "-x"}).ok());
  EXPECT_EQ(csi_address_, "/a=b");
  EXPECT_EQ(kubeconfig_, "-x") << "a separate value may look like a flag";
  ASSERT_TRUE(Parse({"--kubeconfig="}).ok());
  EXPECT_EQ(kubeconfig_, "");
}

TEST_F(FlagsTest, BoolForms) {
  const struct {
    std::vector<std::string> args;
    bool want;
  } cases[] = {
      {{"-leader-election"}, true},
      {{"--leader-election"}, true},
      {{"-leader-election=false"}, false},
      {{"--leader-election=true"}, true},
      {{"-leader-election=0"}, false},
      {{"-leader-election=T"}, true},
      {{"-leader-election", "-leader-election=False"}, false},
  };
  for (const auto& c : cases) {
    leader_election_ = !c.want;
    ASSERT_TRUE(Parse(c.args).ok()) << c.args[0];
    EXPECT_EQ(leader_election_, c.want) << c.args.back();
  }
  Status s = Parse({"-leader-election=maybe"});
  EXPECT_EQ(s.error().code, kExitUsageError);
  EXPECT_EQ(s.error().message,
            R"(invalid boolean value "maybe" for -leader-election: parse error)");
}

TEST_F(FlagsTest, PositionalAfterBoolFlagIsAnErrorNamingTheFixedForm) {
  Status s = Parse({"-leader-election", "false", "-timeout=1s"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, kExitUsageError);
  EXPECT_EQ(s.error().message,
            "unexpected positional argument \"false\"; boolean flags take their value as "
            "--leader-election=false");
  EXPECT_THAT(output_.str(), StartsWith(s.error().message + "\nUsage of csi-attacher:\n"));
}

TEST_F(FlagsTest, AnyPositionalIsAnError) {
  Status s = Parse({"-timeout=1s", "extra"});
  EXPECT_EQ(s.error().code, kExitUsageError);
  EXPECT_EQ(s.error().message,
            R"(unexpected positional argument "extra"; this program takes only flags)");
  // After a non-bool flag "false" is that flag's value, not a positional.
  EXPECT_FALSE(Parse({"-leader-election=true", "false"}).ok());
  EXPECT_FALSE(Parse({"--", "x"}).ok());
}

TEST_F(FlagsTest, ParsingStopsAtFirstNonFlagOrDoubleDash) {
  ParseOptions allow{.allow_positional = true};
  ASSERT_TRUE(Parse({"-timeout=1s", "pos", "-timeout=2s"}, allow).ok());
  EXPECT_EQ(timeout_, seconds(1));
  EXPECT_THAT(flags_.Args(), ::testing::ElementsAre("pos", "-timeout=2s"));

  ASSERT_TRUE(Parse({"-timeout=3s", "--", "-timeout=4s"}, allow).ok());
  EXPECT_EQ(timeout_, seconds(3));
  EXPECT_THAT(flags_.Args(), ::testing::ElementsAre("-timeout=4s"));

  ASSERT_TRUE(Parse({"-", "x"}, allow).ok()) << "a lone dash is an argument";
  EXPECT_THAT(flags_.Args(), ::testing::ElementsAre("-", "x"));

  ASSERT_TRUE(Parse({"--"}).ok()) << "nothing follows the terminator";
}

TEST_F(FlagsTest, UnknownAndMalformedFlags) {
  Status s = Parse({"-connection-timeout=1m"});
  EXPECT_EQ(s.error().code, kExitUsageError);
  EXPECT_EQ(s.error().message, "flag provided but not defined: -connection-timeout");
  EXPECT_THAT(output_.str(), StartsWith("flag provided but not defined: -connection-timeout\n"
                                        "Usage of csi-attacher:\n  -csi-address string\n"));

  EXPECT_EQ(Parse({"---timeout=1s"}).error().message, "bad flag syntax: ---timeout=1s");
  EXPECT_EQ(Parse({"-=1"}).error().message, "bad flag syntax: -=1");
  EXPECT_EQ(Parse({"--=1"}).error().message, "bad flag syntax: --=1");
  EXPECT_EQ(Parse({"-timeout"}).error().message, "flag needs an argument: -timeout");
  EXPECT_EQ(Parse({"--timeout"}).error().code, kExitUsageError);
}

TEST_F(FlagsTest, BadValuesUseGoWording) {
  const struct {
    std::vector<std::string> args;
    const char* message;
  } cases[] = {
      {{"-worker-threads=abc"}, R"(invalid value "abc" for flag -worker-threads: parse error)"},
      {{"-worker-threads=-1"}, R"(invalid value "-1" for flag -worker-threads: parse error)"},
      {{"-worker-threads", "99999999999999999999"},
       R"(invalid value "99999999999999999999" for flag -worker-threads: value out of range)"},
      {{"-max-entries=1.5"}, R"(invalid value "1.5" for flag -max-entries: parse error)"},
      {{"-kube-api-qps=fast"}, R"(invalid value "fast" for flag -kube-api-qps: parse error)"},
      {{"-kube-api-qps=1e999"},
       R"(invalid value "1e999" for flag -kube-api-qps: value out of range)"},
      {{"-timeout=15"}, R"(invalid value "15" for flag -timeout: parse error)"},
      {{"-timeout=5d"}, R"(invalid value "5d" for flag -timeout: parse error)"},
  };
  for (const auto& c : cases) {
    Status s = Parse(c.args);
    ASSERT_FALSE(s.ok()) << c.args[0];
    EXPECT_EQ(s.error().code, kExitUsageError);
    EXPECT_EQ(s.error().message, c.message);
    EXPECT_THAT(output_.str(), StartsWith(std::string(c.message) + "\nUsage of csi-attacher:\n"));
  }
}

TEST_F(FlagsTest, NumbersUseGoSyntax) {
  const struct {
    const char* arg;
    int64_t want;
  } ints[] = {{"0x10", 16}, {"0o17", 15}, {"017", 15}, {"1_000", 1000}, {"-5", -5}, {"0b11", 3}};
  for (const auto& c : ints) {
    ASSERT_TRUE(Parse({"-max-entries", c.arg}).ok()) << c.arg;
    EXPECT_EQ(max_entries_, c.want) << c.arg;
  }
  ASSERT_TRUE(Parse({"-worker-threads=0x20"}).ok());
  EXPECT_EQ(worker_threads_, 32u);
  ASSERT_TRUE(Parse({"-kube-api-qps=1e3"}).ok());
  EXPECT_EQ(qps_, 1000.0);
  ASSERT_TRUE(Parse({"-kube-api-qps=.5"}).ok());
  EXPECT_EQ(qps_, 0.5);
  ASSERT_TRUE(Parse({"-timeout=-1.5h"}).ok()) << "negative durations are accepted";
  EXPECT_EQ(timeout_, minutes(-90));
}

TEST_F(FlagsTest, RepeatedScalarLastWins) {
  ASSERT_TRUE(Parse({"-timeout=1s", "--timeout", "2s", "-csi-address=a", "-csi-address=b"}).ok());
  EXPECT_EQ(timeout_, seconds(2));
  EXPECT_EQ(csi_address_, "b");
}

TEST_F(FlagsTest, FeatureGatesMergeAcrossRepeats) {
  gates_ = {{"Default", true}};
  ASSERT_TRUE(Parse({"--feature-gates= A=true , B=false,,", "--feature-gates=C=1", "-feature-gates",
                     "A=false"})
                  .ok());
  EXPECT_EQ(gates_, (std::map<std::string, bool>{{"A", false}, {"B", false}, {"C", true}}))
      << "the first Set drops defaults, later ones merge";
  EXPECT_EQ(gates_value_.String(), "A=false,B=false,C=true");

  EXPECT_EQ(Parse({"--feature-gates=A"}).error().message,
            R"(invalid value "A" for flag -feature-gates: malformed pair, expect string=bool)");
  EXPECT_EQ(Parse({"--feature-gates=A=yes"}).error().message,
            R"(invalid value "A=yes" for flag -feature-gates: invalid value of A: yes, err: )"
            R"(strconv.ParseBool: parsing "yes": invalid syntax)");
}

TEST_F(FlagsTest, LeaderElectionLabelsMergeAndNeedExactlyOneColon) {
  ASSERT_TRUE(Parse({"--leader-election-labels=a:1,b:2", "--leader-election-labels=a:3"}).ok());
  EXPECT_EQ(labels_, (std::map<std::string, std::string>{{"a", "3"}, {"b", "2"}}));
  EXPECT_EQ(labels_value_.String(), "map[a:3 b:2]");
  for (const char* bad : {"a", "a:b:c", "a:1,", ""}) {
    Status s = Parse({std::string("--leader-election-labels=") + bad});
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_THAT(s.error().message, HasSubstr(": malformed item in list of labels: "));
  }
  EXPECT_EQ(Parse({"--leader-election-labels=a:b:c"}).error().message,
            R"(invalid value "a:b:c" for flag -leader-election-labels: )"
            R"(malformed item in list of labels: a:b:c)");
}

TEST_F(FlagsTest, HelpPrintsUsageAndExitsZero) {
  for (const char* arg : {"-h", "-help", "--help", "--h", "-help=1"}) {
    Status s = Parse({"-timeout=1s", arg, "-unknown"});
    ASSERT_FALSE(s.ok()) << arg;
    EXPECT_EQ(s.error().code, kExitHelp) << arg;
    EXPECT_EQ(output_.str(), flags_.Usage()) << arg;
  }
}

TEST(Flags, HelpFlagOfThatNameIsAnOrdinaryFlag) {
  std::ostringstream out;
  FlagSet flags("prog", &out);
  bool help = false;
  flags.Bool("help", &help, false, "Show help.");
  ASSERT_TRUE(flags.Parse({"--help"}).ok());
  EXPECT_TRUE(help);
  EXPECT_EQ(flags.Parse({"-h"}).error().code, kExitHelp) << "only the defined name is taken";
}

TEST(Flags, UsageMatchesGoFormat) {
  std::ostringstream out;
  FlagSet flags("csi-attacher", &out);
  bool b, x;
  std::string s, empty;
  std::chrono::nanoseconds d, zero_d;
  uint64_t u;
  int64_t i;
  double f;
  std::map<std::string, bool> gates;
  MapStringBoolValue gates_value(&gates);
  std::map<std::string, std::string> labels;
  ColonMapValue labels_value(&labels);
  flags.Duration("timeout", &d, seconds(15), "Timeout.");
  flags.Duration("zero-duration", &zero_d, {}, "Zero.");
  flags.Bool("leader-election", &b, false, "Enable leader election.");
  flags.Bool("x", &x, true, "One-letter bool.");
  flags.String("csi-address", &s, "/run/csi/socket", "Address of the CSI driver socket.");
  flags.String("http-endpoint", &empty, "", "Listen address (example: `:8080`). Multi\nline.");
  flags.Uint("worker-threads", &u, 10, "Workers.");
  flags.Int("max-grpc-log-length", &i, -1, "Cap.");
  flags.Float64("kube-api-qps", &f, 5, "QPS.");
  flags.Var("feature-gates", &gates_value, "Gates.");
  flags.Var("leader-election-labels", &labels_value, "Labels.");
  EXPECT_EQ(flags.Usage(),
            "Usage of csi-attacher:\n"
            "  -csi-address string\n"
            "    \tAddress of the CSI driver socket. (default \"/run/csi/socket\")\n"
            "  -feature-gates value\n"
            "    \tGates.\n"
            "  -http-endpoint :8080\n"
            "    \tListen address (example: :8080). Multi\n"
            "    \tline.\n"
            "  -kube-api-qps float\n"
            "    \tQPS. (default 5)\n"
            "  -leader-election\n"
            "    \tEnable leader election.\n"
            "  -leader-election-labels value\n"
            "    \tLabels.\n"
            "  -max-grpc-log-length int\n"
            "    \tCap. (default -1)\n"
            "  -timeout duration\n"
            "    \tTimeout. (default 15s)\n"
            "  -worker-threads uint\n"
            "    \tWorkers. (default 10)\n"
            "  -x\tOne-letter bool. (default true)\n"
            "  -zero-duration duration\n"
            "    \tZero.\n");
  FlagSet unnamed("", &out);
  EXPECT_EQ(unnamed.Usage(), "Usage:\n");
}

TEST(Flags, DefaultsOfDurationsAreGoFormatted) {
  std::ostringstream out;
  FlagSet flags("p", &out);
  std::chrono::nanoseconds d;
  flags.Duration("resync", &d, minutes(10), "Resync.");
  EXPECT_THAT(flags.Usage(), HasSubstr("Resync. (default 10m0s)\n"));
}

TEST(Flags, BadRegistrationsAreProgrammingErrors) {
  std::ostringstream out;
  FlagSet flags("p", &out);
  bool b;
  flags.Bool("a", &b, false, "");
  EXPECT_THROW(flags.Bool("a", &b, false, ""), std::logic_error);
  EXPECT_THROW(flags.Bool("-b", &b, false, ""), std::logic_error);
  EXPECT_THROW(flags.Bool("b=c", &b, false, ""), std::logic_error);
}

TEST(Flags, ParsesArgv) {
  std::ostringstream out;
  FlagSet flags("p", &out);
  int64_t n;
  flags.Int("n", &n, 0, "");
  const char* argv[] = {"p", "--n=7"};
  ASSERT_TRUE(flags.Parse(2, argv).ok());
  EXPECT_EQ(n, 7);
}

TEST(Flags, PrefixedViewRegistersInItsParentUnderThePrefix) {
  std::ostringstream out;
  FlagSet flags("p", &out);
  FlagSet attacher(flags, "attacher-");
  std::chrono::nanoseconds timeout;
  attacher.Duration("timeout", &timeout, seconds(15), "Deadline.");
  std::map<std::string, std::string> labels;
  attacher.Var("labels", std::make_unique<ColonMapValue>(&labels), "Owned value.");
  ASSERT_TRUE(flags.Parse({"--attacher-timeout=3s"}).ok());
  EXPECT_EQ(timeout, seconds(3));
  EXPECT_TRUE(attacher.IsSet("timeout"));
  EXPECT_TRUE(flags.IsSet("attacher-timeout"));
  EXPECT_FALSE(flags.IsSet("timeout"));
  EXPECT_THAT(flags.Usage(), HasSubstr("-attacher-labels"));
  EXPECT_FALSE(flags.Parse({"--timeout=3s"}).ok());
  EXPECT_THROW((void)attacher.Parse(std::vector<std::string>{}), std::logic_error);
}

}  // namespace
}  // namespace base
