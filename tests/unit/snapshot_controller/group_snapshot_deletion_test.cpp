// GroupSnapshotDeletion (docs/snapshots.md §4.7): a deleted group snapshot
// marks its content being deleted, deletes it under policy Delete, deletes
// its member snapshots and lets go of its finalizer in the right order; a
// member restoring a claim holds it all (§9.7); and a dynamic group snapshot
// whose status never named its content still finds it.
#include "snapshot_controller/group_snapshot_deletion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "snapshot_controller/group_membership.h"
#include "tests/unit/snapshot_controller/group_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kDeletionTime[] = "2024-01-01T00:00:00Z";
const std::string kGroupBeingDeleted(snapshot::kGroupBeingDeletedAnnotation);

kube::VolumeGroupSnapshot DeletedGroup(const Edit<kube::VolumeGroupSnapshot>& edit = {}) {
  return GroupSnapshot([&](auto& g) {
    BoundToContent(g, true);
    g.metadata.finalizers = {kGroupBound};
    g.metadata.deletion_timestamp = kDeletionTime;
    if (edit) edit(g);
  });
}

kube::VolumeSnapshot Member(const std::string& name) {
  return Snapshot([&](auto& s) {
    OwnedByGroup(s);
    s.metadata.name = name;
    s.metadata.uid = "uid-" + name;
  });
}

ApiCall MarkGroupContent() {
  return PatchCall(
      kGroupContents, kGroupContentName, "json",
      nlohmann::json{{{"op", "test"}, {"path", "/metadata/annotations"}, {"value", nullptr}},
                     {{"op", "add"},
                      {"path", "/metadata/annotations"},
                      {"value", {{kGroupBeingDeleted, "yes"}}}}}
          .dump());
}

ApiCall RemoveGroupFinalizer() {
  return PatchGroup({{{"op", "test"}, {"path", "/metadata/finalizers/0"}, {"value", kGroupBound}},
                     {{"op", "remove"}, {"path", "/metadata/finalizers/0"}}});
}

class GroupSnapshotDeletionTest : public GroupHandlerTest {
 protected:
  base::Status Delete(const kube::VolumeGroupSnapshot& group) {
    return deletion_.Delete(Cached(group));
  }
  GroupSnapshotDeletion deletion_{api_, caches_.caches(), events_, metrics_, clock_};
};

// The group content goes first (the sidecar deletes the group on the backend
// once it is marked), the members with it; the group snapshot's finalizer
// stays until the content is gone.
TEST_F(GroupSnapshotDeletionTest, DeletePolicyDeletesContentAndMembersAndKeepsTheFinalizer) {
  Have(GroupContent());
  Have(Member("member-1"));
  Have(Member("member-2"));
  Have(Snapshot([](auto& s) { s.metadata.name = "not-a-member"; }));

  ASSERT_TRUE(Delete(DeletedGroup()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkGroupContent(), DeleteCall(kGroupContents, kGroupContentName),
                          DeleteCall(kSnapshots, "default/member-1"),
                          DeleteCall(kSnapshots, "default/member-2")));
  EXPECT_THAT(events_.events(), IsEmpty());
  EXPECT_THAT(StoredGroup()->metadata.finalizers, ElementsAre(kGroupBound));
  EXPECT_TRUE(api_.Stored<kube::VolumeSnapshot>("default", "not-a-member"));
}

TEST_F(GroupSnapshotDeletionTest, RetainPolicyKeepsContentAndLetsTheGroupSnapshotGo) {
  Have(GroupContent([](auto& c) { c.spec.deletion_policy = "Retain"; }));
  Have(Member("member-1"));

  ASSERT_TRUE(Delete(DeletedGroup()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkGroupContent(), DeleteCall(kSnapshots, "default/member-1"),
                          RemoveGroupFinalizer()));
  EXPECT_EQ(StoredGroupContent()->metadata.annotations.find(kGroupBeingDeleted)->second, "yes");
  EXPECT_FALSE(StoredGroup());  // the last finalizer went
}

TEST_F(GroupSnapshotDeletionTest, ContentGoneLetsTheGroupSnapshotGo) {
  ASSERT_TRUE(Delete(DeletedGroup()).ok());
  EXPECT_THAT(api_.calls(), ElementsAre(RemoveGroupFinalizer()));
}

// Upstream means to look up groupsnapcontent-<uid> when the status names no
// content, but never does; such a content is not left behind here.
TEST_F(GroupSnapshotDeletionTest, DynamicContentTheStatusNeverNamedIsDeletedToo) {
  Have(GroupContent());
  ASSERT_TRUE(Delete(DeletedGroup([](auto& g) { g.status.reset(); })).ok());
  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkGroupContent(), DeleteCall(kGroupContents, kGroupContentName)));
}

TEST_F(GroupSnapshotDeletionTest, ContentAlreadyBeingDeletedIsNotDeletedAgain) {
  Have(GroupContent([](auto& c) {
    c.metadata.deletion_timestamp = kDeletionTime;
    c.metadata.finalizers = {kGroupContentFinalizer};
    c.metadata.annotations = {{kGroupBeingDeleted, "yes"}};
  }));
  Have(Member("member-1"));
  Have(Member("member-2"));
  Have(Member("member-3"));
  kube::VolumeSnapshot deleting = Member("member-2");
  deleting.metadata.deletion_timestamp = kDeletionTime;
  InCache(deleting);

  ASSERT_TRUE(Delete(DeletedGroup()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(DeleteCall(kSnapshots, "default/member-1"),
                                        DeleteCall(kSnapshots, "default/member-3")));
}

// §9.7: a member a Pending claim restores from holds the group's deletion.
TEST_F(GroupSnapshotDeletionTest, MemberRestoringAClaimHoldsTheDeletion) {
  Have(GroupContent());
  Have(Member("member-1"));
  Have(Claim([](auto& c) {
    c.metadata.name = "restore";
    c.status.phase = "Pending";
    c.spec.data_source = kube::TypedLocalObjectReference{
        .api_group = "snapshot.storage.k8s.io", .kind = "VolumeSnapshot", .name = "member-1"};
  }));
  const std::string message =
      "Snapshot default/member-1 belonging to VolumeGroupSnapshot default/group-1 is being used "
      "to restore a PVC";

  auto deleted = Delete(DeletedGroup());
  auto again = Delete(DeletedGroup());

  ASSERT_FALSE(deleted.ok());
  EXPECT_THAT(deleted.error().message, HasSubstr(message));
  EXPECT_FALSE(again.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
  // Once per 5 minutes (§9.7).
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("SnapshotDeletePending", message)));
}

TEST_F(GroupSnapshotDeletionTest, WithoutItsFinalizerNothingIsLeftToDo) {
  Have(GroupContent());
  ASSERT_TRUE(Delete(DeletedGroup([](auto& g) { g.metadata.finalizers.clear(); })).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(GroupSnapshotDeletionTest, FailedContentDeletionIsReported) {
  Have(GroupContent());
  api_.Fail({"delete", std::string(kGroupContents), "", base::Error::Http(500, "boom")});
  auto deleted = Delete(DeletedGroup());
  ASSERT_FALSE(deleted.ok());
  EXPECT_EQ(deleted.error().message, "failed to delete VolumeGroupSnapshotContent " +
                                         kGroupContentName + " from API server: \"boom\"");
  EXPECT_THAT(events_.events(), ElementsAre(GroupWarning("GroupSnapshotContentObjectDeleteError",
                                                         "Failed to delete group snapshot content "
                                                         "API object")));
}

TEST_F(GroupSnapshotDeletionTest, FailedMemberDeletionIsReported) {
  Have(Member("member-1"));
  api_.Fail({"delete", std::string(kSnapshots), "", base::Error::Http(500, "boom")});
  ASSERT_FALSE(Delete(DeletedGroup()).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre(GroupWarning("SnapshotDeleteError",
                                       "failed to delete snapshot API object default/member-1 "
                                       "part of group snapshot default/group-1: boom")));
  EXPECT_THAT(StoredGroup()->metadata.finalizers, ElementsAre(kGroupBound));
}

TEST_F(GroupSnapshotDeletionTest, DeleteGroupSnapshotOperationEndsWhenItLeavesTheCache) {
  metrics_.Start(kCreateGroupSnapshotAndReadyOperation, std::string(kGroupUid), "",
                 SnapshotType::kDynamic);
  InCache(GroupClass());
  ASSERT_TRUE(Delete(DeletedGroup()).ok());
  metrics_.Record(kDeleteGroupSnapshotOperation, std::string(kGroupUid), OperationStatus::kSuccess,
                  "");
  EXPECT_THAT(Metrics(),
              HasSubstr("driver_name=\"csi.example.com\",operation_name=\"DeleteGroupSnapshot\","
                        "operation_status=\"success\",snapshot_type=\"dynamic\""));
  EXPECT_THAT(Metrics(),
              HasSubstr("operation_name=\"CreateGroupSnapshotAndReady\",operation_status="
                        "\"cancel\",snapshot_type=\"dynamic\""));
  EXPECT_EQ(metrics_.InFlight(), 0u);
}

}  // namespace
}  // namespace snapshot_controller::testing
