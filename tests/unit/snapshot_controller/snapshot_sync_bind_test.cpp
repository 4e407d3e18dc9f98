// SnapshotSync binding and status copy (docs/snapshots.md §4.3 steps 4-5,
// syncUnreadySnapshot, "Copying the status"; docs/snapshots.md §6 items 6, 7
// and 9): pre-provisioned binds, misbound or missing contents, the status
// rebuilt from the content, errors copied and cleared, the VolumeSnapshot's
// finalizers, group members, Events and metric labels.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/snapshot_sync_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kCreatedNanos = 1690000000'000000000;
constexpr std::string_view kCreated = "2023-07-22T04:26:40Z";  // kCreatedNanos as metav1.Time

kube::VolumeSnapshotContentStatus ReadyContentStatus() {
  return {.snapshot_handle = "backend-snap-1",
          .creation_time = kCreatedNanos,
          .restore_size = kGiB,
          .ready_to_use = true};
}

const nlohmann::json kReadyStatus = {{"boundVolumeSnapshotContentName", kContentName},
                                     {"creationTime", kCreated},
                                     {"readyToUse", true},
                                     {"restoreSize", "1Gi"}};

RecordedEvent Created() {
  return Normal("SnapshotCreated",
                "Snapshot default/snap-1 was successfully created by the CSI driver.");
}
RecordedEvent Ready() {
  return Normal("SnapshotReady", "Snapshot default/snap-1 is ready to use.");
}
RecordedEvent FinalizerError(const std::string& error) {
  return Warning("SnapshotFinalizerError", "Failed to check and update snapshot: " + error);
}

ApiCall PatchImported(const nlohmann::json& ops) {
  return PatchCall(kContents, "imported-1", "json", ops.dump());
}
const nlohmann::json kSetUid = {
    {"op", "replace"}, {"path", "/spec/volumeSnapshotRef/uid"}, {"value", kSnapshotUid}};

std::string MetricLabels(std::string_view operation, std::string_view type) {
  return "{driver_name=\"csi.example.com\",operation_name=\"" + std::string(operation) +
         "\",operation_status=\"success\",snapshot_type=\"" + std::string(type) + "\"}";
}

// --- Pre-provisioned snapshots ------------------------------------------------

TEST_F(SnapshotSyncTest, PreProvisionedBindSetsTheContentsUidAndClassThenCopiesItsStatus) {
  Have(Class());
  Have(ImportedContent());

  ASSERT_TRUE(
      Sync(ImportingSnapshot([](auto& s) { s.spec.volume_snapshot_class_name = "gold"; })).ok());

  EXPECT_THAT(
      api_.calls(),
      ElementsAre(
          AddSnapshotFinalizers(false),
          PatchImported(
              {kSetUid,
               {{"op", "replace"}, {"path", "/spec/volumeSnapshotClassName"}, {"value", "gold"}}}),
          PatchSnapshotStatus(
              "6", {{"boundVolumeSnapshotContentName", "imported-1"}, {"readyToUse", false}})));
  auto content = api_.Stored<kube::VolumeSnapshotContent>("", "imported-1");
  ASSERT_TRUE(content);
  EXPECT_EQ(content->spec.volume_snapshot_ref.uid, kSnapshotUid);
  EXPECT_EQ(content->spec.volume_snapshot_class_name, "gold");
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotSyncTest, PreProvisionedBindWithoutAClassSetsOnlyTheUid) {
  Have(ImportedContent());

  ASSERT_TRUE(Sync(ImportingSnapshot()).ok());

  EXPECT_EQ(api_.calls()[1], PatchImported(nlohmann::json::array({kSetUid})));
}

TEST_F(SnapshotSyncTest, PreProvisionedContentBoundWithAClassIsNotPatchedAndItsStatusIsCopied) {
  Have(ImportedContent([](auto& c) {
    c.spec.volume_snapshot_ref.uid = std::string(kSnapshotUid);
    c.spec.volume_snapshot_class_name = "gold";
    c.status = ReadyContentStatus();
  }));

  ASSERT_TRUE(Sync(ImportingSnapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; })).ok());

  nlohmann::json status = kReadyStatus;
  status["boundVolumeSnapshotContentName"] = "imported-1";
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", status)));
  EXPECT_THAT(events_.events(), ElementsAre(Created(), Ready()));
  EXPECT_THAT(Metrics(),
              HasSubstr("snapshot_controller_operation_total_seconds_count" +
                        MetricLabels("CreateSnapshotAndReady", "pre-provisioned") + " 1\n"));
}

TEST_F(SnapshotSyncTest, MissingPreProvisionedContentIsSnapshotContentMissing) {
  auto synced = Sync(ImportingSnapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "snapshot default/snap-1 requests an non-existing content imported-1");
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus(
                                "5", {{"error", ErrorStatus("VolumeSnapshotContent is missing")},
                                      {"readyToUse", false}})));
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotContentMissing", "VolumeSnapshotContent is missing")));
}

TEST_F(SnapshotSyncTest, TheSameErrorIsNeitherWrittenNorReportedAgain) {
  auto synced = Sync(ImportingSnapshot([](auto& s) {
    s.metadata.finalizers = {kAsSource};
    s.status = kube::VolumeSnapshotStatus{
        .ready_to_use = false,
        .error = kube::VolumeSnapshotError{.time = "2023-11-14T22:00:00Z",
                                           .message = "VolumeSnapshotContent is missing"}};
  }));

  ASSERT_FALSE(synced.ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotSyncTest, PreProvisionedContentOfAnotherSnapshotIsMisbound) {
  Have(ImportedContent([](auto& c) { c.spec.volume_snapshot_ref.uid = "another-uid"; }));

  ASSERT_FALSE(Sync(ImportingSnapshot()).ok());

  const std::string message = "VolumeSnapshotContent [imported-1] is bound to a different snapshot";
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus(
                                "5", {{"error", ErrorStatus(message)}, {"readyToUse", false}})));
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotContentMisbound", message), FinalizerError(message)));
}

TEST_F(SnapshotSyncTest, PreProvisionedSnapshotNamingADynamicContentIsAMismatch) {
  Have(ImportedContent([](auto& c) { c.spec.source = {.volume_handle = "vol-1"}; }));

  ASSERT_FALSE(Sync(ImportingSnapshot()).ok());

  EXPECT_THAT(
      events_.events(),
      ElementsAre(Warning("SnapshotContentMismatch",
                          "VolumeSnapshotContent is dynamically provisioned while expecting a "
                          "pre-provisioned one"),
                  FinalizerError("snapshot default/snap-1 expects a pre-provisioned "
                                 "VolumeSnapshotContent imported-1 but gets a dynamically "
                                 "provisioned one")));
}

TEST_F(SnapshotSyncTest, FailedBindIsSnapshotBindFailed) {
  Have(ImportedContent());
  api_.Fail({"patch", "volumesnapshotcontents", "", base::Error::Http(500, "etcd down")});

  auto synced = Sync(ImportingSnapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "snapshot default/snap-1 is bound, but VolumeSnapshotContent imported-1 is not bound "
            "to the VolumeSnapshot correctly, etcd down");
  const std::string message = "Snapshot failed to bind VolumeSnapshotContent, etcd down";
  EXPECT_THAT(api_.calls(), ElementsAre(PatchImported(nlohmann::json::array({kSetUid})),
                                        PatchSnapshotStatus("5", {{"error", ErrorStatus(message)},
                                                                  {"readyToUse", false}})));
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SnapshotBindFailed", message)));
}

// --- Dynamic snapshots with a content -----------------------------------------

TEST_F(SnapshotSyncTest, DynamicContentOfAnotherSnapshotIsMisbound) {
  HaveSource();
  Have(Content([](auto& c) { c.spec.volume_snapshot_ref.uid = "another-uid"; }));

  ASSERT_FALSE(Sync(Snapshot()).ok());

  const std::string message =
      "VolumeSnapshotContent [" + kContentName + "] is bound to a different snapshot";
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotContentMisbound", message), FinalizerError(message)));
  // Nothing was created: the claim did not get its finalizer.
  EXPECT_THAT(api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1")->metadata.finalizers,
              IsEmpty());
}

TEST_F(SnapshotSyncTest, DynamicSnapshotsContentThatIsPreProvisionedIsAMismatch) {
  HaveSource();
  Have(Content([](auto& c) { c.spec.source = {.snapshot_handle = "backend-snap-1"}; }));

  ASSERT_FALSE(Sync(Snapshot()).ok());

  ASSERT_EQ(events_.events().size(), 2u);
  EXPECT_EQ(events_.events()[0],
            Warning("SnapshotContentMismatch",
                    "VolumeSnapshotContent " + kContentName +
                        " is pre-provisioned while expecting a dynamically provisioned one"));
}

TEST_F(SnapshotSyncTest, StatusLostIsRebuiltFromTheContent) {
  HaveSource();
  Have(Content([](auto& c) { c.status = ReadyContentStatus(); }));

  ASSERT_TRUE(Sync(Snapshot(WithFinalizers)).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", kReadyStatus)));
  EXPECT_THAT(events_.events(), ElementsAre(Created(), Ready()));
}

TEST_F(SnapshotSyncTest, ContentErrorIsCopied) {
  HaveSource();
  const kube::VolumeSnapshotError error{.time = "2023-11-14T22:10:00Z", .message = "quota"};
  Have(Content([&](auto& c) { c.status = {.ready_to_use = false, .error = error}; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, false);
              })).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshotStatus(
                  "5", {{"error", {{"message", "quota"}, {"time", "2023-11-14T22:10:00Z"}}}})));
  EXPECT_EQ(StoredSnapshot()->status->error, error);
}

TEST_F(SnapshotSyncTest, ErrorIsClearedOnceTheContentHasNone) {
  HaveSource();
  Have(Content([](auto& c) { c.status = {.ready_to_use = false}; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, false);
                s.status->error = kube::VolumeSnapshotError{.time = "t", .message = "quota"};
              })).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", {{"error", nullptr}})));
  EXPECT_FALSE(StoredSnapshot()->status->error);
}

TEST_F(SnapshotSyncTest, ZeroRestoreSizeTakesTheContentsSize) {
  HaveSource();
  Have(Content([](auto& c) { c.status = {.restore_size = kGiB, .ready_to_use = false}; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, false);
                s.status->restore_size = "0";
              })).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", {{"restoreSize", "1Gi"}})));
}

TEST_F(SnapshotSyncTest, UnchangedStatusIsNotWritten) {
  HaveSource();
  Have(Content([](auto& c) { c.status = {.ready_to_use = false}; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, false);
              })).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
}

// --- Ready snapshots ----------------------------------------------------------

TEST_F(SnapshotSyncTest, ReadySnapshotWhoseContentIsGoneIsSnapshotContentMissing) {
  Have(Class());
  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, true);
              })).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus(
                                "5", {{"error", ErrorStatus("VolumeSnapshotContent is missing")},
                                      {"readyToUse", false}})));
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotContentMissing", "VolumeSnapshotContent is missing")));
}

TEST_F(SnapshotSyncTest, ReadySnapshotWhoseContentNamesAnotherIsSnapshotMisbound) {
  Have(Class());
  Have(
      ImportedContent([](auto& c) { c.spec.volume_snapshot_ref.uid = std::string(kSnapshotUid); }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, "imported-1", true);
              })).ok());

  EXPECT_EQ(events_.events(), std::vector<RecordedEvent>{});  // it does name this snapshot
  api_.ClearCalls();
  Have(ImportedContent([](auto& c) { c.spec.volume_snapshot_ref.uid = "another-uid"; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, "imported-1", true);
              })).ok());

  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SnapshotMisbound",
                                  "VolumeSnapshotContent is not bound to the VolumeSnapshot "
                                  "correctly")));
  EXPECT_EQ(StoredSnapshot()->status->ready_to_use, false);
}

TEST_F(SnapshotSyncTest, HealthyReadySnapshotCostsNoCall) {
  HaveSource();
  Have(Content([](auto& c) { c.status = ReadyContentStatus(); }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, true);
              })).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());
  EXPECT_EQ(metrics_.InFlight(), 0u);
}

TEST_F(SnapshotSyncTest, ASnapshotAlreadyCutStartsOnlyCreateSnapshotAndReady) {
  HaveSource();
  Have(
      Content([](auto& c) { c.status = {.creation_time = kCreatedNanos, .ready_to_use = false}; }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                WithFinalizers(s);
                BoundTo(s, kContentName, false);
                s.status->creation_time = std::string(kCreated);
              })).ok());

  EXPECT_EQ(metrics_.InFlight(), 1u);
  metrics_.Record(kCreateSnapshotOperation, std::string(kSnapshotUid), OperationStatus::kSuccess,
                  "");
  EXPECT_THAT(Metrics(), ::testing::Not(HasSubstr("operation_name=\"CreateSnapshot\",")));
}

// --- §4.3 step 1: the claim let go of as the snapshot turns ready ------------

const nlohmann::json kTurnsReady = {
    {"creationTime", kCreated}, {"readyToUse", true}, {"restoreSize", "1Gi"}};

// The claim as the snapshot's creation protected it.
void Protect(kube::PersistentVolumeClaim& claim) {
  claim.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)};
}

// The protected claim as the controller replaces it, without the finalizer.
ApiCall UpdateClaimReleasingFinalizer() {
  kube::PersistentVolumeClaim released = Decoded(Claim(Protect));
  released.metadata.finalizers.clear();
  return UpdateCall(kClaims, released);
}

void BoundUnready(kube::VolumeSnapshot& s) {
  WithFinalizers(s);
  BoundTo(s, kContentName, false);
}

TEST_F(SnapshotSyncTest, TheSyncThatMakesTheSnapshotReadyReleasesTheClaimsFinalizer) {
  Have(Claim(Protect));
  Have(Volume());
  Have(Class());
  Have(Content([](auto& c) { c.status = ReadyContentStatus(); }));

  ASSERT_TRUE(Sync(Snapshot(BoundUnready)).ok());

  // No later sync would: the status write is our own (§9.3).
  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshotStatus("5", kTurnsReady), UpdateClaimReleasingFinalizer()));
  EXPECT_THAT(api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1")->metadata.finalizers,
              IsEmpty());
  EXPECT_THAT(events_.events(), ElementsAre(Created(), Ready()));
}

TEST_F(SnapshotSyncTest, TurningReadyKeepsTheClaimsFinalizerWhileAnotherUnreadySnapshotTakesIt) {
  Have(Claim(Protect));
  Have(Volume());
  Have(Class());
  Have(Content([](auto& c) { c.status = ReadyContentStatus(); }));
  InCache(Snapshot([](auto& s) {
    s.metadata.name = "snap-2";
    s.metadata.uid = "uid-2";
  }));

  ASSERT_TRUE(Sync(Snapshot(BoundUnready)).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", kTurnsReady)));
}

TEST_F(SnapshotSyncTest, AStatusWriteThatLeavesTheSnapshotUnreadyLeavesTheClaimAlone) {
  Have(Claim(Protect));
  Have(Volume());
  Have(Class());
  Have(Content([](auto& c) {
    c.status =
        kube::VolumeSnapshotContentStatus{.creation_time = kCreatedNanos, .ready_to_use = false};
  }));

  ASSERT_TRUE(Sync(Snapshot(BoundUnready)).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", {{"creationTime", kCreated}})));
}

TEST_F(SnapshotSyncTest, ClaimReleaseFailingAfterTurningReadyIsErrorPVCFinalizerAndRetried) {
  Have(Claim(Protect));
  Have(Volume());
  Have(Class());
  Have(Content([](auto& c) { c.status = ReadyContentStatus(); }));
  api_.Fail({"update", "persistentvolumeclaims", "", base::Error::Http(500, "etcd down")});

  auto synced = Sync(Snapshot(BoundUnready));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "snapshot controller failed to update claim-1 on API server: etcd down");
  EXPECT_EQ(StoredSnapshot()->status->ready_to_use, true);
  EXPECT_THAT(events_.events(),
              ElementsAre(Created(), Ready(),
                          Warning("ErrorPVCFinalizer",
                                  "Error check and remove PVC Finalizer for VolumeSnapshot")));
}

// --- §4.3 step 4: the VolumeSnapshot's finalizers ------------------------------

TEST_F(SnapshotSyncTest, BoundSnapshotOfADeletePolicyContentGetsTheBoundFinalizerByPatch) {
  HaveSource();
  Have(Content());

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                s.metadata.finalizers = {"example.com/other", kAsSource};
                BoundTo(s, kContentName, false);
              })).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshot(
                  {{{"op", "test"},
                    {"path", "/metadata/finalizers"},
                    {"value", {"example.com/other", kAsSource}}},
                   {{"op", "add"}, {"path", "/metadata/finalizers/-"}, {"value", kBound}}})));
  EXPECT_THAT(StoredSnapshot()->metadata.finalizers,
              ElementsAre("example.com/other", kAsSource, kBound));
}

TEST_F(SnapshotSyncTest, BoundSnapshotWithoutFinalizersGetsBothInOnePatch) {
  HaveSource();
  Have(Content());

  ASSERT_TRUE(Sync(Snapshot([](auto& s) { BoundTo(s, kContentName, false); })).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(AddSnapshotFinalizers(true)));
  EXPECT_THAT(StoredSnapshot()->metadata.finalizers, ElementsAre(kAsSource, kBound));
}

// §9.4: the bound finalizer goes in with the as-source one, in the patch
// before the bind, as the content to bind is known to have policy Delete.
TEST_F(SnapshotSyncTest, PreProvisionedDeleteContentGetsBothFinalizersInOnePatchBeforeTheBind) {
  Have(ImportedContent([](auto& c) { c.spec.deletion_policy = "Delete"; }));

  ASSERT_TRUE(Sync(ImportingSnapshot()).ok());

  EXPECT_THAT(
      api_.calls(),
      ElementsAre(AddSnapshotFinalizers(true), PatchImported(nlohmann::json::array({kSetUid})),
                  PatchSnapshotStatus("6", {{"boundVolumeSnapshotContentName", "imported-1"},
                                            {"readyToUse", false}})));
  EXPECT_THAT(StoredSnapshot()->metadata.finalizers, ElementsAre(kAsSource, kBound));
}

TEST_F(SnapshotSyncTest, ReadySnapshotWhoseContentIsGoneGetsNoBoundFinalizer) {
  // No content to create either: the class's policy does not count.
  HaveSource();

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                s.metadata.finalizers = {kAsSource};
                BoundTo(s, kContentName, true);
              })).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus(
                                "5", {{"error", ErrorStatus("VolumeSnapshotContent is missing")},
                                      {"readyToUse", false}})));
}

TEST_F(SnapshotSyncTest, ContentWithRetainPolicyNeedsNoBoundFinalizer) {
  HaveSource();
  Have(Content([](auto& c) { c.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain); }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                s.metadata.finalizers = {kAsSource};
                BoundTo(s, kContentName, false);
              })).ok());

  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(SnapshotSyncTest, FailedFinalizerPatchIsSnapshotFinalizerError) {
  HaveSource();
  api_.Fail({"patch", "volumesnapshots", "", base::Error::Http(500, "etcd down")});

  auto synced = Sync(Snapshot());

  ASSERT_FALSE(synced.ok());
  const std::string error =
      "snapshot controller failed to update default/snap-1 on API server: etcd down";
  EXPECT_EQ(synced.error().message, error);
  EXPECT_THAT(api_.calls(), ElementsAre(AddSnapshotFinalizers(true)));
  EXPECT_THAT(events_.events(), ElementsAre(FinalizerError(error)));
}

TEST_F(SnapshotSyncTest, AFinalizerAddedMeanwhileIsNotDuplicatedAndTheRestComesFromAFreshRead) {
  HaveSource();
  // The server's copy has the as-source finalizer already; the cache has not
  // seen it: the patch is refused (422) and computed again from a GET.
  api_.Put(Decoded(Snapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; })));

  ASSERT_TRUE(SyncFromCache(Snapshot()).ok());

  const std::vector<ApiCall> calls = api_.calls();
  ASSERT_GE(calls.size(), 3u);
  EXPECT_THAT(
      std::vector<ApiCall>(calls.begin(), calls.begin() + 3),
      ElementsAre(
          AddSnapshotFinalizers(true), GetCall(kSnapshots, kSnapshotKey),
          PatchSnapshot({{{"op", "test"}, {"path", "/metadata/finalizers"}, {"value", {kAsSource}}},
                         {{"op", "add"}, {"path", "/metadata/finalizers/-"}, {"value", kBound}}})));
  EXPECT_THAT(StoredSnapshot()->metadata.finalizers, ElementsAre(kAsSource, kBound));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingSnapshot()));
}

TEST_F(SnapshotSyncTest, AFreshReadThatHasEveryFinalizerSendsNoSecondPatch) {
  HaveSource();
  api_.Put(Decoded(Snapshot(WithFinalizers)));

  ASSERT_TRUE(SyncFromCache(Snapshot()).ok());

  const std::vector<ApiCall> calls = api_.calls();
  ASSERT_GE(calls.size(), 4u);
  EXPECT_EQ(calls[0], AddSnapshotFinalizers(true));
  EXPECT_EQ(calls[1], GetCall(kSnapshots, kSnapshotKey));
  EXPECT_EQ(calls[2], ReadClaim()) << "the sync goes on from the fresh copy";
  EXPECT_EQ(calls[3], UpdateClaimAddingFinalizer());
}

TEST_F(SnapshotSyncTest, AFailedFreshReadIsSnapshotFinalizerError) {
  HaveSource();
  api_.Put(Decoded(Snapshot([](auto& s) { s.metadata.finalizers = {kAsSource}; })));
  api_.Fail({"get", "volumesnapshots", "", base::Error::Http(500, "etcd down")});

  auto synced = SyncFromCache(Snapshot());

  ASSERT_FALSE(synced.ok());
  const std::string error =
      "snapshot controller failed to update default/snap-1 on API server: etcd down";
  EXPECT_EQ(synced.error().message, error);
  EXPECT_THAT(events_.events(), ElementsAre(FinalizerError(error)));
}

// --- Group members (§9.13) ------------------------------------------------------

void GroupMember(kube::VolumeSnapshot& s) {
  s.metadata.owner_references = {{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                  .kind = "VolumeGroupSnapshot",
                                  .name = "group-1",
                                  .uid = "g-1"}};
  s.metadata.finalizers = {kAsSource};
  s.spec.volume_snapshot_class_name.reset();
}

TEST_F(SnapshotSyncTest, GroupMemberOnlyMirrorsItsContent) {
  Have(Content([](auto& c) {
    c.metadata.name = "member-content";
    c.status = ReadyContentStatus();
    c.status->volume_group_snapshot_handle = "group-handle";
  }));

  ASSERT_TRUE(Sync(Snapshot([](auto& s) {
                GroupMember(s);
                BoundTo(s, "member-content", false);
              })).ok());

  nlohmann::json want = kReadyStatus;
  want.erase("boundVolumeSnapshotContentName");  // it has that already
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", want)));
  EXPECT_THAT(events_.events(), ElementsAre(Created(), Ready()));
}

TEST_F(SnapshotSyncTest, GroupMemberWithoutItsContentIsRetriedQuietly) {
  auto synced = Sync(Snapshot(GroupMember));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message,
            "detected group snapshot member default/snap-1 with no content, retrying");
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_THAT(events_.events(), IsEmpty());

  auto missing = Sync(Snapshot([](auto& s) {
    GroupMember(s);
    BoundTo(s, "member-content", false);
  }));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "group snapshot member default/snap-1 requests an non-existing content member-content");
}

}  // namespace
}  // namespace snapshot_controller::testing
