// GroupSnapshotSync of dynamic group snapshots (docs/snapshots.md §4.7): the
// class (named, or the default group class of the claims' driver),
// validation, the dynamic group content made from the claims matchLabels
// selects, and bad input on the way (no claim, an unbound claim, a claim of
// another driver, a non-CSI volume, a failed list).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/group_snapshot_sync_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// The content the default group snapshot gets.
kube::VolumeGroupSnapshotContent GroupContentToPost() {
  return GroupContent([](auto& c) { c.metadata.resource_version.clear(); });
}

const nlohmann::json kGroupBoundUnready = {
    {"boundVolumeGroupSnapshotContentName", kGroupContentName}, {"readyToUse", false}};

RecordedEvent CreatingGroupSnapshot() {
  return GroupNormal("CreatingGroupSnapshot",
                     "Waiting for a group snapshot default/group-1 to be created by the CSI "
                     "driver.");
}

kube::VolumeGroupSnapshotClass DefaultGroupClass(std::string name, std::string driver) {
  return GroupClass([&](auto& c) {
    c.metadata.name = std::move(name);
    c.driver = std::move(driver);
    c.metadata.annotations = {{std::string(kube::kIsDefaultGroupSnapshotClassAnnotation), "true"}};
  });
}

// The calls of a sync that fails making the content, up to the error status.
std::vector<ApiCall> FailedCreate(const std::string& message) {
  return {ListGroupClaims(),
          PatchGroupStatus(
              "5", {{"error", GroupErrorStatus("failed to create group snapshot content with "
                                               "error " +
                                               message)},
                    {"readyToUse", false}})};
}

// --- the dynamic group content ------------------------------------------------

TEST_F(GroupSnapshotSyncTest, DynamicGroupContentIsMadeFromTheClaimsMatchLabelsSelects) {
  HaveGroupSource();
  Have(GroupClaim(3, [](auto& c) { c.metadata.labels = {{"app", "web"}}; }));

  ASSERT_TRUE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(ListGroupClaims(), CreateCall(kGroupContents, GroupContentToPost()),
                          PatchGroupStatus("5", kGroupBoundUnready)));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingGroupSnapshot()));
  EXPECT_THAT(StoredGroupContent()->spec.source.volume_handles, ElementsAre("vol-1", "vol-2"));
}

TEST_F(GroupSnapshotSyncTest, GroupDeletionSecretOfTheClassIsOnTheContent) {
  HaveGroupSource();
  Have(GroupClass([](auto& c) {
    c.parameters = {
        {"csi.storage.k8s.io/group-snapshotter-secret-name", "${volumegroupsnapshot.name}"},
        {"csi.storage.k8s.io/group-snapshotter-secret-namespace",
         "${volumegroupsnapshot.namespace}"}};
  }));

  ASSERT_TRUE(Sync(GroupSnapshot()).ok());

  EXPECT_EQ(StoredGroupContent()->metadata.annotations,
            (kube::StringMap{
                {"groupsnapshot.storage.kubernetes.io/deletion-secret-name", "group-1"},
                {"groupsnapshot.storage.kubernetes.io/deletion-secret-namespace", "default"}}));
}

TEST_F(GroupSnapshotSyncTest, ContentThatExistsAlreadyIsTaken) {
  HaveGroupSource();
  api_.Put(Decoded(GroupContent()));  // made by a sync whose answer was lost

  ASSERT_TRUE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(ListGroupClaims(), CreateCall(kGroupContents, GroupContentToPost()),
                          PatchGroupStatus("5", kGroupBoundUnready)));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingGroupSnapshot()));
}

TEST_F(GroupSnapshotSyncTest, SelectorMatchingNoClaimIsContentCreationFailed) {
  HaveGroupSource();
  const std::string message =
      R"(failed to get input parameters to create group snapshot group-1: "label selector )"
      R"(app=nothing for group snapshot not applied to any PVC")";

  auto synced = Sync(GroupSnapshot([](auto& g) {
    g.spec.source.selector = kube::LabelSelector{.match_labels = {{"app", "nothing"}}};
  }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message, message);
  std::vector<ApiCall> calls = FailedCreate(message);
  calls[0] = ListCall(kClaims, "default", "app=nothing");
  EXPECT_EQ(api_.calls(), calls);
  EXPECT_THAT(
      events_.events(),
      ElementsAre(GroupWarning("GroupSnapshotContentCreationFailed",
                               "failed to create group snapshot content with error " + message)));
  EXPECT_FALSE(StoredGroupContent());
}

TEST_F(GroupSnapshotSyncTest, UnboundClaimIsContentCreationFailed) {
  HaveGroupSource();
  Have(GroupClaim(2, [](auto& c) {
    c.status.phase = "Pending";
    c.spec.volume_name.clear();
  }));
  const std::string message =
      R"(failed to get input parameters to create group snapshot group-1: "the PVC claim-2 is )"
      R"(not yet bound to a PV, will not attempt to take a group snapshot")";

  ASSERT_FALSE(Sync(GroupSnapshot()).ok());

  EXPECT_EQ(api_.calls(), FailedCreate(message));
  EXPECT_FALSE(StoredGroupContent());
}

TEST_F(GroupSnapshotSyncTest, ClaimOfAnotherDriverIsRefusedWithUpstreamsEvent) {
  HaveGroupSource();
  Have(GroupVolume(2, [](auto& v) {
    std::get<kube::CSIPersistentVolumeSource>(v.spec.source).driver = "other.example.com";
  }));
  const std::string mismatch =
      "Volume CSI driver (other.example.com) mismatch with VolumeGroupSnapshotClass "
      "(csi.example.com) default/group-1: pv-2";
  const std::string message =
      "snapshot controller failed to update default/group-1 on API server: " + mismatch;

  ASSERT_FALSE(Sync(GroupSnapshot()).ok());

  EXPECT_EQ(api_.calls(), FailedCreate(message));
  EXPECT_THAT(
      events_.events(),
      ElementsAre(GroupWarning("CreateGroupSnapshotContentFailed", mismatch),
                  GroupWarning("GroupSnapshotContentCreationFailed",
                               "failed to create group snapshot content with error " + message)));
}

TEST_F(GroupSnapshotSyncTest, NonCsiVolumeIsRefused) {
  HaveGroupSource();
  Have(GroupVolume(1, [](auto& v) { v.spec.source = kube::OtherVolumeSource{"nfs"}; }));

  ASSERT_FALSE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(events_.events()[0], GroupWarning("CreateGroupSnapshotContentFailed",
                                                "Cannot snapshot a non-CSI volume: pv-1"));
  EXPECT_FALSE(StoredGroupContent());
}

TEST_F(GroupSnapshotSyncTest, FailedClaimListIsReported) {
  HaveGroupSource();
  api_.Fail({"list", std::string(kClaims), "", base::Error::Http(403, "forbidden")});

  ASSERT_FALSE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(events_.events(),
              ElementsAre(GroupWarning(
                  "GroupSnapshotContentCreationFailed",
                  R"(failed to create group snapshot content with error failed to get input )"
                  R"(parameters to create group snapshot group-1: "failed to list PVCs with label )"
                  R"(selector app=db: \"forbidden\"")")));
}

// --- the class -------------------------------------------------------------------

TEST_F(GroupSnapshotSyncTest, DefaultGroupClassOfTheClaimsDriverIsPatchedIn) {
  HaveGroupSource();
  Have(DefaultGroupClass("group-gold", std::string(kDriver)));
  Have(DefaultGroupClass("group-other", "other.example.com"));
  Have(GroupClass([](auto& c) { c.metadata.name = "group-silver"; }));  // not default

  ASSERT_TRUE(
      Sync(GroupSnapshot([](auto& g) { g.spec.volume_group_snapshot_class_name.reset(); })).ok());

  ASSERT_GE(api_.calls().size(), 2u);
  EXPECT_EQ(api_.calls()[0], ListGroupClaims());
  EXPECT_EQ(api_.calls()[1], PatchGroup({{{"op", "replace"},
                                          {"path", "/spec/volumeGroupSnapshotClassName"},
                                          {"value", "group-gold"}}}));
  EXPECT_EQ(StoredGroup()->spec.volume_group_snapshot_class_name, "group-gold");
  EXPECT_EQ(StoredGroupContent()->spec.volume_group_snapshot_class_name, "group-gold");
}

TEST_F(GroupSnapshotSyncTest, NoDefaultGroupClassIsSetDefaultGroupSnapshotClassFailed) {
  HaveGroupSource();
  Have(DefaultGroupClass("group-other", "other.example.com"));
  const std::string message =
      "Failed to set default group snapshot class with error cannot find default group "
      "snapshot class";

  auto synced =
      Sync(GroupSnapshot([](auto& g) { g.spec.volume_group_snapshot_class_name.reset(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_THAT(api_.calls(),
              ElementsAre(ListGroupClaims(),
                          PatchGroupStatus("5", {{"error", GroupErrorStatus(message)}})));
  EXPECT_THAT(events_.events(),
              ElementsAre(GroupWarning("SetDefaultGroupSnapshotClassFailed", message)));
}

TEST_F(GroupSnapshotSyncTest, TwoDefaultGroupClassesAreSetDefaultGroupSnapshotClassFailed) {
  HaveGroupSource();
  Have(DefaultGroupClass("group-gold", std::string(kDriver)));
  Have(DefaultGroupClass("group-platinum", std::string(kDriver)));

  ASSERT_FALSE(
      Sync(GroupSnapshot([](auto& g) { g.spec.volume_group_snapshot_class_name.reset(); })).ok());

  EXPECT_THAT(events_.events(),
              ElementsAre(GroupWarning("SetDefaultGroupSnapshotClassFailed",
                                       "Failed to set default group snapshot class with error 2 "
                                       "default snapshot classes were found")));
}

TEST_F(GroupSnapshotSyncTest, MissingNamedClassIsGetGroupSnapshotClassFailed) {
  const std::string message =
      "failed to get group snapshot class with error "
      "volumegroupsnapshotclass.groupsnapshot.storage.k8s.io \"group-gold\" not found";

  ASSERT_FALSE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchGroupStatus("5", {{"error", GroupErrorStatus(message)}})));
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GetGroupSnapshotClassFailed", message)));
}

// --- validation ------------------------------------------------------------------

TEST_F(GroupSnapshotSyncTest, BothSourcesAreGroupSnapshotValidationError) {
  HaveGroupSource();
  const std::string message =
      "Exactly one of Selector and VolumeGroupSnapshotContentName should be specified";

  auto synced = Sync(GroupSnapshot(
      [](auto& g) { g.spec.source.volume_group_snapshot_content_name = "imported"; }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message, message);
  EXPECT_THAT(api_.calls(), ElementsAre(PatchGroupStatus("5", {{"error", GroupErrorStatus(message)},
                                                               {"readyToUse", false}})));
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GroupSnapshotValidationError", message)));
}

TEST_F(GroupSnapshotSyncTest, SameErrorIsNotWrittenAgainButReportedAgain) {
  const std::string message =
      "failed to get group snapshot class with error "
      "volumegroupsnapshotclass.groupsnapshot.storage.k8s.io \"group-gold\" not found";

  ASSERT_FALSE(
      Sync(GroupSnapshot([&](auto& g) {
        g.status = kube::VolumeGroupSnapshotStatus{
            .error = kube::VolumeSnapshotError{.time = "2020-01-01T00:00:00Z", .message = message}};
      })).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

}  // namespace
}  // namespace snapshot_controller::testing
