// Group snapshots end to end (docs/snapshots.md §3.8 for the sidecar, §4.7
// for the controller), once per pairing of controller and sidecar, with the
// fault driver's GroupController: a VolumeGroupSnapshot over three labelled
// bound claims becomes one group content and three ready member snapshots and
// contents from one group on the driver (exactly one CreateVolumeGroupSnapshot
// with the three volume handles from our sidecar); deleting it removes
// everything with exactly one DeleteVolumeGroupSnapshot; a member cannot be
// deleted while its group lives; and bad input (a selector matching no claim,
// a claim of another driver, an unbound claim) ends in the group's error
// status with no content and no driver call - upstream's controller words
// these as ours does. Our sidecar's §9.11 (members never left unready after
// polls) runs with either controller next to our sidecar only.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "tests/integration/snapshot_controller/controller_pair_fixture.h"

namespace snapshot_it {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAreArray;

// The group's volumes; vol-d is the driver's too, its claim is not labelled
// for the group.
const std::vector<std::string> kGroupVolumes = {"vol-a", "vol-b", "vol-c"};
constexpr char kVolumeSizes[] =
    "vol-a:1073741824,vol-b:1073741824,vol-c:1073741824,vol-d:1073741824";
constexpr char kGroupBoundFinalizer[] =
    "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-bound-protection";
constexpr char kGroupHandleAnnotation[] = "groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle";
constexpr char kInGroupFinalizer[] =
    "snapshot.storage.kubernetes.io/volumesnapshot-in-group-protection";

bool GroupReady(const kube::VolumeGroupSnapshot& group) {
  return group.status && group.status->ready_to_use.value_or(false) &&
         group.status->bound_volume_group_snapshot_content_name;
}
bool GroupHasError(const kube::VolumeGroupSnapshot& group) {
  return group.status && group.status->error && group.status->error->message;
}

class GroupSnapshotPairTest : public ControllerPairTest {
 protected:
  // The fault driver (vol-a..vol-d) with `faults`, a group class of its
  // driver, the controller and the sidecar under test; the objects are named
  // after `test` and the pairing.
  void StartStack(const std::string& test, const std::string& faults = "") {
    test_ = test;
    driver_ = Name("group") + ".csi.example.com";
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver_, kVolumeSizes));
    if (!faults.empty()) WriteFaults(faults);
    kube::VolumeGroupSnapshotClass group_class;
    group_class.metadata.name = Name("group-class");
    group_class.driver = driver_;
    group_class.deletion_policy = "Delete";
    auto created = admin_->Create(group_class);
    ASSERT_TRUE(created.ok()) << "create VolumeGroupSnapshotClass: " << created.error().message;
    ASSERT_NE(StartControllerUnderTest(), nullptr);
    ASSERT_NE(StartSidecarUnderTest(), nullptr);
  }

  // A test that failed may leave its group behind; the next tests' fault
  // drivers hand out the same handles (group-1, handle-1, ...), so the group
  // goes while its stack still runs.
  void TearDown() override {
    if (HasFailure() && !test_.empty()) {
      if (admin_->Delete<kube::VolumeGroupSnapshot>("default", Name("group")).ok()) {
        AwaitGone<kube::VolumeGroupSnapshot>("default", Name("group"), std::chrono::seconds(30));
      }
    }
    ControllerPairTest::TearDown();
  }

  // `base` made this test's and this pairing's own.
  std::string Name(const std::string& base) const { return Unique(base + "-" + test_); }

  // A claim labelled group=<the test's label>, bound to `volume` of `driver`.
  void CreateLabelledClaim(const std::string& volume, const std::string& driver) {
    CreateBoundPvc("default", Name("pvc-" + volume), Name("pv-" + volume), driver, volume,
                   {{"group", Name("db")}});
  }

  // The VolumeGroupSnapshot selecting claims labelled group=`label`.
  kube::VolumeGroupSnapshot CreateGroup(const std::string& label) {
    kube::VolumeGroupSnapshot group;
    group.metadata.namespace_ = "default";
    group.metadata.name = Name("group");
    group.spec.source.selector = kube::LabelSelector{.match_labels = {{"group", label}}};
    group.spec.volume_group_snapshot_class_name = Name("group-class");
    auto created = admin_->Create(group);
    EXPECT_TRUE(created.ok()) << "create VolumeGroupSnapshot: " << created.error().message;
    return created.ok() ? *created : group;
  }

  // The three labelled claims, one unlabelled, then the group; waits for it
  // ready, checks its content, the content's info list and the three
  // members, each ready and bound to a ready content with the group's
  // handle. Returns the ready group (nullopt, the test failed, otherwise).
  std::optional<kube::VolumeGroupSnapshot> AwaitReadyGroupOfThree() {
    for (const std::string& volume : kGroupVolumes) CreateLabelledClaim(volume, driver_);
    CreateBoundPvc("default", Name("pvc-vol-d"), Name("pv-vol-d"), driver_, "vol-d",
                   {{"group", Name("other")}});
    if (HasFailure()) return std::nullopt;
    CreateGroup(Name("db"));
    auto group = Await<kube::VolumeGroupSnapshot>("default", Name("group"), GroupReady);
    EXPECT_TRUE(group && GroupReady(*group)) << "VolumeGroupSnapshot never became readyToUse";
    if (!group || !GroupReady(*group)) return std::nullopt;

    const std::string content_name = "groupsnapcontent-" + group->metadata.uid.str();
    EXPECT_EQ(group->status->bound_volume_group_snapshot_content_name, content_name);
    EXPECT_TRUE(HasFinalizer(group->metadata, kGroupBoundFinalizer));
    auto content = admin_->Get<kube::VolumeGroupSnapshotContent>("", content_name);
    EXPECT_TRUE(content.ok()) << content_name << ": " << content.error().message;
    if (!content.ok() || !content->status) return std::nullopt;
    EXPECT_EQ(content->spec.driver, driver_);
    EXPECT_THAT(content->spec.source.volume_handles, UnorderedElementsAreArray(kGroupVolumes));
    EXPECT_TRUE(content->status->ready_to_use.value_or(false));
    group_handle_ = content->status->volume_group_snapshot_handle.value_or("");
    EXPECT_FALSE(group_handle_.empty()) << "no volumeGroupSnapshotHandle";
    std::vector<std::string> info_volumes;
    for (const kube::VolumeSnapshotInfo& member : content->status->volume_snapshot_info_list) {
      info_volumes.push_back(member.volume_handle);
      EXPECT_EQ(member.ready_to_use, true) << "info list entry of " << member.volume_handle;
    }
    EXPECT_THAT(info_volumes, UnorderedElementsAreArray(kGroupVolumes));
    EXPECT_TRUE(Eventually([&] { return ReadyMembers(*group) == 3; }))
        << "members ready: " << ReadyMembers(*group);
    return HasFailure() ? std::nullopt : group;
  }

  // The VolumeSnapshots the group owns.
  std::vector<kube::VolumeSnapshot> Members(const kube::VolumeGroupSnapshot& group) const {
    std::vector<kube::VolumeSnapshot> members;
    auto all = admin_->List<kube::VolumeSnapshot>("default");
    if (!all.ok()) return members;
    for (const kube::VolumeSnapshot& snapshot : all->items) {
      if (std::ranges::any_of(snapshot.metadata.owner_references, [&](const auto& owner) {
            return owner.kind == "VolumeGroupSnapshot" && owner.uid == group.metadata.uid;
          })) {
        members.push_back(snapshot);
      }
    }
    return members;
  }

  // The members that are ready, in the group, bound to a ready content of
  // theirs with the group's handle in its status and annotation.
  int ReadyMembers(const kube::VolumeGroupSnapshot& group) const {
    int ready = 0;
    for (const kube::VolumeSnapshot& member : Members(group)) {
      if (!Ready(member) || !member.status->bound_volume_snapshot_content_name ||
          member.status->volume_group_snapshot_name != group.metadata.name ||
          !HasFinalizer(member.metadata, kInGroupFinalizer)) {
        continue;
      }
      auto content = admin_->Get<kube::VolumeSnapshotContent>(
          "", *member.status->bound_volume_snapshot_content_name);
      if (!content.ok()) continue;
      auto handle = content->metadata.annotations.find(kGroupHandleAnnotation);
      ready += content->status && content->status->ready_to_use == true &&
               content->status->volume_group_snapshot_handle == group_handle_ &&
               handle != content->metadata.annotations.end() && handle->second == group_handle_ &&
               content->spec.volume_snapshot_ref.uid == member.metadata.uid;
    }
    return ready;
  }

  // Deletes the group; it, its content, the members and their contents go.
  void DeleteAndExpectEverythingGone(const kube::VolumeGroupSnapshot& group) {
    const std::vector<kube::VolumeSnapshot> members = Members(group);
    EXPECT_EQ(members.size(), 3u);
    ASSERT_TRUE(admin_->Delete<kube::VolumeGroupSnapshot>("default", group.metadata.name).ok());
    EXPECT_TRUE(AwaitGone<kube::VolumeGroupSnapshot>("default", group.metadata.name))
        << "VolumeGroupSnapshot not released";
    EXPECT_TRUE(AwaitGone<kube::VolumeGroupSnapshotContent>(
        "", *group.status->bound_volume_group_snapshot_content_name))
        << "VolumeGroupSnapshotContent not deleted";
    for (const kube::VolumeSnapshot& member : members) {
      EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", member.metadata.name))
          << "member snapshot " << member.metadata.name;
      EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>(
          "", *member.status->bound_volume_snapshot_content_name))
          << "member content of " << member.metadata.name;
    }
  }

  // The group got the error status `message` (a part of it), no content and
  // no driver call.
  void ExpectGroupError(const kube::VolumeGroupSnapshot& created, const std::string& message) {
    auto group = Await<kube::VolumeGroupSnapshot>("default", created.metadata.name, GroupHasError);
    ASSERT_TRUE(group && GroupHasError(*group)) << "no error status";
    EXPECT_THAT(*group->status->error->message, HasSubstr(message));
    auto content = admin_->Get<kube::VolumeGroupSnapshotContent>(
        "", "groupsnapcontent-" + created.metadata.uid.str());
    EXPECT_TRUE(!content.ok() && kube::IsNotFound(content.error())) << "a group content was made";
    EXPECT_EQ(DriverCalls("CreateVolumeGroupSnapshot"), 0);
  }

  std::string test_;
  std::string driver_;
  std::string group_handle_;
};

// The requests of the driver's calls of `method`, whatever it answered.
std::vector<nlohmann::json> Requests(const nlohmann::json& state, const std::string& method) {
  std::vector<nlohmann::json> requests;
  for (const auto& call : state.value("calls", nlohmann::json::array())) {
    if (call["method"] == method) requests.push_back(call["request"]);
  }
  return requests;
}

TEST_P(GroupSnapshotPairTest, GroupOfThreeClaimsIsReadyFromOneCreateAndGoesWithOneDelete) {
  ASSERT_NO_FATAL_FAILURE(StartStack("three"));
  auto group = AwaitReadyGroupOfThree();
  ASSERT_TRUE(group);

  // One group on the driver, of the three volumes. Our sidecar asks for it
  // exactly once; upstream's syncs the group content again on its own
  // annotation write and may repeat the idempotent call under the same name
  // (seen with v8.7.0; docs/snapshots.md §9.3).
  const nlohmann::json state = DriverState();
  const nlohmann::json made = state.value("group_snapshots", nlohmann::json::object());
  ASSERT_EQ(made.size(), 1u) << "group snapshots on the driver: " << made.dump();
  const std::string made_name = made.begin().key();
  EXPECT_THAT(made.begin().value()["source_volume_ids"].get<std::vector<std::string>>(),
              UnorderedElementsAreArray(kGroupVolumes));
  const std::vector<nlohmann::json> creates = Requests(state, "CreateVolumeGroupSnapshot");
  for (const nlohmann::json& create : creates) {
    EXPECT_EQ(create["name"], made_name);
    EXPECT_THAT(create["source_volume_ids"].get<std::vector<std::string>>(),
                UnorderedElementsAreArray(kGroupVolumes));
  }
  if (GetParam().sidecar.name == OurSidecar().name) {
    EXPECT_EQ(creates.size(), 1u) << "CreateVolumeGroupSnapshot calls";
  } else {
    EXPECT_GE(creates.size(), 1u) << "CreateVolumeGroupSnapshot calls";
  }
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0) << "members are never created one by one";
  for (const kube::VolumeSnapshot& member : Members(*group)) {
    EXPECT_THAT(member.metadata.name, StartsWith("snapshot-"));
    EXPECT_THAT(*member.status->bound_volume_snapshot_content_name, StartsWith("snapcontent-"));
  }
  const std::string key = "default/" + group->metadata.name;
  auto creating =
      AwaitEvent("default", "VolumeGroupSnapshot", group->metadata.name, "CreatingGroupSnapshot");
  ASSERT_TRUE(creating);
  EXPECT_EQ(creating->message,
            "Waiting for a group snapshot " + key + " to be created by the CSI driver.");
  EXPECT_TRUE(
      AwaitEvent("default", "VolumeGroupSnapshot", group->metadata.name, "GroupSnapshotCreated"));
  EXPECT_TRUE(
      AwaitEvent("default", "VolumeGroupSnapshot", group->metadata.name, "GroupSnapshotReady"));

  ASSERT_NO_FATAL_FAILURE(DeleteAndExpectEverythingGone(*group));
  EXPECT_EQ(DriverCalls("DeleteVolumeGroupSnapshot"), 1);
  EXPECT_EQ(DriverCallsOk("DeleteVolumeGroupSnapshot"), 1);
  EXPECT_EQ(DriverCalls("DeleteSnapshot"), 0) << "members go with their group only";
}

TEST_P(GroupSnapshotPairTest, MemberDeletionIsHeldWhileItsGroupLives) {
  ASSERT_NO_FATAL_FAILURE(StartStack("held"));
  auto group = AwaitReadyGroupOfThree();
  ASSERT_TRUE(group);
  const kube::VolumeSnapshot member = Members(*group).front();

  ASSERT_TRUE(admin_->Delete<kube::VolumeSnapshot>("default", member.metadata.name).ok());

  auto pending =
      AwaitEvent("default", "VolumeSnapshot", member.metadata.name, "SnapshotDeletePending");
  ASSERT_TRUE(pending);
  EXPECT_THAT(
      pending->message,
      HasSubstr("is not allowed as it belongs to group snapshot default/" + group->metadata.name));
  auto held = admin_->Get<kube::VolumeSnapshot>("default", member.metadata.name);
  ASSERT_TRUE(held.ok()) << "the member went while its group lives";
  EXPECT_TRUE(HasFinalizer(held->metadata, kInGroupFinalizer));
  EXPECT_TRUE(
      admin_
          ->Get<kube::VolumeSnapshotContent>("", *member.status->bound_volume_snapshot_content_name)
          .ok());

  // Once the group goes, so does the member.
  ASSERT_TRUE(admin_->Delete<kube::VolumeGroupSnapshot>("default", group->metadata.name).ok());
  EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", member.metadata.name));
}

TEST_P(GroupSnapshotPairTest, SelectorMatchingNoClaimIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack("no-match"));
  const kube::VolumeGroupSnapshot created = CreateGroup(Name("nothing"));
  ExpectGroupError(created, "label selector group=" + Name("nothing") +
                                " for group snapshot not applied to any PVC");
}

TEST_P(GroupSnapshotPairTest, ClaimOfAnotherDriverIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack("other-driver"));
  CreateLabelledClaim("vol-a", driver_);
  CreateLabelledClaim("vol-b", "other." + driver_);
  const kube::VolumeGroupSnapshot created = CreateGroup(Name("db"));
  ExpectGroupError(created, "Volume CSI driver (other." + driver_ +
                                ") mismatch with VolumeGroupSnapshotClass (" + driver_ + ")");
  EXPECT_TRUE(AwaitEvent("default", "VolumeGroupSnapshot", created.metadata.name,
                         "CreateGroupSnapshotContentFailed"));
}

TEST_P(GroupSnapshotPairTest, UnboundClaimIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack("unbound"));
  CreateLabelledClaim("vol-a", driver_);
  kube::PersistentVolumeClaim unbound;
  unbound.metadata.namespace_ = "default";
  unbound.metadata.name = Name("pvc-unbound");
  unbound.metadata.labels = {{"group", Name("db")}};
  unbound.spec.access_modes = {"ReadWriteOnce"};
  unbound.spec.requests_storage = "1Gi";
  unbound.spec.storage_class_name = "";
  ASSERT_TRUE(admin_->Create(unbound).ok());
  const kube::VolumeGroupSnapshot created = CreateGroup(Name("db"));
  ExpectGroupError(created, "the PVC " + Name("pvc-unbound") +
                                " is not yet bound to a PV, will not attempt to take a group "
                                "snapshot");
}

INSTANTIATE_CONTROLLER_PAIRINGS(GroupSnapshotPairTest);

// docs/snapshots.md §9.11, a difference of our sidecar: the group is ready
// only from the driver's third answer; our sidecar polls it with
// CreateVolumeGroupSnapshot and keeps the info list current, so every member
// ends ready (upstream's sidecar keeps the first answer's unready entries).
// With either controller next to our sidecar.
class GroupSnapshotOurSidecarTest : public GroupSnapshotPairTest {};

TEST_P(GroupSnapshotOurSidecarTest, GroupReadyAfterPollsLeavesNoMemberUnready) {
  ASSERT_NO_FATAL_FAILURE(
      StartStack("polled", R"({"CreateVolumeGroupSnapshot": [{"ready_after": 3}]})"));
  auto group = AwaitReadyGroupOfThree();
  ASSERT_TRUE(group);
  EXPECT_EQ(DriverCallsOk("CreateVolumeGroupSnapshot"), 3) << "one create, then two polls";
  ASSERT_NO_FATAL_FAILURE(DeleteAndExpectEverythingGone(*group));
  EXPECT_EQ(DriverCallsOk("DeleteVolumeGroupSnapshot"), 1);
}

std::vector<Pairing> PairingsWithOurSidecar() {
  std::vector<Pairing> pairings = AllPairings();
  std::erase_if(pairings, [](const Pairing& p) { return p.sidecar.name != OurSidecar().name; });
  return pairings;
}

INSTANTIATE_TEST_SUITE_P(Pairings, GroupSnapshotOurSidecarTest,
                         ::testing::ValuesIn(PairingsWithOurSidecar()),
                         [](const ::testing::TestParamInfo<Pairing>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace snapshot_it
