// GroupContentSync (docs/snapshots.md §4.7): validation, waiting for the
// binding, the bound-protection finalizer, and the group snapshot queued
// while its status lags its content's (upstream's
// needsUpdateGroupSnapshotStatus).
#include "snapshot_controller/group_content_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/group_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

RecordedEvent OnContent(std::string reason, std::string message) {
  return {"Warning", std::move(reason), std::move(message), "VolumeGroupSnapshotContent",
          "",        kGroupContentName};
}

ApiCall AddContentFinalizer() {
  return PatchCall(
      kGroupContents, kGroupContentName, "json",
      nlohmann::json{{{"op", "test"}, {"path", "/metadata/finalizers"}, {"value", nullptr}},
                     {{"op", "add"},
                      {"path", "/metadata/finalizers"},
                      {"value", nlohmann::json::array({kGroupContentFinalizer})}}}
          .dump());
}

class GroupContentSyncTest : public GroupHandlerTest {
 protected:
  base::Result<ContentSyncOutcome> Sync(const kube::VolumeGroupSnapshotContent& content) {
    Have(content);
    return sync_.Sync(*caches_.group_contents().Get("", content.metadata.name));
  }
  GroupContentSync sync_{api_, caches_.caches(), events_};
};

TEST_F(GroupContentSyncTest, NeitherOrBothSourcesAreGroupContentValidationError) {
  const std::string message =
      "Exactly one of GroupSnapshotHandles and VolumeHandles should be specified";
  auto none = Sync(GroupContent([](auto& c) { c.spec.source.volume_handles.clear(); }));
  auto both = Sync(GroupContent([](auto& c) {
    c.spec.source.group_snapshot_handles =
        kube::GroupSnapshotHandles{.volume_group_snapshot_handle = "h"};
  }));
  ASSERT_FALSE(none.ok());
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(none.error().message, message);
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), ElementsAre(OnContent("GroupContentValidationError", message),
                                            OnContent("GroupContentValidationError", message)));
}

TEST_F(GroupContentSyncTest, UnboundContentWaitsForItsGroupSnapshot) {
  auto synced = Sync(GroupContent([](auto& c) { c.spec.volume_group_snapshot_ref.uid.clear(); }));
  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(GroupContentSyncTest, BoundContentIsProtectedAndItsGroupSnapshotQueuedWhileItLags) {
  InCache(GroupSnapshot());
  auto synced = Sync(ReportedGroupContent(true));
  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kSyncSnapshot);
  EXPECT_THAT(api_.calls(), ElementsAre(AddContentFinalizer()));
}

TEST_F(GroupContentSyncTest, GroupSnapshotThatCaughtUpIsNotQueued) {
  InCache(GroupSnapshot([](auto& g) { BoundToContent(g, false); }));
  auto synced =
      Sync(GroupContent([](auto& c) { c.metadata.finalizers = {kGroupContentFinalizer}; }));
  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);  // the content has no status yet
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(GroupContentSyncTest, GroupSnapshotOfAnotherUidIsNotQueued) {
  InCache(GroupSnapshot([](auto& g) { g.metadata.uid = "another-uid"; }));
  auto synced = Sync(ReportedGroupContent(
      true, [](auto& c) { c.metadata.finalizers = {kGroupContentFinalizer}; }));
  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
}

TEST_F(GroupContentSyncTest, ContentBeingDeletedGetsNoFinalizer) {
  InCache(GroupSnapshot());
  auto synced = Sync(ReportedGroupContent(
      true, [](auto& c) { c.metadata.deletion_timestamp = "2024-01-01T00:00:00Z"; }));
  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

}  // namespace
}  // namespace snapshot_controller::testing
