// GroupSnapshotSync once a group content exists (docs/snapshots.md §4.7):
// its status copied with upstream's Normal Events and metrics, the
// bound-protection finalizer, a ready group snapshot checked against its
// content, and pre-provisioned group contents bound.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/group_snapshot_sync_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// --- the status and the finalizer ------------------------------------------------

TEST_F(GroupSnapshotSyncTest, ContentStatusIsCopiedWithCreatedAndReadyEventsThenProtected) {
  HaveGroupSource();
  InCache(GroupContent([](auto& c) {
    c.status =
        kube::VolumeGroupSnapshotContentStatus{.volume_group_snapshot_handle = "group-handle",
                                               .creation_time = "2023-11-14T22:13:20Z",
                                               .ready_to_use = true};
  }));
  metrics_.Start(kCreateGroupSnapshotOperation, std::string(kGroupUid), "", SnapshotType::kDynamic);

  ASSERT_TRUE(Sync(GroupSnapshot()).ok());

  EXPECT_THAT(
      api_.calls(),
      ElementsAre(PatchGroupStatus("5", {{"boundVolumeGroupSnapshotContentName", kGroupContentName},
                                         {"creationTime", "2023-11-14T22:13:20Z"},
                                         {"readyToUse", true}}),
                  AddGroupFinalizer()));
  EXPECT_THAT(events_.events(),
              ElementsAre(GroupNormal("GroupSnapshotCreated",
                                      "GroupSnapshot default/group-1 was successfully created by "
                                      "the CSI driver."),
                          GroupNormal("GroupSnapshotReady",
                                      "GroupSnapshot default/group-1 is ready to use.")));
  EXPECT_THAT(Metrics(),
              HasSubstr("operation_name=\"CreateGroupSnapshot\",operation_status=\"success\","
                        "snapshot_type=\"dynamic\""));
  EXPECT_THAT(Metrics(), HasSubstr("operation_name=\"CreateGroupSnapshotAndReady\""));
  EXPECT_THAT(StoredGroup()->metadata.finalizers, ElementsAre(kGroupBound));
}

TEST_F(GroupSnapshotSyncTest, ReadyBoundGroupSnapshotWithItsContentCostsNoWrite) {
  InCache(GroupClass());
  InCache(GroupContent());
  ASSERT_TRUE(Sync(GroupSnapshot([](auto& g) {
                BoundToContent(g, true);
                g.metadata.finalizers = {kGroupBound};
              })).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(GroupSnapshotSyncTest, ReadyGroupSnapshotWhoseContentIsGoneIsGroupSnapshotContentMissing) {
  InCache(GroupClass());
  ASSERT_TRUE(Sync(GroupSnapshot([](auto& g) {
                BoundToContent(g, true);
                g.metadata.finalizers = {kGroupBound};
              })).ok());
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GroupSnapshotContentMissing",
                                                         "VolumeGroupSnapshotContent is missing")));
  EXPECT_EQ(StoredGroup()->status->ready_to_use, false);
}

TEST_F(GroupSnapshotSyncTest, ContentOfAnotherGroupSnapshotIsGroupSnapshotContentMisbound) {
  HaveGroupSource();
  InCache(GroupContent([](auto& c) { c.spec.volume_group_snapshot_ref.uid = "another-uid"; }));
  const std::string message = "VolumeGroupSnapshotContent [" + kGroupContentName +
                              "] is bound to a different group snapshot";

  auto synced = Sync(GroupSnapshot());

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message, message);
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GroupSnapshotContentMisbound", message)));
}

// --- pre-provisioned ------------------------------------------------------------

kube::VolumeGroupSnapshotContent ImportedGroupContent() {
  kube::VolumeGroupSnapshotContent content;
  content.metadata.name = "imported-group";
  content.metadata.resource_version = "70";
  content.spec.volume_group_snapshot_ref.name = "group-1";
  content.spec.volume_group_snapshot_ref.namespace_ = "default";
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
  content.spec.driver = std::string(kDriver);
  content.spec.source.group_snapshot_handles =
      kube::GroupSnapshotHandles{.volume_group_snapshot_handle = "backend-group",
                                 .volume_snapshot_handles = {"backend-1", "backend-2"}};
  return content;
}

kube::VolumeGroupSnapshot ImportingGroupSnapshot() {
  return GroupSnapshot([](auto& g) {
    g.spec.source = {.selector = std::nullopt,
                     .volume_group_snapshot_content_name = "imported-group"};
  });
}

TEST_F(GroupSnapshotSyncTest, PreProvisionedGroupContentIsBoundAndItsStatusCopied) {
  InCache(GroupClass());
  Have(ImportedGroupContent());

  ASSERT_TRUE(Sync(ImportingGroupSnapshot()).ok());

  EXPECT_THAT(
      api_.calls(),
      ElementsAre(PatchCall(kGroupContents, "imported-group", "json",
                            nlohmann::json{{{"op", "replace"},
                                            {"path", "/spec/volumeGroupSnapshotRef/uid"},
                                            {"value", kGroupUid}},
                                           {{"op", "replace"},
                                            {"path", "/spec/volumeGroupSnapshotClassName"},
                                            {"value", "group-gold"}}}
                                .dump()),
                  PatchGroupStatus("5", {{"boundVolumeGroupSnapshotContentName", "imported-group"},
                                         {"readyToUse", false}}),
                  AddGroupFinalizer()));
  auto stored = api_.Stored<kube::VolumeGroupSnapshotContent>("", "imported-group");
  EXPECT_EQ(stored->spec.volume_group_snapshot_ref.uid, kGroupUid);
}

TEST_F(GroupSnapshotSyncTest, MissingPreProvisionedContentIsGroupSnapshotContentMissing) {
  InCache(GroupClass());
  auto synced = Sync(ImportingGroupSnapshot());
  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "group snapshot default/group-1 requests an non-existing group snapshot content "
            "imported-group");
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GroupSnapshotContentMissing",
                                                         "VolumeGroupSnapshotContent is missing")));
}

TEST_F(GroupSnapshotSyncTest, DynamicContentNamedAsPreProvisionedIsGroupSnapshotContentMismatch) {
  InCache(GroupClass());
  Have(GroupContent([](auto& c) { c.metadata.name = "imported-group"; }));
  ASSERT_FALSE(Sync(ImportingGroupSnapshot()).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre(GroupWarning("GroupSnapshotContentMismatch",
                                       "VolumeGroupSnapshotContent is dynamically provisioned "
                                       "while expecting a pre-provisioned one")));
}

}  // namespace
}  // namespace snapshot_controller::testing
