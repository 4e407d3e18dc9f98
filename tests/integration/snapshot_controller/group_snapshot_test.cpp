// Group snapshots end to end (docs/snapshots.md §4.7): a real kube-apiserver
// with the six CRDs, OUR snapshot-controller as its RBAC-limited
// ServiceAccount (upstream's rules, §5), UPSTREAM's csi-snapshotter v8.7.0,
// and the fault driver's GroupController. A VolumeGroupSnapshot over three
// labelled claims becomes one group content and three ready members from one
// CreateVolumeGroupSnapshot; deleting it removes everything with one
// DeleteVolumeGroupSnapshot; a member cannot be deleted while its group
// lives; and bad input (a selector matching no claim, a claim of another
// driver, an unbound claim) ends in the group snapshot's status, with no
// content made.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
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
using ::testing::SizeIs;
using ::testing::UnorderedElementsAre;

constexpr char kVolumes[] = "vol-a:1073741824,vol-b:1073741824,vol-c:1073741824,vol-d:1073741824";
constexpr char kInGroupFinalizer[] =
    "snapshot.storage.kubernetes.io/volumesnapshot-in-group-protection";

bool GroupReady(const kube::VolumeGroupSnapshot& group) {
  return group.status && group.status->ready_to_use.value_or(false);
}
bool HasError(const kube::VolumeGroupSnapshot& group) {
  return group.status && group.status->error && group.status->error->message;
}

class GroupSnapshotTest : public SnapshotTest {
 protected:
  // The names of this test's objects.
  void SetUp() override {
    SnapshotTest::SetUp();
    tag_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(tag_.begin(), tag_.end(), tag_.begin(), [](char c) { return std::tolower(c); });
    tag_ = tag_.substr(0, 30);
    driver_ = tag_ + ".group.csi.example.com";
  }

  // The fault driver (volumes vol-a..vol-d), a group class of its driver
  // (policy `policy`), our controller and upstream's sidecar.
  void StartStack(const std::string& policy = "Delete") {
    ASSERT_NO_FATAL_FAILURE(StartFaultDriver(driver_, kVolumes));
    kube::VolumeGroupSnapshotClass group_class;
    group_class.metadata.name = Name("class");
    group_class.driver = driver_;
    group_class.deletion_policy = policy;
    auto created = admin_->Create(group_class);
    ASSERT_TRUE(created.ok()) << "create VolumeGroupSnapshotClass: " << created.error().message;
    ASSERT_NE(StartControllerOf(OurController()), nullptr);
    ASSERT_NE(StartSidecarOf(UpstreamSidecar()), nullptr);
  }

  // A claim labelled app=<tag> bound to a CSI volume of `driver` with `handle`.
  void CreateLabelledClaim(const std::string& suffix, const std::string& handle,
                           const std::string& driver) {
    CreateBoundPvc("default", Name("pvc-" + suffix), Name("pv-" + suffix), driver, handle,
                   {{"app", tag_}});
  }

  kube::VolumeGroupSnapshot CreateGroupSnapshot(const std::string& app) {
    kube::VolumeGroupSnapshot group;
    group.metadata.namespace_ = "default";
    group.metadata.name = Name("group");
    group.spec.source.selector = kube::LabelSelector{.match_labels = {{"app", app}}};
    group.spec.volume_group_snapshot_class_name = Name("class");
    auto created = admin_->Create(group);
    EXPECT_TRUE(created.ok()) << "create VolumeGroupSnapshot: " << created.error().message;
    return created.ok() ? *created : group;
  }

  // The VolumeSnapshots of the namespace owned by the group snapshot.
  std::vector<kube::VolumeSnapshot> Members(const kube::VolumeGroupSnapshot& group) {
    std::vector<kube::VolumeSnapshot> members;
    auto list = admin_->List<kube::VolumeSnapshot>("default");
    EXPECT_TRUE(list.ok());
    if (!list.ok()) return members;
    for (const auto& snapshot : list->items) {
      for (const auto& owner : snapshot.metadata.owner_references) {
        if (owner.kind == "VolumeGroupSnapshot" && owner.uid == group.metadata.uid) {
          members.push_back(snapshot);
        }
      }
    }
    return members;
  }

  // The group snapshot ready with its three members ready.
  std::optional<kube::VolumeGroupSnapshot> AwaitReadyGroupOfThree() {
    for (const char* n : {"a", "b", "c"}) CreateLabelledClaim(n, std::string("vol-") + n, driver_);
    CreateBoundPvc("default", Name("pvc-other"), Name("pv-other"), driver_, "vol-d",
                   {{"app", "other-" + tag_}});
    if (HasFailure()) return std::nullopt;
    const kube::VolumeGroupSnapshot created = CreateGroupSnapshot(tag_);
    auto group = Await<kube::VolumeGroupSnapshot>("default", created.metadata.name, GroupReady);
    EXPECT_TRUE(group && GroupReady(*group)) << "the group snapshot never became ready";
    if (!group || !GroupReady(*group)) return std::nullopt;
    bool members_ready = Eventually([&] {
      auto members = Members(*group);
      return members.size() == 3 &&
             std::all_of(members.begin(), members.end(), [](const auto& m) { return Ready(m); });
    });
    EXPECT_TRUE(members_ready) << "three ready members never appeared";
    return members_ready ? group : std::nullopt;
  }

  std::string Name(const std::string& base) const { return base + "-" + tag_; }

  std::string tag_;
  std::string driver_;
};

TEST_F(GroupSnapshotTest, ThreeLabelledClaimsGetOneGroupContentAndThreeReadyMembers) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
  auto group = AwaitReadyGroupOfThree();
  ASSERT_TRUE(group);

  const std::string content_name = "groupsnapcontent-" + group->metadata.uid;
  EXPECT_EQ(group->status->bound_volume_group_snapshot_content_name, content_name);
  EXPECT_TRUE(HasFinalizer(
      group->metadata, "groupsnapshot.storage.kubernetes.io/volumegroupsnapshot-bound-protection"));
  auto content = admin_->Get<kube::VolumeGroupSnapshotContent>("", content_name);
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_THAT(content->spec.source.volume_handles, UnorderedElementsAre("vol-a", "vol-b", "vol-c"));
  EXPECT_EQ(content->spec.driver, driver_);
  ASSERT_TRUE(content->status && content->status->volume_group_snapshot_handle);

  for (const kube::VolumeSnapshot& member : Members(*group)) {
    EXPECT_EQ(member.status->volume_group_snapshot_name, group->metadata.name);
    EXPECT_TRUE(HasFinalizer(member.metadata, kInGroupFinalizer));
    EXPECT_THAT(member.metadata.name, ::testing::StartsWith("snapshot-"));
    auto member_content = admin_->Get<kube::VolumeSnapshotContent>(
        "", *member.status->bound_volume_snapshot_content_name);
    ASSERT_TRUE(member_content.ok());
    auto handle = member_content->metadata.annotations.find(
        "groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle");
    ASSERT_NE(handle, member_content->metadata.annotations.end());
    EXPECT_EQ(handle->second, *content->status->volume_group_snapshot_handle);
    EXPECT_EQ(member_content->spec.volume_snapshot_ref.uid, member.metadata.uid);
  }
  EXPECT_EQ(DriverCallsOk("CreateVolumeGroupSnapshot"), 1);
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0);

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
}

TEST_F(GroupSnapshotTest, DeletingTheGroupRemovesEverythingWithOneDeleteVolumeGroupSnapshot) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
  auto group = AwaitReadyGroupOfThree();
  ASSERT_TRUE(group);
  const std::vector<kube::VolumeSnapshot> members = Members(*group);
  const std::string content_name = *group->status->bound_volume_group_snapshot_content_name;

  ASSERT_TRUE(admin_->Delete<kube::VolumeGroupSnapshot>("default", group->metadata.name).ok());

  EXPECT_TRUE(AwaitGone<kube::VolumeGroupSnapshot>("default", group->metadata.name));
  EXPECT_TRUE(AwaitGone<kube::VolumeGroupSnapshotContent>("", content_name));
  for (const kube::VolumeSnapshot& member : members) {
    EXPECT_TRUE(AwaitGone<kube::VolumeSnapshot>("default", member.metadata.name))
        << member.metadata.name;
    EXPECT_TRUE(AwaitGone<kube::VolumeSnapshotContent>(
        "", *member.status->bound_volume_snapshot_content_name));
  }
  EXPECT_EQ(DriverCallsOk("DeleteVolumeGroupSnapshot"), 1);
  EXPECT_EQ(DriverCalls("DeleteSnapshot"), 0);
}

TEST_F(GroupSnapshotTest, MemberDeletionIsHeldWhileItsGroupLives) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
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

TEST_F(GroupSnapshotTest, SelectorMatchingNoClaimIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
  const kube::VolumeGroupSnapshot created = CreateGroupSnapshot("nothing-" + tag_);
  auto group = Await<kube::VolumeGroupSnapshot>("default", created.metadata.name, HasError);
  ASSERT_TRUE(group && HasError(*group));
  EXPECT_THAT(*group->status->error->message,
              HasSubstr("label selector app=nothing-" + tag_ +
                        " for group snapshot not applied to any PVC"));
  EXPECT_FALSE(
      admin_->Get<kube::VolumeGroupSnapshotContent>("", "groupsnapcontent-" + created.metadata.uid)
          .ok());
  EXPECT_EQ(DriverCalls("CreateVolumeGroupSnapshot"), 0);
}

TEST_F(GroupSnapshotTest, ClaimOfAnotherDriverIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
  CreateLabelledClaim("a", "vol-a", driver_);
  CreateLabelledClaim("b", "vol-b", "other." + driver_);
  const kube::VolumeGroupSnapshot created = CreateGroupSnapshot(tag_);
  auto group = Await<kube::VolumeGroupSnapshot>("default", created.metadata.name, HasError);
  ASSERT_TRUE(group && HasError(*group));
  EXPECT_THAT(*group->status->error->message,
              HasSubstr("Volume CSI driver (other." + driver_ +
                        ") mismatch with VolumeGroupSnapshotClass (" + driver_ + ")"));
  EXPECT_TRUE(AwaitEvent("default", "VolumeGroupSnapshot", created.metadata.name,
                         "CreateGroupSnapshotContentFailed"));
  EXPECT_EQ(DriverCalls("CreateVolumeGroupSnapshot"), 0);
}

TEST_F(GroupSnapshotTest, UnboundClaimIsReportedAndMakesNoContent) {
  ASSERT_NO_FATAL_FAILURE(StartStack());
  CreateLabelledClaim("a", "vol-a", driver_);
  kube::PersistentVolumeClaim unbound;
  unbound.metadata.namespace_ = "default";
  unbound.metadata.name = Name("pvc-unbound");
  unbound.metadata.labels = {{"app", tag_}};
  unbound.spec.access_modes = {"ReadWriteOnce"};
  unbound.spec.requests_storage = "1Gi";
  unbound.spec.storage_class_name = "";
  ASSERT_TRUE(admin_->Create(unbound).ok());
  const kube::VolumeGroupSnapshot created = CreateGroupSnapshot(tag_);
  auto group = Await<kube::VolumeGroupSnapshot>("default", created.metadata.name, HasError);
  ASSERT_TRUE(group && HasError(*group));
  EXPECT_THAT(*group->status->error->message,
              HasSubstr("the PVC " + Name("pvc-unbound") +
                        " is not yet bound to a PV, will not attempt to take a group snapshot"));
  EXPECT_EQ(DriverCalls("CreateVolumeGroupSnapshot"), 0);
}

}  // namespace
}  // namespace snapshot_it
