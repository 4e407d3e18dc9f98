// ContentSync (docs/snapshots.md §4.4): validation, the wait for the UID, the
// bound-protection finalizer, the being-deleted mark and the snapshot's sync
// when its status lags, all in one pass (our own writes bring no new sync,
// §9.3); a snapshot missing from the cache never causes a deletion.
#include "snapshot_controller/content_sync.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/snapshot_controller/handler_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using namespace nlohmann::literals;
using ::testing::IsEmpty;

// The default dynamic content, bound (its ref has the snapshot's UID), with
// the status the sidecar wrote once the snapshot was cut and ready.
kube::VolumeSnapshotContent ReadyContent(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](kube::VolumeSnapshotContent& c) {
    c.metadata.finalizers = {kContentFinalizer};
    c.status = kube::VolumeSnapshotContentStatus{
        .snapshot_handle = "backend-1", .creation_time = 1700000000000000000, .restore_size = 0};
  });
  return Edited(std::move(content), edit);
}

// The default snapshot with the status the controller copied from it.
kube::VolumeSnapshot SnapshotInStep(const Edit<kube::VolumeSnapshot>& edit = {}) {
  kube::VolumeSnapshot snapshot = Snapshot([](kube::VolumeSnapshot& s) {
    s.metadata.finalizers = {kAsSource, kBound};
    s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = kContentName,
                                          .creation_time = "2023-11-14T22:13:20Z",
                                          .ready_to_use = true,
                                          .restore_size = "0"};
  });
  return Edited(std::move(snapshot), edit);
}

const nlohmann::json kAddFinalizerToNone = R"([
    {"op": "test", "path": "/metadata/finalizers", "value": null},
    {"op": "add", "path": "/metadata/finalizers",
     "value": ["snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection"]}])"_json;

class ContentSyncTest : public HandlerTest {
 protected:
  // Stores `content` (cache and server) and syncs the cached copy.
  base::Result<ContentSyncOutcome> Sync(const kube::VolumeSnapshotContent& content) {
    Have(content);
    return sync_.Sync(Decoded(content));
  }

  ContentSync sync_{api_, caches_.caches(), events_};
};

TEST_F(ContentSyncTest, ContentWithBothHandlesOrNeitherIsAContentValidationError) {
  const Edit<kube::VolumeSnapshotContent> invalid[] = {
      [](auto& c) { c.spec.source.snapshot_handle = "backend-1"; },
      [](auto& c) { c.spec.source.volume_handle.reset(); },
  };
  for (const auto& edit : invalid) {
    events_.Clear();
    auto synced = Sync(ReadyContent(edit));

    ASSERT_FALSE(synced.ok());
    const std::string message =
        "Exactly one of VolumeHandle and SnapshotHandle should be specified";
    EXPECT_EQ(synced.error().message, message);
    EXPECT_THAT(events_.events(),
                ElementsAre(RecordedEvent{"Warning", "ContentValidationError", message,
                                          "VolumeSnapshotContent", "", kContentName}));
  }
  EXPECT_THAT(api_.calls(), IsEmpty()) << "upstream writes nothing to the content";
}

TEST_F(ContentSyncTest, ContentWhoseRefHasNoUidWaitsForItsSnapshotsSync) {
  Have(Snapshot());
  auto synced = Sync(ImportedContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ContentSyncTest, BoundContentGetsTheBoundProtectionFinalizer) {
  Have(SnapshotInStep());
  auto synced = Sync(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); }));

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, kAddFinalizerToNone)));
  auto stored = StoredContent(kContentName);
  ASSERT_TRUE(stored);
  EXPECT_THAT(stored->metadata.finalizers, ElementsAre(kContentFinalizer));
}

TEST_F(ContentSyncTest, BoundProtectionJoinsOtherFinalizersGuardedByTheCachedList) {
  Have(SnapshotInStep());
  auto synced = Sync(ReadyContent([](auto& c) { c.metadata.finalizers = {"example.com/keep"}; }));

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, R"([
      {"op": "test", "path": "/metadata/finalizers", "value": ["example.com/keep"]},
      {"op": "add", "path": "/metadata/finalizers/-",
       "value": "snapshot.storage.kubernetes.io/volumesnapshotcontent-bound-protection"}])"_json)));
}

TEST_F(ContentSyncTest, BoundProtectionAlreadyAddedThroughAFresherCopyIsNotAddedTwice) {
  Have(SnapshotInStep());
  InCache(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); }));
  api_.Put(Decoded(ReadyContent([](auto& c) { c.metadata.resource_version = "41"; })));

  auto synced = sync_.Sync(Decoded(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); })));

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, kAddFinalizerToNone),
                                        GetCall(kContents, kContentName)));
  auto stored = StoredContent(kContentName);
  ASSERT_TRUE(stored);
  EXPECT_THAT(stored->metadata.finalizers, ElementsAre(kContentFinalizer));
}

TEST_F(ContentSyncTest, ContentBeingDeletedGetsNoFinalizer) {
  auto synced = Sync(ReadyContent([](auto& c) {
    c.metadata.finalizers.clear();
    c.metadata.deletion_timestamp = kDeletionTimestamp;
  }));

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ContentSyncTest, FinalizerWriteFailureIsReturnedWithUpstreamsWording) {
  Have(SnapshotInStep());
  api_.Fail({"patch", "volumesnapshotcontents", "", base::Error::Http(500, "boom")});

  auto synced = Sync(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "snapshot controller failed to update " + kContentName + " on API server: boom");
}

TEST_F(ContentSyncTest, SnapshotBeingDeletedMarksTheContentInTheSamePassAsTheFinalizer) {
  Have(SnapshotInStep([](auto& s) { s.metadata.deletion_timestamp = kDeletionTimestamp; }));

  auto synced = Sync(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); }));

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, kAddFinalizerToNone),
                                        MarkBeingDeleted(kContentName)));
  auto stored = StoredContent(kContentName);
  ASSERT_TRUE(stored);
  EXPECT_THAT(stored->metadata.finalizers, ElementsAre(kContentFinalizer));
  EXPECT_EQ(stored->metadata.annotations, (kube::StringMap{{kBeingDeleted, "yes"}}));
}

TEST_F(ContentSyncTest, ContentMarkedAlreadyIsNotWrittenAgain) {
  Have(SnapshotInStep([](auto& s) { s.metadata.deletion_timestamp = kDeletionTimestamp; }));

  auto synced = Sync(ReadyContent([](auto& c) {
    c.metadata.annotations = {{kBeingDeleted, "no"}};
  }));

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), IsEmpty()) << "upstream leaves any value of the annotation";
}

TEST_F(ContentSyncTest, SnapshotBeingDeletedWithoutTheDeletionFlowsFinalizersLeavesTheContent) {
  Have(SnapshotInStep([](auto& s) {
    s.metadata.deletion_timestamp = kDeletionTimestamp;
    s.metadata.finalizers = {kInGroup};
  }));

  auto synced = Sync(ReadyContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ContentSyncTest, SnapshotMissingFromTheCacheNeverCausesADeletion) {
  auto synced = Sync(ReadyContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
  EXPECT_THAT(api_.calls(), IsEmpty());
  auto stored = StoredContent(kContentName);
  ASSERT_TRUE(stored);
  EXPECT_FALSE(stored->metadata.annotations.contains(kBeingDeleted));
}

TEST_F(ContentSyncTest, SnapshotOfTheSameNameButAnotherUidIsTreatedAsMissing) {
  Have(SnapshotInStep([](auto& s) {
    s.metadata.uid = "another-uid";
    s.metadata.deletion_timestamp = kDeletionTimestamp;
    s.status.reset();
  }));

  auto synced = Sync(ReadyContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone) << "not the content's snapshot: no sync asked";
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ContentSyncTest, SnapshotWhoseStatusLagsTheContentsIsSynced) {
  Have(SnapshotInStep([](auto& s) { s.status->creation_time.reset(); }));

  auto synced = Sync(ReadyContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kSyncSnapshot);
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ContentSyncTest, SnapshotInStepWithTheContentIsNotSynced) {
  Have(SnapshotInStep());

  auto synced = Sync(ReadyContent());

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kDone);
}

TEST_F(ContentSyncTest, LaggingSnapshotIsSyncedAfterTheFinalizerIsAddedInTheSamePass) {
  Have(SnapshotInStep([](auto& s) { s.status.reset(); }));

  auto synced = Sync(ReadyContent([](auto& c) { c.metadata.finalizers.clear(); }));

  ASSERT_TRUE(synced.ok());
  EXPECT_EQ(*synced, ContentSyncOutcome::kSyncSnapshot);
  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, kAddFinalizerToNone)));
}

}  // namespace
}  // namespace snapshot_controller::testing
