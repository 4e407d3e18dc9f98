// A sidecar started before the snapshot CRDs exist (docs/snapshots.md §3.2
// steps 7 and 9), on a control plane of its own without them. Upstream's does
// not exit: it warns that the group snapshot CRDs are missing, turns groups
// off, and its informers retry the failing list of VolumeSnapshotContents
// until the CRDs appear, then it works as usual. Ours must do the same (no
// exit code to compare: neither exits). The wording of the retried list error
// differs: upstream's names the resource as "could not find the requested
// resource (get volumesnapshotcontents…)", ours quotes the request and the
// HTTP 404.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

using ::testing::HasSubstr;

class NoSnapshotCrdsTest : public SnapshotPairTest {
 protected:
  static void SetUpTestSuite() { StartControlPlane(/*with_snapshot_crds=*/false); }

  // A log line of a failed list of VolumeSnapshotContents because the
  // resource does not exist.
  bool LoggedMissingContents() const {
    std::istringstream log(SidecarLog());
    for (std::string line; std::getline(log, line);) {
      if (line.find("volumesnapshotcontents") == std::string::npos) continue;
      if (line.find("404") != std::string::npos ||
          line.find("could not find the requested resource") != std::string::npos) {
        return true;
      }
    }
    return false;
  }
};

TEST_P(NoSnapshotCrdsTest, KeepsRetryingWithoutTheCrdsAndWorksOnceTheyAreInstalled) {
  const std::string driver = "no-crds.csi.example.com";
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));
  CreateBoundPvc("default", "pvc-no-crds", "pv-no-crds", driver, "4");
  ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
  ASSERT_NE(StartSidecarUnderTest(), nullptr);
  ASSERT_TRUE(Eventually([&] { return LoggedMissingContents(); }))
      << "no failed list of VolumeSnapshotContents logged";
  ASSERT_TRUE(sidecar().IsRunning()) << "exited " << sidecar().exit_status();
  EXPECT_THAT(SidecarLog(), HasSubstr(kGroupCrdsMissingWarning));

  ASSERT_NO_FATAL_FAILURE(InstallSnapshotCrds());
  ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-no-crds", driver, "Delete"));
  ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  CreateVolumeSnapshot("default", "snap-no-crds", "pvc-no-crds", "class-no-crds");
  auto snapshot = Await<kube::VolumeSnapshot>("default", "snap-no-crds", Ready);
  EXPECT_TRUE(snapshot && Ready(*snapshot)) << "no snapshot once the CRDs were installed";
  EXPECT_TRUE(sidecar().IsRunning());
}

// One suite, so one control plane without the CRDs, per sidecar: the test
// installs them.
INSTANTIATE_TEST_SUITE_P(Upstream, NoSnapshotCrdsTest, ::testing::Values(UpstreamSidecar()),
                         [](const auto& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Ours, NoSnapshotCrdsTest, ::testing::Values(OurSidecar()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace snapshot_it
