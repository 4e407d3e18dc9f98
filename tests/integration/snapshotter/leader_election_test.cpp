// Our sidecar and upstream's contend for one Lease,
// external-snapshotter-leader-<sanitized driver> (docs/snapshots.md §3.2 step
// 8): the holder takes the snapshots, the other waits and takes over when the
// holder stops. On SIGTERM ours releases the Lease at once (§9.8); upstream's
// does not (that is behind its alpha ReleaseLeaderElectionOnExit gate), so
// ours waits for the Lease to expire.
#include <gtest/gtest.h>

#include "base/file.h"
#include "kube/api/coordination/v1/lease.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

constexpr char kOurIdentity[] = "ours";

class LeaderElectionTest : public SnapshotTest {
 protected:
  // A mock driver, a bound PVC, a class and the controller for `driver`,
  // whose Lease is `lease_name`.
  void Prepare(const std::string& driver, const std::string& lease_name) {
    driver_name_ = driver;
    lease_name_ = lease_name;
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(driver, 1));
    CreateBoundPvc("default", "pvc-" + driver, "pv-" + driver, driver, "4");
    ASSERT_FALSE(HasFailure()) << "PVC and PV setup failed";
    ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass("class-" + driver, driver, "Delete"));
    ASSERT_NO_FATAL_FAILURE(StartSnapshotController());
  }

  // A contender with a short Lease; ours named kOurIdentity (a test hook, as
  // both run on one host), upstream's by its hostname.
  testsupport::Process* StartContender(const std::string& binary, const std::string& log_name,
                                       std::vector<std::pair<std::string, std::string>> env = {}) {
    return StartSidecar(
        binary,
        {"--leader-election", "--leader-election-namespace=default",
         "--leader-election-lease-duration=4s", "--leader-election-renew-deadline=3s",
         "--leader-election-retry-period=1s"},
        std::move(env), log_name);
  }
  testsupport::Process* StartOurs() {
    return StartContender(SNAPSHOTTER_BIN, "ours",
                          {{"CSI_SNAPSHOTTER_LEADER_IDENTITY", kOurIdentity}});
  }
  testsupport::Process* StartUpstream() {
    auto binary = UpstreamSidecar().binary();
    if (!binary.ok()) {
      ADD_FAILURE() << binary.error().message;
      return nullptr;
    }
    return StartContender(*binary, "upstream");
  }

  // The Lease's holder ("" when released or absent).
  std::string Holder() const {
    auto lease = admin_->Get<kube::Lease>("default", lease_name_);
    return lease.ok() ? lease->spec.holder_identity : "";
  }
  // Upstream's identity is its hostname: any holder but ours.
  bool UpstreamHolds() const {
    std::string holder = Holder();
    return !holder.empty() && holder != kOurIdentity;
  }

  // A VolumeSnapshot of the PVC that becomes ready, taken by the leader.
  void TakeSnapshot(const std::string& name) {
    CreateVolumeSnapshot("default", name, "pvc-" + driver_name_, "class-" + driver_name_);
    auto snapshot = Await<kube::VolumeSnapshot>("default", name, Ready);
    EXPECT_TRUE(snapshot && Ready(*snapshot)) << name << " never became readyToUse";
  }

  // How often the sidecar logged a CreateSnapshot call.
  static int CreateCallsLogged(testsupport::Process& sidecar) {
    auto log = base::ReadFile(sidecar.log_file());
    if (!log.ok()) return 0;
    int count = 0;
    const std::string needle = "/csi.v1.Controller/CreateSnapshot";
    for (auto pos = log->find(needle); pos != std::string::npos; pos = log->find(needle, pos + 1)) {
      ++count;
    }
    return count;
  }

  std::string driver_name_;
  std::string lease_name_;
};

TEST_F(LeaderElectionTest, OursLeadsAndReleasesTheLeaseOnSigtermThenUpstreamTakesOver) {
  ASSERT_NO_FATAL_FAILURE(
      Prepare("le-ours.csi.example.com", "external-snapshotter-leader-le-ours-csi-example-com"));
  testsupport::Process* ours = StartOurs();
  ASSERT_NE(ours, nullptr);
  ASSERT_TRUE(Eventually([&] { return Holder() == kOurIdentity; })) << "ours never led";
  testsupport::Process* upstream = StartUpstream();
  ASSERT_NE(upstream, nullptr);
  TakeSnapshot("snap-le-first");
  EXPECT_EQ(Holder(), kOurIdentity);
  EXPECT_EQ(CreateCallsLogged(*upstream), 0) << "the standby called the driver";

  ours->Stop();
  EXPECT_EQ(ours->exit_status(), 0);
  // Released, not left to expire: right after ours exited the Lease no
  // longer names it (empty, or upstream's already).
  EXPECT_NE(Holder(), kOurIdentity) << "ours exited without releasing the Lease";
  ASSERT_TRUE(Eventually([&] { return UpstreamHolds(); })) << "upstream never took over";
  TakeSnapshot("snap-le-second");
  EXPECT_GE(CreateCallsLogged(*upstream), 1) << "upstream took no snapshot as the leader";
}

TEST_F(LeaderElectionTest, UpstreamLeadsAndOursTakesOverWhenItStops) {
  ASSERT_NO_FATAL_FAILURE(Prepare("le-upstream.csi.example.com",
                                  "external-snapshotter-leader-le-upstream-csi-example-com"));
  testsupport::Process* upstream = StartUpstream();
  ASSERT_NE(upstream, nullptr);
  ASSERT_TRUE(Eventually([&] { return UpstreamHolds(); })) << "upstream never led";
  testsupport::Process* ours = StartOurs();
  ASSERT_NE(ours, nullptr);
  TakeSnapshot("snap-le-up-first");
  EXPECT_TRUE(UpstreamHolds());
  EXPECT_EQ(CreateCallsLogged(*ours), 0) << "the standby called the driver";

  upstream->Stop();
  ASSERT_TRUE(Eventually([&] { return Holder() == kOurIdentity; })) << "ours never took over";
  TakeSnapshot("snap-le-up-second");
  EXPECT_GE(CreateCallsLogged(*ours), 1) << "ours took no snapshot as the leader";
  EXPECT_TRUE(ours->IsRunning());
}

}  // namespace
}  // namespace snapshot_it
