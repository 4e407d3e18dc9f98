// docs/snapshots.md §9.14: the fault drills an operator runs on the snapshot
// pair (ours). A storm of snapshots of bound claims, and one part of the
// system - the API server, the snapshot-controller or the csi-snapshotter -
// killed with SIGKILL in the middle of it and started again 5 s later. After
// each: every claim free of `pvc-as-source-protection` within 30 s of the
// restart, one content per snapshot, nothing leaked on the driver. Both
// binaries run with upstream's default retry intervals (1 s to 5 min), so a
// backoff grown while the server was away is not what brings them back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "tests/integration/snapshot_controller/controller_pair_fixture.h"
#include "tests/support/control_plane.h"

namespace snapshot_it {
namespace {

using namespace std::chrono_literals;

constexpr int kStorm = 40;
constexpr int kKillAfter = 10;  // snapshots ready (or gone) when the kill comes
constexpr auto kDownFor = 5s;
constexpr auto kClaimsFreeWithin = 30s;

enum class Victim { kApiServer, kController, kSidecar };

std::string VictimName(const ::testing::TestParamInfo<Victim>& info) {
  switch (info.param) {
    case Victim::kApiServer:
      return "ApiServer";
    case Victim::kController:
      return "SnapshotController";
    case Victim::kSidecar:
      return "CsiSnapshotter";
  }
  return "Unknown";
}

// The name in lower case, as part of object names.
std::string Tag(Victim victim) {
  std::string tag = VictimName({victim, 0});
  std::transform(tag.begin(), tag.end(), tag.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return tag;
}

class RestartDrillTest : public OursOnlyTest, public ::testing::WithParamInterface<Victim> {
 protected:
  // A fault driver with kStorm volumes, a bound claim of each, a class of
  // policy Delete, our two binaries.
  void SetUpStorm(const std::string& tag) {
    tag_ = tag;
    driver_ = "drill-" + tag + ".csi.example.com";
    std::string volumes;
    for (int i = 0; i < kStorm; ++i) {
      volumes += (i ? "," : "") + VolumeHandle(i) + ":1073741824";
    }
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver_, volumes));
    for (int i = 0; i < kStorm; ++i) {
      CreateBoundPvc("default", Name("pvc", i), Name("pv", i), driver_, VolumeHandle(i));
    }
    ASSERT_FALSE(HasFailure()) << "claims and volumes";
    ASSERT_NO_FATAL_FAILURE(CreateSnapshotClass(ClassName(), driver_, "Delete"));
    controller_ = StartController("snapshot-controller");
    ASSERT_NE(controller_, nullptr);
    sidecar_ = StartSidecar("sidecar");
    ASSERT_NE(sidecar_, nullptr);
  }

  testsupport::Process* StartController(const std::string& log_name) {
    return StartControllerOf(
        OurController(),
        {"--worker-threads=10", "--kube-api-qps=50", "--kube-api-burst=50",
         "--retry-interval-start=1s", "--retry-interval-max=5m", "--resync-period=15m"},
        {}, log_name);
  }
  testsupport::Process* StartSidecar(const std::string& log_name) {
    return StartSidecarOf(
        OurSidecar(),
        {"--retry-interval-start=1s", "--retry-interval-max=5m", "--resync-period=15m"}, {},
        log_name);
  }

  void CreateStorm() {
    for (int i = 0; i < kStorm; ++i) {
      CreateVolumeSnapshot("default", Name("snap", i), Name("pvc", i), ClassName());
    }
  }
  void DeleteStorm() {
    for (int i = 0; i < kStorm; ++i) {
      auto deleted = admin_->Delete<kube::VolumeSnapshot>("default", Name("snap", i));
      ASSERT_TRUE(deleted.ok()) << deleted.error().message;
    }
  }

  // The storm's snapshots as the server lists them; nullopt while it cannot.
  std::optional<std::vector<kube::VolumeSnapshot>> Snapshots() {
    auto all = admin_->List<kube::VolumeSnapshot>("default");
    if (!all.ok()) return std::nullopt;
    std::vector<kube::VolumeSnapshot> ours;
    for (auto& snapshot : all->items) {
      if (snapshot.metadata.name.starts_with(Name("snap", -1))) ours.push_back(std::move(snapshot));
    }
    return ours;
  }
  int ReadySnapshots() {
    auto snapshots = Snapshots();
    if (!snapshots) return -1;
    return static_cast<int>(std::count_if(snapshots->begin(), snapshots->end(), Ready));
  }
  int GoneSnapshots() {
    auto snapshots = Snapshots();
    return snapshots ? kStorm - static_cast<int>(snapshots->size()) : -1;
  }
  // Polls `count` every 50 ms until it reaches `at_least`; returns it.
  static int AwaitAtLeast(const std::function<int()>& count, int at_least,
                          std::chrono::seconds timeout) {
    int seen = -1;
    for (auto deadline = std::chrono::steady_clock::now() + timeout;
         std::chrono::steady_clock::now() < deadline && seen < at_least;
         std::this_thread::sleep_for(50ms)) {
      seen = count();
    }
    return seen;
  }

  // SIGKILL, kDownFor, start again; returns when the victim is back.
  void KillAndRestart(Victim victim) {
    switch (victim) {
      case Victim::kApiServer:
        plane_->KillApiServer();
        std::this_thread::sleep_for(kDownFor);
        ASSERT_TRUE(plane_->StartApiServer().ok());
        return;
      case Victim::kController:
        controller_->Kill();
        std::this_thread::sleep_for(kDownFor);
        controller_ = StartController("snapshot-controller-restarted");
        ASSERT_NE(controller_, nullptr);
        return;
      case Victim::kSidecar:
        sidecar_->Kill();
        std::this_thread::sleep_for(kDownFor);
        sidecar_ = StartSidecar("sidecar-restarted");
        ASSERT_NE(sidecar_, nullptr);
        return;
    }
  }

  // The claims still holding the finalizer; all of them while the server
  // does not answer.
  std::vector<std::string> ProtectedClaims() {
    std::vector<std::string> held;
    for (int i = 0; i < kStorm; ++i) {
      auto claim = admin_->Get<kube::PersistentVolumeClaim>("default", Name("pvc", i));
      if (!claim.ok() || HasFinalizer(claim->metadata, kPvcAsSourceFinalizer)) {
        held.push_back(Name("pvc", i));
      }
    }
    return held;
  }
  void ExpectClaimsFreeWithin(std::chrono::seconds window) {
    std::vector<std::string> held;
    Eventually(
        [&] {
          held = ProtectedClaims();
          return held.empty();
        },
        window);
    EXPECT_TRUE(held.empty()) << held.size() << " claims still hold " << kPvcAsSourceFinalizer
                              << " " << window.count() << " s after the restart, the first "
                              << held.front();
  }

  // Contents bound to the storm's snapshots, by snapshot name; nullopt while
  // the server cannot list them.
  std::optional<std::map<std::string, int>> ContentsPerSnapshot() {
    auto contents = admin_->List<kube::VolumeSnapshotContent>("");
    if (!contents.ok()) return std::nullopt;
    std::map<std::string, int> per_snapshot;
    for (const auto& content : contents->items) {
      const std::string& name = content.spec.volume_snapshot_ref.name;
      if (name.starts_with(Name("snap", -1))) ++per_snapshot[name];
    }
    return per_snapshot;
  }
  // The snapshots the driver holds; -1 before its state file lists them.
  int DriverSnapshots() {
    nlohmann::json state = DriverState();
    if (!state.contains("existing_snapshots")) return -1;
    return static_cast<int>(state["existing_snapshots"].size());
  }

  // <kind>-drill-<tag>-<i>; i < 0 gives the prefix of them all.
  std::string Name(const std::string& kind, int i) const {
    std::string prefix = kind + "-drill-" + tag_ + "-";
    return i < 0 ? prefix : prefix + std::to_string(i);
  }
  static std::string VolumeHandle(int i) { return "vol-" + std::to_string(i); }
  std::string ClassName() const { return "class-drill-" + tag_; }

 private:
  std::string tag_;
  testsupport::Process* controller_ = nullptr;
  testsupport::Process* sidecar_ = nullptr;
  std::string driver_;
};

TEST_P(RestartDrillTest, ClaimsAreFreeWithin30sOfARestartMidSnapshotStormAndNothingLeaks) {
  ASSERT_NO_FATAL_FAILURE(SetUpStorm("create-" + Tag(GetParam())));
  CreateStorm();
  const int ready_at_kill = AwaitAtLeast([&] { return ReadySnapshots(); }, kKillAfter, 60s);
  ASSERT_GE(ready_at_kill, kKillAfter) << "the storm never got going";
  ASSERT_LT(ready_at_kill, kStorm) << "the kill came after the storm";
  ASSERT_NO_FATAL_FAILURE(KillAndRestart(GetParam()));

  ExpectClaimsFreeWithin(kClaimsFreeWithin);
  EXPECT_EQ(AwaitAtLeast([&] { return ReadySnapshots(); }, kStorm, 30s), kStorm);
  std::optional<std::map<std::string, int>> contents = ContentsPerSnapshot();
  ASSERT_TRUE(contents) << "cannot list contents";
  EXPECT_EQ(contents->size(), static_cast<size_t>(kStorm));
  for (const auto& [snapshot, count] : *contents) {
    EXPECT_EQ(count, 1) << snapshot << " has " << count << " contents";
  }
  EXPECT_EQ(DriverSnapshots(), kStorm) << DriverState().dump();
  std::cout << "[ drill    ] " << ready_at_kill << " of " << kStorm
            << " snapshots were ready at the kill\n";
}

INSTANTIATE_TEST_SUITE_P(Victims, RestartDrillTest,
                         ::testing::Values(Victim::kApiServer, Victim::kController,
                                           Victim::kSidecar),
                         VictimName);

// The same kill while the storm's snapshots (all ready, policy Delete) are
// being deleted: every snapshot, content and driver snapshot goes, and no
// claim keeps the finalizer.
using DeletionDrillTest = RestartDrillTest;

TEST_P(DeletionDrillTest, NothingIsLeftAfterARestartMidDeletionStorm) {
  ASSERT_NO_FATAL_FAILURE(SetUpStorm("delete-" + Tag(GetParam())));
  CreateStorm();
  ASSERT_EQ(AwaitAtLeast([&] { return ReadySnapshots(); }, kStorm, 60s), kStorm);
  ExpectClaimsFreeWithin(kClaimsFreeWithin);
  ASSERT_NO_FATAL_FAILURE(DeleteStorm());
  const int gone_at_kill = AwaitAtLeast([&] { return GoneSnapshots(); }, kKillAfter, 60s);
  ASSERT_GE(gone_at_kill, kKillAfter) << "the deletions never got going";
  ASSERT_LT(gone_at_kill, kStorm) << "the kill came after the storm";
  ASSERT_NO_FATAL_FAILURE(KillAndRestart(GetParam()));

  EXPECT_EQ(AwaitAtLeast([&] { return GoneSnapshots(); }, kStorm, 60s), kStorm);
  std::optional<std::map<std::string, int>> contents;
  EXPECT_TRUE(Eventually(
      [&] {
        contents = ContentsPerSnapshot();
        return contents && contents->empty();
      },
      30s))
      << (contents ? std::to_string(contents->size()) + " contents left" : "cannot list contents");
  EXPECT_TRUE(Eventually([&] { return DriverSnapshots() == 0; }, 30s)) << DriverState().dump();
  ExpectClaimsFreeWithin(kClaimsFreeWithin);
  std::cout << "[ drill    ] " << gone_at_kill << " of " << kStorm
            << " snapshots were gone at the kill\n";
}

INSTANTIATE_TEST_SUITE_P(Victims, DeletionDrillTest, ::testing::Values(Victim::kApiServer),
                         VictimName);

}  // namespace
}  // namespace snapshot_it
