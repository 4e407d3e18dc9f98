// SnapshotDeletion (docs/snapshots.md §4.5, §9.7, §9.13): objects in, the
// exact API calls, Events and the DeleteSnapshot operation out. The cases of
// upstream's TestDeleteSync (dynamic and pre-provisioned, Delete and Retain,
// a content that is missing or bound elsewhere, a failing DELETE, a restoring
// claim) plus the finalizer order and our one-pass, guarded writes.
#include "snapshot_controller/snapshot_deletion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/unit/snapshot_controller/handler_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using namespace nlohmann::literals;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The default snapshot, ready and bound to its dynamic content, being
// deleted with both of its finalizers.
kube::VolumeSnapshot DeletingSnapshot(const Edit<kube::VolumeSnapshot>& edit = {}) {
  kube::VolumeSnapshot snapshot = Snapshot([](kube::VolumeSnapshot& s) {
    s.metadata.deletion_timestamp = kDeletionTimestamp;
    s.metadata.finalizers = {kAsSource, kBound};
    s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = kContentName,
                                          .ready_to_use = true};
  });
  return Edited(std::move(snapshot), edit);
}

// Its content as the sidecar and the controller leave it once ready.
kube::VolumeSnapshotContent BoundContent(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](kube::VolumeSnapshotContent& c) {
    c.metadata.finalizers = {kContentFinalizer};
    c.status =
        kube::VolumeSnapshotContentStatus{.snapshot_handle = "backend-1", .ready_to_use = true};
  });
  return Edited(std::move(content), edit);
}

// A pre-provisioned snapshot bound to "imported-1", being deleted.
kube::VolumeSnapshot DeletingImportedSnapshot() {
  return ImportingSnapshot([](kube::VolumeSnapshot& s) {
    s.metadata.deletion_timestamp = kDeletionTimestamp;
    s.metadata.finalizers = {kAsSource, kBound};
    s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = "imported-1",
                                          .ready_to_use = true};
  });
}
kube::VolumeSnapshotContent BoundImportedContent(std::string_view policy) {
  return ImportedContent([&](kube::VolumeSnapshotContent& c) {
    c.spec.volume_snapshot_ref.uid = std::string(kSnapshotUid);
    c.spec.deletion_policy = std::string(policy);
    c.metadata.finalizers = {kContentFinalizer};
  });
}

// A claim restoring from default/snap-1 that no volume is bound to yet.
kube::PersistentVolumeClaim RestoringClaim(const Edit<kube::PersistentVolumeClaim>& edit = {}) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.name = "restore-1";
  claim.metadata.namespace_ = "default";
  claim.metadata.uid = "r1-0000";
  claim.metadata.resource_version = "60";
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.data_source = kube::TypedLocalObjectReference{
      .api_group = "snapshot.storage.k8s.io", .kind = "VolumeSnapshot", .name = "snap-1"};
  claim.status.phase = "Pending";
  return Edited(std::move(claim), edit);
}

// The patches of the snapshot's finalizers, on the list [as-source, bound].
const nlohmann::json kRemoveAsSource = R"([
    {"op": "test", "path": "/metadata/finalizers/0",
     "value": "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection"},
    {"op": "remove", "path": "/metadata/finalizers/0"}])"_json;
const nlohmann::json kRemoveBoth = R"([
    {"op": "test", "path": "/metadata/finalizers/0",
     "value": "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection"},
    {"op": "remove", "path": "/metadata/finalizers/0"},
    {"op": "test", "path": "/metadata/finalizers/0",
     "value": "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"},
    {"op": "remove", "path": "/metadata/finalizers/0"}])"_json;

RecordedEvent DeletePending(std::string message) {
  return Warning("SnapshotDeletePending", std::move(message));
}
const char kRestorePending[] = "Snapshot is being used to restore PVC default/restore-1";

class SnapshotDeletionTest : public HandlerTest {
 protected:
  SnapshotDeletionTest() {
    Have(Class());
    Have(Claim());
  }

  // Stores `snapshot` (cache and server) and deletes the cached copy.
  base::Status Delete(const kube::VolumeSnapshot& snapshot) {
    Have(snapshot);
    return deletion_.Delete(Decoded(snapshot));
  }

  // The metrics once the DeleteSnapshot operation is recorded as a success
  // (what CommonHandler::SnapshotDeleted does).
  std::string MetricsOnceDeleted() {
    metrics_.Record(kDeleteSnapshotOperation, kSnapshotUid, OperationStatus::kSuccess, "");
    return Metrics();
  }

  SnapshotDeletion deletion_{api_, caches_.caches(), claim_finalizer_, events_, metrics_, clock_};
};

// --- §4.5 steps 4-6: dynamic and pre-provisioned, Delete and Retain ----------

// §9.4: both finalizers stay while the content holds the bound one, and go
// in one patch once it is gone.
TEST_F(SnapshotDeletionTest, DynamicDeletePolicyMarksAndDeletesTheContentAndKeepsBothFinalizers) {
  Have(BoundContent());

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName)));
  EXPECT_THAT(events_.events(), IsEmpty());
  auto snapshot = StoredSnapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre(kAsSource, kBound));
  auto content = StoredContent(kContentName);
  ASSERT_TRUE(content);
  EXPECT_FALSE(content->metadata.deletion_timestamp.empty());
  EXPECT_EQ(content->metadata.annotations, (kube::StringMap{{kBeingDeleted, "yes"}}));
}

TEST_F(SnapshotDeletionTest,
       DynamicDeletePolicyRemovesBothFinalizersInOnePatchOnceTheContentIsGone) {
  // The first pass left both finalizers; the sidecar has since deleted the
  // backend snapshot and the content is gone.
  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(kRemoveBoth)));
  EXPECT_FALSE(StoredSnapshot()) << "the last finalizer went, so the API server deleted it";
}

TEST_F(SnapshotDeletionTest, WithoutTheBoundFinalizerTheAsSourceOneGoesWhileTheContentIsDeleted) {
  // A snapshot that never got the bound finalizer has nothing to wait for.
  Have(BoundContent());

  ASSERT_TRUE(Delete(DeletingSnapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; })).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName),
                          PatchSnapshot(kRemoveAsSource)));
  EXPECT_FALSE(StoredSnapshot());
}

TEST_F(SnapshotDeletionTest, DynamicRetainPolicyMarksTheContentAndRemovesBothFinalizers) {
  Have(BoundContent([](auto& c) { c.spec.deletion_policy = "Retain"; }));

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), PatchSnapshot(kRemoveBoth)));
  EXPECT_FALSE(StoredSnapshot());
  auto content = StoredContent(kContentName);
  ASSERT_TRUE(content);
  EXPECT_TRUE(content->metadata.deletion_timestamp.empty());
  EXPECT_EQ(content->metadata.annotations, (kube::StringMap{{kBeingDeleted, "yes"}}));
}

TEST_F(SnapshotDeletionTest, PreProvisionedDeletePolicyMarksAndDeletesTheContentAndKeepsBoth) {
  Have(BoundImportedContent("Delete"));

  ASSERT_TRUE(Delete(DeletingImportedSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted("imported-1"), DeleteCall(kContents, "imported-1")));
  auto snapshot = StoredSnapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre(kAsSource, kBound));
}

TEST_F(SnapshotDeletionTest, PreProvisionedRetainPolicyMarksTheContentAndRemovesBothFinalizers) {
  Have(BoundImportedContent("Retain"));

  ASSERT_TRUE(Delete(DeletingImportedSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted("imported-1"), PatchSnapshot(kRemoveBoth)));
  EXPECT_FALSE(StoredSnapshot());
  EXPECT_TRUE(StoredContent("imported-1"));
}

// --- §4.5 step 1: which content counts ---------------------------------------

TEST_F(SnapshotDeletionTest, DynamicContentTheStatusDoesNotNameYetIsFoundByItsName) {
  Have(BoundContent());

  ASSERT_TRUE(Delete(DeletingSnapshot([](auto& s) { s.status.reset(); })).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName)));
}

TEST_F(SnapshotDeletionTest, NoContentRemovesBothFinalizers) {
  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(kRemoveBoth)));
  EXPECT_FALSE(StoredSnapshot());
}

TEST_F(SnapshotDeletionTest, ContentBoundToAnotherSnapshotIsLeftAloneAndBothFinalizersGo) {
  const Edit<kube::VolumeSnapshotContent> elsewhere[] = {
      [](auto& c) { c.spec.volume_snapshot_ref.uid = "another-uid"; },
      [](auto& c) { c.spec.volume_snapshot_ref.name = "snap-other"; },
      [](auto& c) { c.spec.volume_snapshot_ref.namespace_ = "other"; },
  };
  for (const auto& edit : elsewhere) {
    auto content = BoundContent(edit);
    SCOPED_TRACE(nlohmann::json(content.spec.volume_snapshot_ref).dump());
    Have(content);
    api_.ClearCalls();

    ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

    EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(kRemoveBoth)));
    auto kept = StoredContent(kContentName);
    ASSERT_TRUE(kept);
    EXPECT_TRUE(kept->metadata.deletion_timestamp.empty());
    EXPECT_FALSE(kept->metadata.annotations.contains(kBeingDeleted));
  }
}

// --- One pass, and passes that find the work done ----------------------------

TEST_F(SnapshotDeletionTest, PassWhileTheSidecarDeletesTheContentWritesNothing) {
  Have(BoundContent([](auto& c) {
    c.metadata.deletion_timestamp = kDeletionTimestamp;
    c.metadata.annotations = {{kBeingDeleted, "yes"}};
  }));

  ASSERT_TRUE(Delete(DeletingSnapshot([](auto& s) { s.metadata.finalizers = {kBound}; })).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotDeletionTest, ContentGoneFromTheApiServerButNotTheCacheRemovesBothFinalizers) {
  InCache(BoundContent());

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), PatchSnapshot(kRemoveBoth)));
  EXPECT_FALSE(StoredSnapshot());
}

TEST_F(SnapshotDeletionTest, ContentDeletedMeanwhileCountsAsGoneAndTheBoundFinalizerGoesToo) {
  Have(BoundContent());
  api_.Fail({"delete", "volumesnapshotcontents", "",
             base::Error::Http(404, "volumesnapshotcontents.snapshot.storage.k8s.io not found")});

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName),
                          PatchSnapshot(kRemoveBoth)));
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotDeletionTest, StaleCachedFinalizersAreRecomputedFromAFreshReadKeepingOthers) {
  // Another writer added its finalizer after the informer's copy.
  InCache(DeletingSnapshot());
  api_.Put(Decoded(DeletingSnapshot([](auto& s) {
    s.metadata.finalizers = {"example.com/keep", kAsSource, kBound};
    s.metadata.resource_version = "6";
  })));

  ASSERT_TRUE(deletion_.Delete(Decoded(DeletingSnapshot())).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(kRemoveBoth),
                                        GetCall(kSnapshots, kSnapshotKey), PatchSnapshot(R"([
      {"op": "test", "path": "/metadata/finalizers/1",
       "value": "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection"},
      {"op": "remove", "path": "/metadata/finalizers/1"},
      {"op": "test", "path": "/metadata/finalizers/1",
       "value": "snapshot.storage.kubernetes.io/volumesnapshot-bound-protection"},
      {"op": "remove", "path": "/metadata/finalizers/1"}])"_json)));
  auto snapshot = StoredSnapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre("example.com/keep"));
}

TEST_F(SnapshotDeletionTest, BeingDeletedAnnotationJoinsTheContentsOwnAnnotations) {
  Have(BoundContent([](auto& c) {
    c.spec.deletion_policy = "Retain";
    c.metadata.annotations = {{"example.com/note", "x"}};
  }));

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchContent(kContentName, R"([
      {"op": "add",
       "path": "/metadata/annotations/snapshot.storage.kubernetes.io~1volumesnapshot-being-deleted",
       "value": "yes"}])"_json),
                                        PatchSnapshot(kRemoveBoth)));
  auto content = StoredContent(kContentName);
  ASSERT_TRUE(content);
  EXPECT_EQ(content->metadata.annotations,
            (kube::StringMap{{"example.com/note", "x"}, {kBeingDeleted, "yes"}}));
}

TEST_F(SnapshotDeletionTest, SnapshotWithoutTheDeletionFlowsFinalizersNeedsNoWrite) {
  ASSERT_TRUE(
      Delete(DeletingSnapshot([](auto& s) { s.metadata.finalizers = {"example.com/keep"}; })).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

// --- §4.5 step 6: the order of the finalizers --------------------------------

TEST_F(SnapshotDeletionTest, ClaimFinalizerIsReleasedAfterTheContentAndBeforeTheSnapshots) {
  Have(Claim([](auto& c) { c.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)}; }));
  Have(BoundContent());

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName),
                          UpdateCall(kClaims, Decoded(Claim()))));
}

TEST_F(SnapshotDeletionTest, ClaimFinalizerFailureIsErrorPVCFinalizerAndKeepsTheSnapshots) {
  Have(Claim([](auto& c) { c.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)}; }));
  api_.Fail({"update", "persistentvolumeclaims", "", base::Error::Http(500, "boom")});

  auto deleted = Delete(DeletingSnapshot());

  ASSERT_FALSE(deleted.ok());
  EXPECT_EQ(deleted.error().message,
            "snapshot controller failed to update snap-1 on API server: snapshot controller failed "
            "to update claim-1 on API server: boom");
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("ErrorPVCFinalizer",
                                  "Error check and remove PVC Finalizer for VolumeSnapshot")));
  auto snapshot = StoredSnapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre(kAsSource, kBound));
}

TEST_F(SnapshotDeletionTest, FinalizerRemovalFailureIsReturnedWithUpstreamsWording) {
  api_.Fail({"patch", "volumesnapshots", "", base::Error::Http(500, "boom")});

  auto deleted = Delete(DeletingSnapshot());

  ASSERT_FALSE(deleted.ok());
  EXPECT_EQ(deleted.error().message,
            "snapshot controller failed to update snap-1 on API server: boom");
  EXPECT_THAT(events_.events(), IsEmpty()) << "upstream records no Event here";
}

// --- §4.5 step 5: a failing DELETE -------------------------------------------

TEST_F(SnapshotDeletionTest, ContentDeleteFailureIsSnapshotContentObjectDeleteErrorAndKeepsAll) {
  Have(BoundContent());
  api_.Fail({"delete", "volumesnapshotcontents", "", base::Error::Http(500, "mock delete error")});

  auto deleted = Delete(DeletingSnapshot());

  ASSERT_FALSE(deleted.ok());
  EXPECT_EQ(deleted.error().message, "failed to delete VolumeSnapshotContent " + kContentName +
                                         " from API server: \"mock delete error\"");
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotContentObjectDeleteError",
                                  "Failed to delete snapshot content API object")));
  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName)));
  auto snapshot = StoredSnapshot();
  ASSERT_TRUE(snapshot);
  EXPECT_THAT(snapshot->metadata.finalizers, ElementsAre(kAsSource, kBound));
}

// --- §4.5 step 2 and §9.7: a restoring claim holds the deletion --------------

TEST_F(SnapshotDeletionTest, RestorePendingHoldsTheDeletionWithAnEventNamingTheClaimUntilBound) {
  Have(BoundContent());
  Have(RestoringClaim());

  auto held = Delete(DeletingSnapshot());

  ASSERT_FALSE(held.ok()) << "an error, so the snapshot is retried";
  EXPECT_EQ(held.error().message,
            "snapshot default/snap-1 is in use (being used to restore a PVC), will retry deletion");
  EXPECT_THAT(events_.events(), ElementsAre(DeletePending(kRestorePending)));
  EXPECT_THAT(api_.calls(), IsEmpty());

  // The retry once the claim is bound: the deletion goes on.
  Have(RestoringClaim([](auto& c) { c.status.phase = "Bound"; }));
  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());
  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName)));
}

TEST_F(SnapshotDeletionTest, RestorePendingEventIsRecordedAtMostOncePerFiveMinutesPerSnapshot) {
  Have(BoundContent());
  Have(RestoringClaim());

  EXPECT_FALSE(Delete(DeletingSnapshot()).ok());
  EXPECT_FALSE(Delete(DeletingSnapshot()).ok());
  clock_.Advance(std::chrono::minutes(5) - std::chrono::seconds(1));
  EXPECT_FALSE(Delete(DeletingSnapshot()).ok());
  EXPECT_THAT(events_.events(), ElementsAre(DeletePending(kRestorePending)));

  clock_.Advance(std::chrono::seconds(1));
  EXPECT_FALSE(Delete(DeletingSnapshot()).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre(DeletePending(kRestorePending), DeletePending(kRestorePending)));
}

TEST_F(SnapshotDeletionTest, RestorePendingEventOfAnotherSnapshotIsNotHeldBack) {
  Have(BoundContent());
  Have(RestoringClaim());
  EXPECT_FALSE(Delete(DeletingSnapshot()).ok());

  // Another snapshot (its own UID and content) restored by another claim.
  const std::string other_uid = "6f1c2a3b-0000-4000-8000-0000000000b2";
  Have(BoundContent([&](auto& c) {
    c.metadata.name = "snapcontent-" + other_uid;
    c.spec.volume_snapshot_ref.name = "snap-2";
    c.spec.volume_snapshot_ref.uid = other_uid;
  }));
  Have(RestoringClaim([](auto& c) {
    c.metadata.name = "restore-2";
    c.spec.data_source->name = "snap-2";
  }));
  EXPECT_FALSE(Delete(DeletingSnapshot([&](auto& s) {
                 s.metadata.name = "snap-2";
                 s.metadata.uid = other_uid;
                 s.status->bound_volume_snapshot_content_name = "snapcontent-" + other_uid;
               })).ok());

  EXPECT_THAT(events_.events(),
              ElementsAre(DeletePending(kRestorePending),
                          RecordedEvent{"Warning", "SnapshotDeletePending",
                                        "Snapshot is being used to restore PVC default/restore-2",
                                        "VolumeSnapshot", "default", "snap-2"}));
}

TEST_F(SnapshotDeletionTest, OnlyAPendingClaimRestoringFromThisSnapshotHoldsTheDeletion) {
  Have(BoundContent([](auto& c) { c.spec.deletion_policy = "Retain"; }));
  Have(RestoringClaim([](auto& c) { c.status.phase = "Bound"; }));
  Have(RestoringClaim([](auto& c) {
    c.metadata.name = "clone-1";
    c.spec.data_source = kube::TypedLocalObjectReference{
        .api_group = std::nullopt, .kind = "PersistentVolumeClaim", .name = "snap-1"};
  }));
  Have(RestoringClaim([](auto& c) {
    c.metadata.name = "no-group-1";
    c.spec.data_source->api_group.reset();
  }));
  Have(RestoringClaim([](auto& c) {
    c.metadata.name = "other-snapshot-1";
    c.spec.data_source->name = "snap-9";
  }));
  Have(RestoringClaim([](auto& c) { c.metadata.namespace_ = "other"; }));

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(events_.events(), IsEmpty());
  EXPECT_FALSE(StoredSnapshot());
}

// As upstream, a restore names the snapshot's API group: a claim whose
// dataSource has none restores from no VolumeSnapshot, whatever its kind and
// name say, and is no reason to wait.
TEST_F(SnapshotDeletionTest, RestoringClaimWithoutAnApiGroupDoesNotHoldTheDeletion) {
  Have(BoundContent());
  Have(RestoringClaim([](auto& c) { c.spec.data_source->api_group.reset(); }));

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(MarkBeingDeleted(kContentName), DeleteCall(kContents, kContentName)));
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotDeletionTest, RestorePendingWithoutAContentDoesNotHoldTheDeletion) {
  // As upstream: with no content there is nothing a restore could lose.
  Have(RestoringClaim());

  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(kRemoveBoth)));
  EXPECT_THAT(events_.events(), IsEmpty());
}

// --- §4.5 step 3 and §9.13: a group member -----------------------------------

TEST_F(SnapshotDeletionTest, GroupMemberDeletionWaitsWithUpstreamsEventAndNoWrite) {
  Have(BoundContent());

  auto held = Delete(DeletingSnapshot([](auto& s) {
    s.metadata.finalizers = {kAsSource, kBound, kInGroup};
    s.status->volume_group_snapshot_name = "group-1";
  }));

  const std::string message =
      "deletion of the individual volume snapshot default/snap-1 is not allowed as it belongs to "
      "group snapshot default/group-1. Deleting the group snapshot will trigger the deletion of "
      "all the individual volume snapshots that are part of the group.";
  ASSERT_FALSE(held.ok());
  EXPECT_EQ(held.error().message, message);
  EXPECT_THAT(events_.events(), ElementsAre(DeletePending(message)));
  EXPECT_THAT(api_.calls(), IsEmpty());
}

// --- §4.6: the DeleteSnapshot operation --------------------------------------

TEST_F(SnapshotDeletionTest, DeletionStartsTheDeleteSnapshotOperationOfADynamicSnapshot) {
  Have(BoundContent());
  ASSERT_TRUE(Delete(DeletingSnapshot()).ok());
  clock_.Advance(std::chrono::seconds(2));
  // A later pass keeps the first start.
  ASSERT_TRUE(Delete(DeletingSnapshot([](auto& s) { s.metadata.finalizers = {kBound}; })).ok());
  EXPECT_EQ(metrics_.InFlight(), 1u);

  EXPECT_THAT(MetricsOnceDeleted(),
              HasSubstr("snapshot_controller_operation_total_seconds_sum{driver_name=\"" +
                        std::string(kDriver) +
                        "\",operation_name=\"DeleteSnapshot\",operation_status=\"success\","
                        "snapshot_type=\"dynamic\"} 2\n"));
}

TEST_F(SnapshotDeletionTest, DeletionStartsTheDeleteSnapshotOperationOfAPreProvisionedSnapshot) {
  Have(BoundImportedContent("Retain"));
  ASSERT_TRUE(Delete(DeletingImportedSnapshot()).ok());

  // The driver comes from the bound content (the snapshot names no class).
  EXPECT_THAT(MetricsOnceDeleted(),
              HasSubstr("snapshot_controller_operation_total_seconds_count{driver_name=\"" +
                        std::string(kDriver) +
                        "\",operation_name=\"DeleteSnapshot\",operation_status=\"success\","
                        "snapshot_type=\"pre-provisioned\"} 1\n"));
}

TEST_F(SnapshotDeletionTest, DeletionStartsTheOperationEvenWithNothingLeftToDo) {
  ASSERT_TRUE(Delete(DeletingSnapshot([](auto& s) { s.metadata.finalizers = {kInGroup}; })).ok());
  EXPECT_EQ(metrics_.InFlight(), 1u);
}

}  // namespace
}  // namespace snapshot_controller::testing
