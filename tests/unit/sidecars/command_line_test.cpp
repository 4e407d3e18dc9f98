// csi-sidecars' command line with the four real parts (docs/csi-sidecars.md
// §2): each controller's own flags under its prefix, the shared ones once,
// --controllers, --timeout as every part's default, the union of the gates,
// and the parts' metric families on one registry.
#include "sidecars/command_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "attacher/command/attacher_part.h"
#include "provisioner/command/provisioner_part.h"
#include "resizer/command/resizer_part.h"
#include "sidecars/run_sidecars.h"
#include "snapshotter/command/snapshotter_part.h"
#include "tests/support/log_capture.h"

namespace sidecars {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;
using ::testing::HasSubstr;
using Parts = std::vector<std::unique_ptr<component::ControllerPart>>;

Parts AllParts() {
  Parts parts;
  parts.push_back(csiattacher::NewAttacherPart());
  parts.push_back(csiprovisioner::NewProvisionerPart());
  parts.push_back(csiresizer::NewResizerPart());
  parts.push_back(csisnapshotter::NewSnapshotterPart());
  return parts;
}

class CommandLineTest : public ::testing::Test {
 protected:
  CommandLineTest() : parts_(AllParts()), flags_("csi-sidecars", &out_) {
    RegisterFlags(flags_, options_, parts_, views_);
  }

  base::Status Parse(std::vector<std::string> args) {
    args_ = args;
    return flags_.Parse(args);
  }
  base::Result<std::vector<size_t>> Selected() { return SelectedParts(options_, args_, parts_); }

  // Configures every part as Run does; returns the first error.
  base::Status ConfigureAll(component::SidecarMetricFamilies& families) {
    component::FeatureGates gates(UnionOfFeatureSpecs(parts_));
    const component::SharedSettings shared{
        options_, gates, flags_.IsSet("timeout") ? std::optional(options_.timeout) : std::nullopt,
        volume_attributes_class_};
    for (size_t i = 0; i < parts_.size(); ++i) {
      if (base::Status s = parts_[i]->Configure(shared, *views_[i], families); !s.ok()) return s;
    }
    return base::Status::Ok();
  }

  Parts parts_;
  std::ostringstream out_;
  base::FlagSet flags_;
  Options options_;
  std::vector<std::unique_ptr<base::FlagSet>> views_;
  std::vector<std::string> args_;
  component::VolumeAttributesClassGateOnce volume_attributes_class_;
};

TEST_F(CommandLineTest, EachControllersOwnFlagsCarryItsNameAsPrefix) {
  ASSERT_TRUE(
      Parse({"--attacher-worker-threads=3", "--provisioner-worker-threads=7", "--resizer-workers=2",
             "--snapshotter-worker-threads=4", "--provisioner-extra-create-metadata",
             "--resizer-handle-volume-inuse-error=false"})
          .ok())
      << out_.str();
  EXPECT_TRUE(views_[0]->IsSet("worker-threads"));
  EXPECT_TRUE(views_[2]->IsSet("workers"));
  EXPECT_FALSE(views_[3]->IsSet("extra-create-metadata"));
  EXPECT_FALSE(Parse({"--worker-threads=3"}).ok()) << "an unprefixed controller flag";
}

TEST_F(CommandLineTest, SharedFlagsAreGivenOnceWithoutPrefix) {
  ASSERT_TRUE(
      Parse({"--csi-address=/csi/csi.sock", "--kubeconfig=/k", "--leader-election",
             "--leader-election-namespace=ns", "--http-endpoint=:8080", "--kube-api-qps=20",
             "--master=https://x", "--max-grpc-log-length=10", "--feature-gates=Topology=true"})
          .ok())
      << out_.str();
  EXPECT_EQ(options_.csi_address, "/csi/csi.sock");
  EXPECT_TRUE(options_.leader_election);
  EXPECT_EQ(options_.kube_api_qps, 20);
  EXPECT_FALSE(Parse({"--attacher-csi-address=/x"}).ok());
  EXPECT_FALSE(Parse({"--provisioner-leader-election"}).ok());
}

TEST_F(CommandLineTest, EachControllersApiBudgetIsItsOwnOrElseTheSharedOne) {
  ASSERT_TRUE(Parse({"--kube-api-qps=20", "--kube-api-burst=40", "--attacher-kube-api-qps=50",
                     "--resizer-kube-api-burst=7"})
                  .ok())
      << out_.str();
  auto limits = [&](size_t i) {
    base::Result<component::KubeApiRateLimits> l =
        ApiLimitsOf(options_, i, *views_[i], parts_[i]->name());
    EXPECT_TRUE(l.ok()) << l.error().message;
    return std::pair(l->qps, l->burst);
  };
  EXPECT_EQ(limits(0), std::pair(50.0, 40));
  EXPECT_EQ(limits(1), std::pair(20.0, 40));
  EXPECT_EQ(limits(2), std::pair(20.0, 7));
  EXPECT_EQ(limits(3), std::pair(20.0, 40));
}

TEST_F(CommandLineTest, AnInvalidApiBudgetNamesItsController) {
  ASSERT_TRUE(Parse({"--snapshotter-kube-api-burst=0"}).ok());
  base::Result<component::KubeApiRateLimits> limits =
      ApiLimitsOf(options_, 3, *views_[3], parts_[3]->name());
  ASSERT_FALSE(limits.ok());
  EXPECT_THAT(limits.error().message,
              HasSubstr("the snapshotter controller's API budget: burst is required"));
  EXPECT_TRUE(ApiLimitsOf(options_, 0, *views_[0], parts_[0]->name()).ok());
}

TEST_F(CommandLineTest, ControllersNamesTheControllersToRunEachOnce) {
  ASSERT_TRUE(Parse({"--controllers=snapshotter, attacher,snapshotter"}).ok());
  base::Result<std::vector<size_t>> selected = Selected();
  ASSERT_TRUE(selected.ok()) << selected.error().message;
  EXPECT_EQ(*selected, (std::vector<size_t>{3, 0}));
}

TEST_F(CommandLineTest, ControllersMustNameAtLeastOneKnownController) {
  ASSERT_TRUE(Parse({}).ok());
  ASSERT_FALSE(Selected().ok());
  EXPECT_THAT(Selected().error().message, HasSubstr("at least one of attacher, provisioner"));
  ASSERT_TRUE(Parse({"--controllers=attacher,healthmonitor"}).ok());
  ASSERT_FALSE(Selected().ok());
  EXPECT_THAT(Selected().error().message, HasSubstr("unknown controller \"healthmonitor\""));
}

TEST_F(CommandLineTest, FlagOfAControllerNotSelectedIsAnError) {
  ASSERT_TRUE(Parse({"--controllers=attacher,provisioner", "-resizer-workers", "3"}).ok());
  ASSERT_FALSE(Selected().ok());
  EXPECT_THAT(Selected().error().message,
              HasSubstr("flag --resizer-workers belongs to the resizer controller"));
  ASSERT_TRUE(Parse({"--controllers=attacher,resizer", "-resizer-workers", "3"}).ok());
  EXPECT_TRUE(Selected().ok());
}

TEST_F(CommandLineTest, FeatureGatesOfEveryControllerAreAcceptedOnce) {
  std::vector<component::FeatureSpec> specs = UnionOfFeatureSpecs(parts_);
  std::vector<std::string_view> names;
  for (const auto& spec : specs) names.push_back(spec.name);
  for (std::string_view gate :
       {"MutableCSINodeAllocatableCount", "Topology", "AnnotateFsResize", "CSIVolumeGroupSnapshot",
        "VolumeAttributesClass", "ReleaseLeaderElectionOnExit"}) {
    EXPECT_EQ(std::count(names.begin(), names.end(), gate), 1) << gate;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST_F(CommandLineTest, TimeoutIsEveryControllersDefaultUnlessItsOwnIsGiven) {
  ASSERT_TRUE(Parse({"--timeout=3s", "--attacher-timeout=7s"}).ok());
  component::SidecarMetricFamilies families;
  ASSERT_TRUE(ConfigureAll(families).ok());
  EXPECT_EQ(parts_[0]->csi_timeout(), seconds(7));
  EXPECT_EQ(parts_[1]->csi_timeout(), seconds(3));
  EXPECT_EQ(parts_[2]->csi_timeout(), seconds(3));
  EXPECT_EQ(parts_[3]->csi_timeout(), seconds(3));
}

TEST_F(CommandLineTest, WithoutTimeoutEachControllerKeepsItsOwnDefault) {
  ASSERT_TRUE(Parse({}).ok());
  component::SidecarMetricFamilies families;
  ASSERT_TRUE(ConfigureAll(families).ok());
  EXPECT_EQ(parts_[0]->csi_timeout(), seconds(15));
  EXPECT_EQ(parts_[1]->csi_timeout(), seconds(10));
  EXPECT_EQ(parts_[2]->csi_timeout(), seconds(10));
  EXPECT_EQ(parts_[3]->csi_timeout(), minutes(1));
}

TEST_F(CommandLineTest, AControllersFlagErrorIsReportedWhenConfigured) {
  ASSERT_TRUE(Parse({"--attacher-worker-threads=0"}).ok());
  component::SidecarMetricFamilies families;
  base::Status s = ConfigureAll(families);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "Option -attacher-worker-threads must be greater than zero");
}

TEST_F(CommandLineTest, AllFourControllersServeTheirMetricsFromOneRegistry) {
  ASSERT_TRUE(Parse({}).ok());
  component::SidecarMetricFamilies families;
  ASSERT_TRUE(ConfigureAll(families).ok());  // a family registered twice would throw
  const std::string exposition = families.registry().Expose();
  for (const char* queue :
       {"csi-attacher-va", "csi-attacher-pv", "claims", "volumes", "csi-snapshotter-content"}) {
    EXPECT_THAT(exposition, HasSubstr(std::string("workqueue_depth{name=\"") + queue + "\"}"));
  }
  EXPECT_THAT(exposition, HasSubstr("# TYPE process_start_time_seconds gauge"));
  EXPECT_EQ(exposition.find("leader_election_master_status{name=\"\"}"), std::string::npos)
      << "csi-sidecars has one series per Lease, none without a name";
}

// Run's start-up refuses what the command line checks refuse, before it
// connects to anything: exit 1 with the reason logged.
TEST(RunTest, StartUpEndsWithExit1AndTheReasonOnAnInvalidCommandLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--controllers=attacher,snapshotter", "--snapshotter-kube-api-burst=0"},
       "the snapshotter controller's API budget: burst is required"},
      {{"--controllers=attacher", "--attacher-worker-threads=0"},
       "Option -attacher-worker-threads must be greater than zero"},
      {{"--controllers=attacher", "--resizer-workers=2"},
       "flag --resizer-workers belongs to the resizer controller"},
      {{"--controllers=healthmonitor"}, "--controllers: unknown controller"}};
  for (const auto& [flags, reason] : cases) {
    testsupport::LogCapture log;
    std::vector<std::string> args = {"csi-sidecars"};
    args.insert(args.end(), flags.begin(), flags.end());
    component::RunEnvironment env;
    std::ostringstream out;
    env.out = &out;
    env.err = &out;
    env.handle_signals = false;
    EXPECT_EQ(sidecars::Run(args, std::move(env), AllParts()), 1) << reason;
    EXPECT_EQ(log.Grep(reason).size(), 1u) << reason;
  }
}

}  // namespace
}  // namespace sidecars
