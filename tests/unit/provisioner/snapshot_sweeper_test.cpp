// docs/provisioner.md §3.7 (the sweeper) and §9.7: the source-protection
// finalizer comes off every VolumeSnapshot no Pending (or phase-less) claim
// restores from, at start and every interval after; a failed removal is
// tried again at the next sweep. SnapshotSweeper over fake claim and
// snapshot sources, the recording API and a FakeClock (provisioner_fakes.h).
#include "provisioner/snapshot_sweeper.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "provisioner_fakes.h"

namespace provisioner {
namespace {

using namespace std::chrono_literals;
using fakes::kSnapshotFinalizer;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using Pvc = kube::PersistentVolumeClaim;

constexpr auto kInterval = 5min;

using SnapshotKey = std::pair<std::string, std::string>;

kube::VolumeSnapshot Snapshot(const std::string& ns, const std::string& name,
                              bool protected_as_source = true) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = ns;
  snapshot.metadata.name = name;
  snapshot.metadata.resource_version = "1";
  if (protected_as_source) snapshot.metadata.finalizers.push_back(std::string(kSnapshotFinalizer));
  return snapshot;
}

// apps/<name> restoring apps/<snapshot>, in `phase`.
Pvc Restoring(const std::string& name, const std::string& snapshot, const std::string& phase) {
  Pvc claim = fakes::PendingClaim(name, "uid-" + name);
  claim.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = std::string(kSnapshotGroup), .kind = "VolumeSnapshot", .name = snapshot};
  claim.status.phase = phase;
  return claim;
}

TEST(RestoredSnapshotTest, DataSourceElseDataSourceRefOfTheSnapshotKind) {
  EXPECT_EQ(RestoredSnapshotOf(Restoring("a", "snap", "Pending")), SnapshotKey("apps", "snap"));
  Pvc by_ref = fakes::PendingClaim("b", "uid-b");
  by_ref.spec.data_source_ref = kube::TypedObjectReference{
      .api_group = std::nullopt, .kind = "VolumeSnapshot", .name = "snap", .namespace_ = "team"};
  EXPECT_EQ(RestoredSnapshotOf(by_ref), SnapshotKey("team", "snap"));
  by_ref.spec.data_source_ref->namespace_ = std::nullopt;
  EXPECT_EQ(RestoredSnapshotOf(by_ref), SnapshotKey("apps", "snap"));
  Pvc other_group = Restoring("c", "snap", "Pending");
  other_group.spec.data_source->api_group = "example.com";
  EXPECT_EQ(RestoredSnapshotOf(other_group), std::nullopt);
  Pvc clone = fakes::PendingClaim("d", "uid-d");
  clone.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = std::nullopt, .kind = "PersistentVolumeClaim", .name = "src"};
  EXPECT_EQ(RestoredSnapshotOf(clone), std::nullopt);
}

class SnapshotSweeperTest : public fakes::World {
 protected:
  void Start(std::vector<Pvc> claims, std::vector<kube::VolumeSnapshot> snapshots) {
    claims_.SetItems(std::move(claims));
    snapshots_.SetItems(std::move(snapshots));
    kube::InformerSet& informers = MakeInformers();
    informers.UseSource(claims_);
    informers.UseSource(snapshots_);
    sweeper_.emplace(kInterval, informers, api_, clock_);
    RunController(*sweeper_);
  }
  // The snapshots whose finalizer the sweeps removed, in order.
  std::vector<std::string> Released() const {
    std::vector<std::string> released;
    for (const std::string& call : log_.All()) {
      if (call.starts_with("SNAPSHOT-FINALIZER ")) released.push_back(call);
    }
    return released;
  }
  static std::string Removal(const std::string& key) {
    return "SNAPSHOT-FINALIZER " + key + ": -" + std::string(kSnapshotFinalizer);
  }

  testsupport::FakeListerWatcher<Pvc> claims_;
  testsupport::FakeListerWatcher<kube::VolumeSnapshot> snapshots_;
  std::optional<SnapshotSweeper> sweeper_;
};

// Only snapshots a Pending or phase-less claim restores from keep it.
TEST_F(SnapshotSweeperTest, FirstSweepReleasesEverySnapshotNoPendingClaimRestoresFrom) {
  Start({Restoring("pending", "kept-pending", "Pending"),
         Restoring("phaseless", "kept-phaseless", ""), Restoring("bound", "orphan-bound", "Bound")},
        {Snapshot("apps", "kept-pending"), Snapshot("apps", "kept-phaseless"),
         Snapshot("apps", "orphan-bound"), Snapshot("apps", "orphan-unused"),
         Snapshot("other", "kept-pending"), Snapshot("apps", "unprotected", false)});
  // The sweep ends by sleeping until the next one.
  ASSERT_TRUE(AwaitTimer(kStart + kInterval));
  EXPECT_THAT(Released(),
              UnorderedElementsAre(Removal("apps/orphan-bound"), Removal("apps/orphan-unused"),
                                   Removal("other/kept-pending")));
}

// A claim restoring the snapshot binds: the next sweep releases it.
TEST_F(SnapshotSweeperTest, SnapshotIsReleasedAtTheSweepAfterItsClaimBinds) {
  Start({Restoring("data", "snap-1", "Pending")}, {Snapshot("apps", "snap-1")});
  ASSERT_TRUE(AwaitTimer(kStart + kInterval));
  EXPECT_THAT(Released(), IsEmpty());
  Send(claims_, kube::WatchEventType::kModified, Restoring("data", "snap-1", "Bound"));
  AdvanceToTimer(kStart + kInterval);
  ASSERT_TRUE(AwaitTimer(kStart + 2 * kInterval));
  EXPECT_THAT(Released(), ElementsAre(Removal("apps/snap-1")));
}

// A removal the API refused is tried again at the next sweep.
TEST_F(SnapshotSweeperTest, FailedRemovalIsTriedAgainAtTheNextSweep) {
  api_.Fail("SNAPSHOT-FINALIZER", "apps/snap-1", {fakes::ServerError()});
  Start({}, {Snapshot("apps", "snap-1")});
  ASSERT_TRUE(AwaitTimer(kStart + kInterval));
  EXPECT_THAT(Released(), ElementsAre(Removal("apps/snap-1")));
  AdvanceToTimer(kStart + kInterval);
  ASSERT_TRUE(AwaitTimer(kStart + 2 * kInterval));
  EXPECT_THAT(Released(), ElementsAre(Removal("apps/snap-1"), Removal("apps/snap-1")));
}

}  // namespace
}  // namespace provisioner
