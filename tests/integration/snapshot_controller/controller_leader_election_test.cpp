// Our snapshot-controller and upstream's contend for one Lease,
// kube-system/snapshot-controller-leader (docs/snapshots.md §4.1): the holder
// does the work, the other waits and takes over when the holder stops. On
// SIGTERM ours releases the Lease at once (§9.8); upstream's does not (that is
// behind its alpha ReleaseLeaderElectionOnExit gate), so ours waits for it to
// expire. The sidecar is upstream's in both tests: only the controllers vary.
#include <gtest/gtest.h>

#include "base/file.h"
#include "kube/api/coordination/v1/lease.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

constexpr char kLeaseName[] = "snapshot-controller-leader";
constexpr char kOurIdentity[] = "ours";

class ControllerLeaderElectionTest : public SnapshotTest {
 protected:
  // A mock driver, a bound PVC, a class and upstream's sidecar for `driver`.
  void Prepare(const std::string& driver) {
    driver_name_ = driver;
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));
    CreateBoundPvc("default", "pvc-" + driver, "pv-" + driver, driver, "4");
    ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
    ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-" + driver, driver, "Delete"));
    ASSERT_NE(StartSidecarOf(UpstreamSidecar()), nullptr);
  }

  // A contender with a short Lease in the controller's namespace, where its
  // RBAC grants Leases; ours named kOurIdentity (a test hook, as both run on
  // one host), upstream's by its hostname.
  testsupport::Process* StartContender(const ControllerUnderTest& controller,
                                       const std::string& log_name,
                                       std::vector<std::pair<std::string, std::string>> env = {}) {
    return StartControllerOf(
        controller,
        {"--leader-election",
         std::string("--leader-election-namespace=") + kSnapshotControllerNamespace,
         "--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
         "--leader-election-retry-period=1s"},
        std::move(env), log_name);
  }
  testsupport::Process* StartOurs() {
    return StartContender(OurController(), "ours-controller",
                          {{"SNAPSHOT_CONTROLLER_LEADER_IDENTITY", kOurIdentity}});
  }
  testsupport::Process* StartUpstream() {
    return StartContender(UpstreamController(), "upstream-controller");
  }

  // The Lease's holder ("" when released or absent).
  std::string Holder() const {
    auto lease = admin_->Get<kube::Lease>(kSnapshotControllerNamespace, kLeaseName);
    return lease.ok() ? lease->spec.holder_identity : "";
  }
  // Upstream's identity is its hostname: any holder but ours.
  bool UpstreamHolds() const {
    std::string holder = Holder();
    return !holder.empty() && holder != kOurIdentity;
  }

  // A VolumeSnapshot of the PVC that becomes ready.
  void TakeSnapshot(const std::string& name) {
    CreateVolumeSnapshot("default", name, "pvc-" + driver_name_, "class-" + driver_name_);
    auto snapshot = Await<kube::VolumeSnapshot>("default", name, Ready);
    EXPECT_TRUE(snapshot && Ready(*snapshot)) << name << " never became readyToUse";
  }

  // Whether upstream's controller logged making the content of `snapshot`
  // (its klog line at -v=5 and above).
  static bool UpstreamMadeContentOf(testsupport::Process& upstream, const std::string& snapshot) {
    auto log = base::ReadFile(upstream.log_file());
    return log.ok() && log->find("createSnapshotContent: Creating content for snapshot default/" +
                                 snapshot + " ") != std::string::npos;
  }

  std::string driver_name_;
};

TEST_F(ControllerLeaderElectionTest, OursLeadsAndReleasesTheLeaseOnSigtermThenUpstreamTakesOver) {
  ASSERT_NO_FATAL_FAILURE(Prepare("ctl-le-ours.csi.example.com"));
  testsupport::Process* ours = StartOurs();
  ASSERT_NE(ours, nullptr);
  ASSERT_TRUE(Eventually([&] { return Holder() == kOurIdentity; })) << "ours never led";
  testsupport::Process* upstream = StartUpstream();
  ASSERT_NE(upstream, nullptr);
  TakeSnapshot("snap-ctl-le-ours-first");
  EXPECT_EQ(Holder(), kOurIdentity);
  EXPECT_FALSE(UpstreamMadeContentOf(*upstream, "snap-ctl-le-ours-first"))
      << "the standby made a content";

  ours->Stop();
  EXPECT_EQ(ours->exit_status(), 0);
  // Released, not left to expire: right after ours exited the Lease no
  // longer names it (empty, or upstream's already).
  EXPECT_NE(Holder(), kOurIdentity) << "ours exited without releasing the Lease";
  ASSERT_TRUE(Eventually([&] { return UpstreamHolds(); })) << "upstream never took over";
  TakeSnapshot("snap-ctl-le-ours-second");
  EXPECT_TRUE(UpstreamMadeContentOf(*upstream, "snap-ctl-le-ours-second"))
      << "upstream did not make the content as the leader";
}

TEST_F(ControllerLeaderElectionTest, UpstreamLeadsAndOursTakesOverWhenItStops) {
  ASSERT_NO_FATAL_FAILURE(Prepare("ctl-le-upstream.csi.example.com"));
  testsupport::Process* upstream = StartUpstream();
  ASSERT_NE(upstream, nullptr);
  ASSERT_TRUE(Eventually([&] { return UpstreamHolds(); })) << "upstream never led";
  testsupport::Process* ours = StartOurs();
  ASSERT_NE(ours, nullptr);
  TakeSnapshot("snap-ctl-le-up-first");
  EXPECT_TRUE(UpstreamHolds());
  EXPECT_TRUE(UpstreamMadeContentOf(*upstream, "snap-ctl-le-up-first"))
      << "the leader did not make the content";

  upstream->Stop();
  ASSERT_TRUE(Eventually([&] { return Holder() == kOurIdentity; })) << "ours never took over";
  // Upstream is gone: whatever happens now is ours.
  TakeSnapshot("snap-ctl-le-up-second");
  EXPECT_TRUE(ours->IsRunning());
}

}  // namespace
}  // namespace snapshot_it
