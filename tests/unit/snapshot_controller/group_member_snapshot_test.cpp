// A member VolumeSnapshot of a group snapshot in the single-snapshot syncs
// (docs/snapshots.md §4.3 "Copying the status", §4.5 step 3, §4.7, §9.13):
// with group snapshots on, its status gets its group snapshot's name and its
// deletion waits while the group snapshot exists, then lets go of the
// in-group finalizer too; with them off, no group is consulted, its status
// names none and its deletion waits with a Warning, and nothing crashes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshot_controller/snapshot_deletion.h"
#include "tests/unit/snapshot_controller/group_objects.h"
#include "tests/unit/snapshot_controller/snapshot_sync_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::string kMemberContent = "member-content";

void Member(kube::VolumeSnapshot& s) {
  OwnedByGroup(s);
  s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = kMemberContent,
                                        .ready_to_use = false};
}

// A member being deleted whose status names its group snapshot.
kube::VolumeSnapshot DeletingMember() {
  return Snapshot([](auto& s) {
    Member(s);
    s.metadata.deletion_timestamp = kDeletionTimestamp;
    s.status->volume_group_snapshot_name = "group-1";
  });
}

kube::VolumeSnapshotContent MemberContentReady() {
  return Content([](auto& c) {
    c.metadata.name = kMemberContent;
    c.metadata.finalizers = {kContentFinalizer};
    c.metadata.annotations = {
        {"groupsnapshot.storage.k8s.io/volumeGroupSnapshotHandle", "group-handle"}};
    c.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "snap-vol-1",
                                                 .ready_to_use = true,
                                                 .volume_group_snapshot_handle = "group-handle"};
  });
}

const char kHeldMessage[] =
    "deletion of the individual volume snapshot default/snap-1 is not allowed as it belongs to "
    "group snapshot default/group-1. Deleting the group snapshot will trigger the deletion of "
    "all the individual volume snapshots that are part of the group.";

class GroupMemberSnapshotTest : public SnapshotSyncTest {
 protected:
  base::Status Delete(const kube::VolumeSnapshot& snapshot) {
    Have(snapshot);
    return deletion_.Delete(Decoded(snapshot));
  }
  SnapshotDeletion deletion_{api_, caches_.caches(), claim_finalizer_, events_, metrics_, clock_};
};

TEST_F(GroupMemberSnapshotTest, StatusNamesTheGroupSnapshotOfItsContentsGroupHandle) {
  caches_.UseGroups();
  InCache(ReportedGroupContent(true));
  Have(MemberContentReady());

  ASSERT_TRUE(Sync(Snapshot(Member)).ok());

  ASSERT_TRUE(StoredSnapshot()->status);
  EXPECT_EQ(StoredSnapshot()->status->volume_group_snapshot_name, "group-1");
  EXPECT_EQ(StoredSnapshot()->status->ready_to_use, true);
}

// §9.13: upstream consults its nil group lister here and crashes.
TEST_F(GroupMemberSnapshotTest, GroupsOffStatusIsCopiedWithoutAGroupName) {
  Have(MemberContentReady());

  ASSERT_TRUE(Sync(Snapshot(Member)).ok());

  EXPECT_EQ(StoredSnapshot()->status->ready_to_use, true);
  EXPECT_FALSE(StoredSnapshot()->status->volume_group_snapshot_name);
}

TEST_F(GroupMemberSnapshotTest, DeletionWaitsWhileItsGroupSnapshotExists) {
  caches_.UseGroups();
  InCache(GroupSnapshot());
  Have(MemberContentReady());

  auto held = Delete(DeletingMember());

  ASSERT_FALSE(held.ok());
  EXPECT_EQ(held.error().message, kHeldMessage);
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SnapshotDeletePending", kHeldMessage)));
}

TEST_F(GroupMemberSnapshotTest, OnceItsGroupSnapshotIsGoneTheInGroupFinalizerGoesToo) {
  caches_.UseGroups();
  Have(MemberContentReady());

  ASSERT_TRUE(Delete(DeletingMember()).ok());

  ASSERT_GE(api_.calls().size(), 3u);
  EXPECT_EQ(api_.calls()[1], DeleteCall(kContents, kMemberContent));
  EXPECT_EQ(api_.calls()[2],
            PatchSnapshot(nlohmann::json{
                {{"op", "test"}, {"path", "/metadata/finalizers/1"}, {"value", kAsSource}},
                {{"op", "remove"}, {"path", "/metadata/finalizers/1"}},
                {{"op", "test"}, {"path", "/metadata/finalizers/0"}, {"value", kInGroup}},
                {{"op", "remove"}, {"path", "/metadata/finalizers/0"}}}));
  EXPECT_FALSE(StoredSnapshot());
}

// §9.13: with groups off the controller cannot tell the group snapshot is
// gone; the member is left alone, with a Warning, and nothing crashes.
TEST_F(GroupMemberSnapshotTest, GroupsOffDeletionWaitsWithAWarning) {
  Have(MemberContentReady());

  auto held = Delete(DeletingMember());

  ASSERT_FALSE(held.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SnapshotDeletePending", kHeldMessage)));
}

// §4.3 step 5: a statically provisioned member (ready, its status naming its
// group snapshot) gets its owner reference.
kube::VolumeSnapshot StaticMember() {
  return Snapshot([](auto& s) {
    s.metadata.finalizers = {kAsSource, kBound};
    s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = kContentName,
                                          .ready_to_use = true,
                                          .volume_group_snapshot_name = "group-1"};
  });
}

TEST_F(GroupMemberSnapshotTest, StaticMemberGetsItsGroupSnapshotAsOwner) {
  caches_.UseGroups();
  HaveSource();
  InCache(GroupSnapshot());
  Have(Content([](auto& c) { c.metadata.finalizers = {kContentFinalizer}; }));

  ASSERT_TRUE(Sync(StaticMember()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshot(nlohmann::json{
                  {{"op", "test"}, {"path", "/metadata/ownerReferences"}, {"value", nullptr}},
                  {{"op", "add"},
                   {"path", "/metadata/ownerReferences"},
                   {"value",
                    {{{"apiVersion", "groupsnapshot.storage.k8s.io/v1"},
                      {"kind", "VolumeGroupSnapshot"},
                      {"name", "group-1"},
                      {"uid", kGroupUid}}}}}})));
  EXPECT_EQ(StoredSnapshot()->metadata.owner_references.size(), 1u);
}

TEST_F(GroupMemberSnapshotTest, StaticMemberOfAGroupSnapshotNotInTheCacheIsRetried) {
  caches_.UseGroups();
  HaveSource();
  Have(Content([](auto& c) { c.metadata.finalizers = {kContentFinalizer}; }));
  auto synced = Sync(StaticMember());
  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "volumegroupsnapshot.groupsnapshot.storage.k8s.io \"group-1\" not found");
  EXPECT_THAT(api_.calls(), IsEmpty());
}

// §9.13: upstream consults its nil group lister here and crashes.
TEST_F(GroupMemberSnapshotTest, GroupsOffStaticMemberIsLeftAlone) {
  HaveSource();
  Have(Content([](auto& c) { c.metadata.finalizers = {kContentFinalizer}; }));
  ASSERT_TRUE(Sync(StaticMember()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

}  // namespace
}  // namespace snapshot_controller::testing
