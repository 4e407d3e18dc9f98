// GroupCommonHandler (docs/snapshots.md §4.6, §4.7): a group snapshot being
// deleted goes to the deletion, not the sync, and its leaving the cache ends
// its DeleteGroupSnapshot operation.
#include "snapshot_controller/group_common_handler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/group_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class GroupCommonHandlerTest : public GroupHandlerTest {
 protected:
  GroupCommonHandler handler_{api_, caches_.caches(), events_, metrics_, clock_};
};

TEST_F(GroupCommonHandlerTest, GroupSnapshotBeingDeletedIsDeletedNotSynced) {
  InCache(GroupClass());
  auto deleting = Cached(GroupSnapshot([](auto& g) {
    g.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    g.metadata.finalizers = {kGroupBound};
  }));

  ASSERT_TRUE(handler_.SyncSnapshot(deleting).ok());

  // No content: the deletion lets go of the finalizer; a sync would list claims.
  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchGroup(
                  {{{"op", "test"}, {"path", "/metadata/finalizers/0"}, {"value", kGroupBound}},
                   {{"op", "remove"}, {"path", "/metadata/finalizers/0"}}})));
  EXPECT_FALSE(StoredGroup());
}

TEST_F(GroupCommonHandlerTest, GroupSnapshotLeavingTheCacheEndsItsDeleteOperation) {
  InCache(GroupClass());
  auto deleting = Cached(GroupSnapshot([](auto& g) {
    g.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    g.metadata.finalizers = {kGroupBound};
  }));
  ASSERT_TRUE(handler_.SyncSnapshot(deleting).ok());
  ASSERT_EQ(metrics_.InFlight(), 1u);

  handler_.SnapshotDeleted(deleting);

  EXPECT_EQ(metrics_.InFlight(), 0u);
  EXPECT_THAT(Metrics(), HasSubstr("snapshot_controller_operation_total_seconds_count{driver_name="
                                   "\"csi.example.com\",operation_name=\"DeleteGroupSnapshot\","
                                   "operation_status=\"success\",snapshot_type=\"dynamic\"} 1\n"));
}

TEST_F(GroupCommonHandlerTest, GroupContentGoesToTheGroupContentSync) {
  Have(GroupContent([](auto& c) { c.spec.volume_group_snapshot_ref.uid.clear(); }));
  auto synced = handler_.SyncContent(*caches_.group_contents().Get("", kGroupContentName));
  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
}

}  // namespace
}  // namespace snapshot_controller::testing
