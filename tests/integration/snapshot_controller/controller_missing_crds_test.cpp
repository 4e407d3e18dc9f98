// A snapshot-controller started without the snapshot CRDs (docs/snapshots.md
// §4.1): it retries listing VolumeSnapshots, classes and contents for
// --retry-crd-interval-max, then exits 1. Unlike the sidecar it never waits
// for them. On a control plane of its own that never gets the CRDs; ours and
// upstream's. Started with the snapshot CRDs but without the three group
// ones, the gate CSIVolumeGroupSnapshot on (the default), it warns as the
// sidecar does (tests/integration/snapshotter/missing_crds_test.cpp), runs
// with groups off and single snapshots still work; on a second control plane
// with the snapshot CRDs only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <string>

#include "base/file.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

using namespace std::chrono_literals;

class ControllerWithoutCrdsTest : public SnapshotTest,
                                  public ::testing::WithParamInterface<ControllerUnderTest> {
 protected:
  static void SetUpTestSuite() { StartControlPlane(/*with_snapshot_crds=*/false); }
};

TEST_P(ControllerWithoutCrdsTest, ExitsOneAfterRetryCrdIntervalMax) {
  const auto started = std::chrono::steady_clock::now();
  testsupport::Process* controller = StartControllerOf(GetParam(), {"--retry-crd-interval-max=3s"});
  ASSERT_NE(controller, nullptr);
  ASSERT_TRUE(Eventually([&] { return !controller->IsRunning(); }, 60s))
      << "still running a minute after start";
  const auto ran = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(controller->exit_status(), 1);
  EXPECT_GE(ran, 3s) << "it gave up before --retry-crd-interval-max";

  auto log = base::ReadFile(controller->log_file());
  ASSERT_TRUE(log.ok());
  if (GetParam().name == "Upstream") {
    EXPECT_NE(log->find("Exiting due to failure to ensure CRDs exist during startup"),
              std::string::npos)
        << *log;
  } else {
    // Ours words it its own way; it names what is missing.
    std::string lower = *log;
    std::ranges::transform(lower, lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    EXPECT_NE(lower.find("volumesnapshot"), std::string::npos) << *log;
  }
}

class ControllerWithoutGroupCrdsTest : public SnapshotTest,
                                       public ::testing::WithParamInterface<ControllerUnderTest> {
 protected:
  static void SetUpTestSuite() {
    StartControlPlane(/*with_snapshot_crds=*/false);
    if (!HasFatalFailure()) InstallSnapshotCrds(/*with_group_crds=*/false);
  }
};

TEST_P(ControllerWithoutGroupCrdsTest, WarnsRunsWithGroupsOffAndSnapshotsStillWork) {
  const Names n = OwnNames("no-group-crds", GetParam().name);
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver, 1));  // volume "4"
  CreateBoundPvc("default", n.pvc, n.pv, n.driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(n.snapshot_class, n.driver, "Delete"));
  // The group CRD check waits for --retry-crd-interval-max before it warns.
  testsupport::Process* controller = StartControllerOf(GetParam(), {"--retry-crd-interval-max=2s"});
  ASSERT_NE(controller, nullptr);
  auto log = [&] {
    auto text = base::ReadFile(controller->log_file());
    return text.ok() ? *text : std::string();
  };
  ASSERT_TRUE(Eventually([&] { return log().find(kGroupCrdsMissingWarning) != std::string::npos; }))
      << "no warning about the group CRDs:\n"
      << log();
  ASSERT_NE(StartSidecarOf(UpstreamSidecar()), nullptr);

  CreateVolumeSnapshot("default", n.snapshot, n.pvc, n.snapshot_class);
  auto snapshot = Await<kube::VolumeSnapshot>("default", n.snapshot, Ready);
  EXPECT_TRUE(snapshot && Ready(*snapshot)) << "no ready snapshot with groups off";
  EXPECT_TRUE(controller->IsRunning()) << "exited " << controller->exit_status();
}

std::string ControllerName(const ::testing::TestParamInfo<ControllerUnderTest>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Controllers, ControllerWithoutCrdsTest,
                         ::testing::Values(OurController(), UpstreamController()), ControllerName);
INSTANTIATE_TEST_SUITE_P(Controllers, ControllerWithoutGroupCrdsTest,
                         ::testing::Values(OurController(), UpstreamController()), ControllerName);

}  // namespace
}  // namespace snapshot_it
