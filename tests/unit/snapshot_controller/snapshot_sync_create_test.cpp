// SnapshotSync of dynamic snapshots (docs/snapshots.md §4.3 steps 0, 3 and
// createSnapshotContent; docs/snapshots.md §6 item 5): the class, validation,
// the content's creation and every failure on the way, with upstream's
// Event reasons and messages.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/snapshot_controller/snapshot_sync_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// The content the default snapshot gets: its own finalizer already in it
// (§9.4), its reference naming the snapshot as the finalizer patch left it
// (resourceVersion 6).
kube::VolumeSnapshotContent ContentToPost(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](kube::VolumeSnapshotContent& c) {
    c.metadata.resource_version.clear();
    c.metadata.finalizers = {kContentFinalizer};
    c.spec.volume_snapshot_ref.resource_version = "6";
  });
  return Edited(std::move(content), edit);
}

const nlohmann::json kBoundUnready = {{"boundVolumeSnapshotContentName", kContentName},
                                      {"readyToUse", false}};

// A sync that could not create the content: after the finalizer patch (class
// "gold" has policy Delete: both finalizers at once, §9.4) and then `calls`,
// `message` is saved with readyToUse false and reported as
// SnapshotContentCreationFailed, after the Warnings `before` it.
void ExpectContentCreationFailed(const FakeControllerApi& api, const FakeControllerEvents& events,
                                 const std::vector<ApiCall>& calls, const std::string& message,
                                 std::vector<RecordedEvent> before = {}) {
  std::vector<ApiCall> want = {AddSnapshotFinalizers(true)};
  want.insert(want.end(), calls.begin(), calls.end());
  want.push_back(
      PatchSnapshotStatus("6", {{"error", ErrorStatus(message)}, {"readyToUse", false}}));
  EXPECT_EQ(api.calls(), want);
  before.push_back(Warning("SnapshotContentCreationFailed", message));
  EXPECT_EQ(events.events(), before);
}

// --- §4.3 step 0: the class ---------------------------------------------------

TEST_F(SnapshotSyncTest, DefaultClassOfTheVolumesDriverIsPatchedInThenTheContentCreated) {
  Have(Claim());
  Have(Volume());
  Have(DefaultClass("gold", std::string(kDriver)));
  Have(DefaultClass("other-driver", "other.csi.example.com"));
  Have(Class([](auto& c) { c.metadata.name = "silver"; }));  // same driver, not default

  ASSERT_TRUE(Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); })).ok());

  EXPECT_THAT(
      api_.calls(),
      ElementsAre(
          PatchSnapshot(
              {{{"op", "replace"}, {"path", "/spec/volumeSnapshotClassName"}, {"value", "gold"}}}),
          AddSnapshotFinalizers(true), ReadClaim(), UpdateClaimAddingFinalizer(),
          CreateCall(kContents, ContentToPost([](auto& c) {
                       c.spec.volume_snapshot_ref.resource_version = "7";
                     }))));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingSnapshot()));
  EXPECT_EQ(StoredSnapshot()->spec.volume_snapshot_class_name, "gold");
}

TEST_F(SnapshotSyncTest, NoDefaultClassForTheDriverIsSetDefaultSnapshotClassFailed) {
  Have(Claim());
  Have(Volume());
  Have(DefaultClass("other-driver", "other.csi.example.com"));

  auto synced = Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message, "cannot find default snapshot class");
  const std::string message =
      "Failed to set default snapshot class with error cannot find default snapshot class";
  // readyToUse is left as it is.
  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshotStatus("5", {{"error", ErrorStatus(message)}})));
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SetDefaultSnapshotClassFailed", message)));
}

TEST_F(SnapshotSyncTest, TwoDefaultClassesForTheDriverAreSetDefaultSnapshotClassFailed) {
  Have(Claim());
  Have(Volume());
  Have(DefaultClass("gold", std::string(kDriver)));
  Have(DefaultClass("platinum", std::string(kDriver)));

  auto synced = Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SetDefaultSnapshotClassFailed",
                                  "Failed to set default snapshot class with error 2 default "
                                  "snapshot classes were found")));
}

TEST_F(SnapshotSyncTest, DefaultClassNeedsTheSourceClaim) {
  Have(DefaultClass("gold", std::string(kDriver)));

  auto synced = Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_THAT(
      events_.events(),
      ElementsAre(Warning(
          "SetDefaultSnapshotClassFailed",
          R"(Failed to set default snapshot class with error failed to retrieve PVC claim-1 )"
          R"(from the lister: "persistentvolumeclaim \"claim-1\" not found")")));
}

TEST_F(SnapshotSyncTest, DefaultClassOfANonCsiVolumeIsRefused) {
  Have(Claim());
  Have(Volume([](auto& v) { v.spec.source = kube::OtherVolumeSource{"nfs"}; }));
  Have(DefaultClass("gold", std::string(kDriver)));

  ASSERT_FALSE(Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); })).ok());
  EXPECT_THAT(events_.events(),
              ElementsAre(Warning("SetDefaultSnapshotClassFailed",
                                  "Failed to set default snapshot class with error snapshotting "
                                  "non-CSI volumes is not supported, snapshot:default/snap-1")));
}

TEST_F(SnapshotSyncTest, MissingNamedClassIsGetSnapshotClassFailed) {
  HaveSource();

  auto synced = Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name = "gone"; }));

  ASSERT_FALSE(synced.ok());
  const std::string message =
      R"(Failed to get snapshot class with error volumesnapshotclass.snapshot.storage.k8s.io )"
      R"("gone" not found)";
  EXPECT_THAT(api_.calls(),
              ElementsAre(PatchSnapshotStatus("5", {{"error", ErrorStatus(message)}})));
  EXPECT_THAT(events_.events(), ElementsAre(Warning("GetSnapshotClassFailed", message)));
}

TEST_F(SnapshotSyncTest, DefaultClassPatchFailureIsRetried) {
  Have(Claim());
  Have(Volume());
  Have(DefaultClass("gold", std::string(kDriver)));
  api_.Fail({"patch", "volumesnapshots", "", base::Error::Http(500, "etcd down")});

  auto synced = Sync(Snapshot([](auto& s) { s.spec.volume_snapshot_class_name.reset(); }));

  ASSERT_FALSE(synced.ok());
  EXPECT_EQ(synced.error().message, "etcd down");
  EXPECT_EQ(api_.calls().size(), 1u);
}

// --- §4.3 step 3: validation ------------------------------------------------

TEST_F(SnapshotSyncTest, BothSourcesAreASnapshotValidationError) {
  HaveSource();

  auto synced = Sync(Snapshot([](auto& s) { s.spec.source.volume_snapshot_content_name = "c"; }));

  ASSERT_FALSE(synced.ok());
  const std::string message =
      "Exactly one of PersistentVolumeClaimName and VolumeSnapshotContentName should be specified";
  EXPECT_EQ(synced.error().message, message);
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus(
                                "5", {{"error", ErrorStatus(message)}, {"readyToUse", false}})));
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SnapshotValidationError", message)));
}

TEST_F(SnapshotSyncTest, NoSourceIsASnapshotValidationError) {
  HaveSource();
  ASSERT_FALSE(Sync(Snapshot([](auto& s) { s.spec.source = {}; })).ok());
  ASSERT_EQ(events_.events().size(), 1u);
  EXPECT_EQ(events_.events()[0].reason, "SnapshotValidationError");
}

// --- createSnapshotContent ----------------------------------------------------

// §9.4: one patch for both of the snapshot's finalizers (class "gold" has
// policy Delete), the content's own in its POST, and no status until the
// content has one to copy.
TEST_F(SnapshotSyncTest, FirstSyncProtectsSnapshotAndClaimThenPostsTheContent) {
  HaveSource();

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(AddSnapshotFinalizers(true), ReadClaim(), UpdateClaimAddingFinalizer(),
                          CreateCall(kContents, ContentToPost())));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingSnapshot()));
  auto stored = StoredSnapshot();
  ASSERT_TRUE(stored);
  EXPECT_THAT(stored->metadata.finalizers, ElementsAre(kAsSource, kBound));
  EXPECT_FALSE(stored->status);
  auto content = api_.Stored<kube::VolumeSnapshotContent>("", kContentName);
  ASSERT_TRUE(content);
  EXPECT_THAT(content->metadata.finalizers, ElementsAre(kContentFinalizer));
}

TEST_F(SnapshotSyncTest, FirstSyncUnderRetainAddsOnlyTheAsSourceFinalizer) {
  Have(Claim());
  Have(Volume());
  Have(Class([](auto& c) { c.deletion_policy = std::string(kube::kDeletionPolicyRetain); }));

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(AddSnapshotFinalizers(false), ReadClaim(), UpdateClaimAddingFinalizer(),
                          CreateCall(kContents, ContentToPost([](auto& c) {
                                       c.spec.deletion_policy = kube::kDeletionPolicyRetain;
                                     }))));
  EXPECT_THAT(StoredSnapshot()->metadata.finalizers, ElementsAre(kAsSource));
}

TEST_F(SnapshotSyncTest, ContentRecordsTheVolumeModeAndTheDeletionSecret) {
  Have(Claim());
  Have(Volume([](auto& v) { v.spec.volume_mode = "Block"; }));
  Have(Class([](auto& c) {
    c.parameters = {{"csi.storage.k8s.io/snapshotter-secret-name", "creds-${volumesnapshot.name}"},
                    {"csi.storage.k8s.io/snapshotter-secret-namespace", "secrets"}};
  }));

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_EQ(
      api_.calls()[3],
      CreateCall(kContents, ContentToPost([](auto& c) {
                   c.spec.source_volume_mode = "Block";
                   c.metadata.annotations = {
                       {"snapshot.storage.kubernetes.io/deletion-secret-name", "creds-snap-1"},
                       {"snapshot.storage.kubernetes.io/"
                        "deletion-secret-namespace",
                        "secrets"}};
                 })));
}

TEST_F(SnapshotSyncTest, WithoutPreventVolumeModeConversionTheModeIsNotRecorded) {
  options_.prevent_volume_mode_conversion = false;
  Have(Claim());
  Have(Volume([](auto& v) { v.spec.volume_mode = "Block"; }));
  Have(Class());

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_EQ(api_.calls()[3], CreateCall(kContents, ContentToPost()));
}

TEST_F(SnapshotSyncTest, DistributedSnapshottingLabelsTheContentWithTheVolumesNode) {
  options_.enable_distributed_snapshotting = true;
  caches_.UseNodes();
  Have(NodeWithLabels("node-a", {{"kubernetes.io/hostname", "node-a"}}));
  Have(NodeWithLabels("node-b", {{"kubernetes.io/hostname", "node-b"}}));
  Have(Claim());
  Have(Volume([](auto& v) {
    v.spec.node_affinity = {kube::NodeSelectorTerm{{{"kubernetes.io/hostname", "In", {"node-b"}}}}};
  }));
  Have(Class());

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_EQ(
      api_.calls()[3],
      CreateCall(kContents, ContentToPost([](auto& c) {
                   c.metadata.labels = {{"snapshot.storage.kubernetes.io/managed-by", "node-b"}};
                 })));
}

TEST_F(SnapshotSyncTest, TheVolumeIsReadFromTheApiWhenTheCacheLacksIt) {
  Have(Claim());
  api_.Put(Volume());
  Have(Class());

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(AddSnapshotFinalizers(true), ReadClaim(), UpdateClaimAddingFinalizer(),
                          GetCall(kVolumes, "pv-1"), CreateCall(kContents, ContentToPost())));
}

TEST_F(SnapshotSyncTest, MissingVolumeIsSnapshotContentCreationFailed) {
  Have(Claim());
  Have(Class());

  auto synced = Sync(Snapshot());

  ASSERT_FALSE(synced.ok());
  const std::string message =
      R"(Failed to create snapshot content with error failed to get input parameters to create )"
      R"(snapshot snap-1: "failed to retrieve PV pv-1 from the API server: \"persistentvolumes )"
      R"(\\\"pv-1\\\" not found\"")";
  ExpectContentCreationFailed(
      api_, events_, {ReadClaim(), UpdateClaimAddingFinalizer(), GetCall(kVolumes, "pv-1")},
      message);
  EXPECT_FALSE(api_.Stored<kube::VolumeSnapshotContent>("", kContentName));
}

TEST_F(SnapshotSyncTest, MissingClaimIsSnapshotContentCreationFailed) {
  Have(Volume());
  Have(Class());

  ASSERT_FALSE(Sync(Snapshot()).ok());

  const std::string message =
      "Failed to create snapshot content with error snapshot controller failed to update snap-1 "
      "on API server: cannot get claim from snapshot";
  ExpectContentCreationFailed(api_, events_, {}, message);
}

TEST_F(SnapshotSyncTest, UnboundClaimIsSnapshotContentCreationFailed) {
  Have(Claim([](auto& c) {
    c.spec.volume_name.clear();
    c.status.phase = "Pending";
  }));
  Have(Class());

  ASSERT_FALSE(Sync(Snapshot()).ok());

  ExpectContentCreationFailed(
      api_, events_,
      {ReadClaim(), UpdateCall(kClaims, Decoded(Claim([](auto& c) {
                                 c.spec.volume_name.clear();
                                 c.status.phase = "Pending";
                                 c.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)};
                               })))},
      R"(Failed to create snapshot content with error failed to get input parameters to create )"
      R"(snapshot snap-1: "the PVC claim-1 is not yet bound to a PV, will not attempt to take a )"
      R"(snapshot")");
}

TEST_F(SnapshotSyncTest, ClaimBeingDeletedIsSnapshotContentCreationFailed) {
  Have(Claim([](auto& c) { c.metadata.deletion_timestamp = "2023-11-14T22:00:00Z"; }));
  Have(Volume());
  Have(Class());

  ASSERT_FALSE(Sync(Snapshot()).ok());

  const std::string message =
      "Failed to create snapshot content with error snapshot controller failed to update claim-1 "
      "on API server: cannot add finalizer on claim because it is being deleted";
  ExpectContentCreationFailed(api_, events_, {}, message);
}

TEST_F(SnapshotSyncTest, VolumeBoundToAnotherClaimIsSnapshotContentCreationFailed) {
  Have(Claim());
  Have(Volume([](auto& v) { v.spec.claim_ref->uid = "another-claim"; }));
  Have(Class());

  ASSERT_FALSE(Sync(Snapshot()).ok());

  ExpectContentCreationFailed(
      api_, events_, {ReadClaim(), UpdateClaimAddingFinalizer()},
      R"(Failed to create snapshot content with error failed to get input parameters to create )"
      R"(snapshot snap-1: "claim in dataSource not bound or invalid")");
}

TEST_F(SnapshotSyncTest, FailedContentPostIsCreateSnapshotContentFailedThenCreationFailed) {
  HaveSource();
  api_.Fail({"create", "volumesnapshotcontents", "", base::Error::Http(500, "etcd down")});

  auto synced = Sync(Snapshot());

  ASSERT_FALSE(synced.ok());
  const std::string message =
      "Failed to create snapshot content with error snapshot controller failed to update "
      "default/snap-1 on API server: etcd down";
  ExpectContentCreationFailed(
      api_, events_,
      {ReadClaim(), UpdateClaimAddingFinalizer(), CreateCall(kContents, ContentToPost())}, message,
      {Warning("CreateSnapshotContentFailed",
               "Error creating volume snapshot content object for snapshot "
               "default/snap-1: etcd down.")});
}

TEST_F(SnapshotSyncTest, ContentThatAlreadyExistsCountsAsCreated) {
  HaveSource();
  api_.Put(Content());  // an earlier sync's POST whose answer was lost

  ASSERT_TRUE(Sync(Snapshot()).ok());

  EXPECT_THAT(api_.calls(),
              ElementsAre(AddSnapshotFinalizers(true), ReadClaim(), UpdateClaimAddingFinalizer(),
                          CreateCall(kContents, ContentToPost())));
  EXPECT_THAT(events_.events(), ElementsAre(CreatingSnapshot()));
}

TEST_F(SnapshotSyncTest, FailedStatusWriteIsSnapshotStatusUpdateFailedEvenWhenItsRecordFails) {
  HaveSource();
  Have(Content());
  api_.Fail({"patch", "volumesnapshots", "status", base::Error::Http(500, "etcd down")});

  auto synced = Sync(Snapshot(WithFinalizers));

  ASSERT_FALSE(synced.ok());
  const std::string message =
      "Snapshot status update failed, snapshot controller failed to update default/snap-1 on "
      "API server: etcd down";
  EXPECT_EQ(synced.error().message,
            "snapshot controller failed to update default/snap-1 on API server: etcd down");
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", kBoundUnready),
                                        PatchSnapshotStatus("5", {{"error", ErrorStatus(message)},
                                                                  {"readyToUse", false}})));
  EXPECT_THAT(events_.events(), ElementsAre(Warning("SnapshotStatusUpdateFailed", message)));
}

TEST_F(SnapshotSyncTest, StatusConflictIsRetriedFromAFreshRead) {
  HaveSource();
  Have(Content());
  auto protected_snapshot = Snapshot(WithFinalizers);
  api_.Put(Decoded(protected_snapshot));
  api_.BumpResourceVersion<kube::VolumeSnapshot>("default", "snap-1");  // another writer: rv 6

  ASSERT_TRUE(SyncFromCache(protected_snapshot).ok());

  // The cached copy (rv 5) is stale: one 409, a GET, and the patch again.
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("5", kBoundUnready),
                                        GetCall(kSnapshots, kSnapshotKey),
                                        PatchSnapshotStatus("6", kBoundUnready)));
  EXPECT_THAT(events_.events(), IsEmpty());
}

TEST_F(SnapshotSyncTest, StatusConflictsGiveUpAfterTwoRetries) {
  HaveSource();
  Have(Content());
  api_.Fail({"patch", "volumesnapshots", "status", base::Error::Http(409, "conflict")});

  auto synced = Sync(Snapshot(WithFinalizers));

  ASSERT_FALSE(synced.ok());
  int patches = 0;
  for (const ApiCall& call : api_.calls()) patches += call.subresource == "status";
  // Three tries to copy the status, three to record the failure.
  EXPECT_EQ(patches, 6);
}

// --- Metrics (§4.6) ------------------------------------------------------------

// Two syncs in a row, the second from the cached copy the first one's status
// write has not reached yet: it starts from that write's answer
// (WrittenSnapshots), which shows the status already written, so neither the
// Event nor the CreateSnapshot duration is recorded twice, and the second
// sync's start of CreateSnapshot does not linger.
TEST_F(SnapshotSyncTest, StatusWrittenByAnEarlierSyncIsRecordedOnce) {
  HaveSource();
  Have(Content([](auto& c) {
    c.status = kube::VolumeSnapshotContentStatus{.creation_time = 1700000000'000000000,
                                                 .ready_to_use = false};
  }));
  const kube::VolumeSnapshot stale = Snapshot(WithFinalizers);
  ASSERT_TRUE(Sync(stale).ok());
  ASSERT_EQ(events_.events().size(), 1u);

  ASSERT_TRUE(SyncFromCache(stale).ok());

  EXPECT_EQ(events_.events().size(), 1u);
  EXPECT_EQ(metrics_.InFlight(), 1u);  // CreateSnapshotAndReady only
  EXPECT_THAT(Metrics(), HasSubstr("snapshot_controller_operation_total_seconds_count{"
                                   "driver_name=\"csi.example.com\","
                                   "operation_name=\"CreateSnapshot\","
                                   "operation_status=\"success\","
                                   "snapshot_type=\"dynamic\"} 1\n"));
}

// The readiness case (§9.4): the first status write copies the cut
// (creationTime, readyToUse false); the content turns ready before the
// informer brings that write back. The next sync's one patch starts from our
// own write's answer: guarded by its resourceVersion, no 409, no GET, and
// only readyToUse in it.
TEST_F(SnapshotSyncTest, ASyncBeforeTheCacheHasOurStatusWriteStartsFromItsAnswer) {
  HaveSource();
  auto content_status = [](bool ready) {
    return [ready](kube::VolumeSnapshotContent& c) {
      c.status = kube::VolumeSnapshotContentStatus{.creation_time = 1700000000'000000000,
                                                   .ready_to_use = ready};
    };
  };
  Have(Content(content_status(false)));
  const kube::VolumeSnapshot cached = Snapshot(WithFinalizers);
  ASSERT_TRUE(Sync(cached).ok());
  Have(Content(content_status(true)));
  api_.ClearCalls();

  ASSERT_TRUE(SyncFromCache(cached).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshotStatus("6", {{"readyToUse", true}})));
  EXPECT_THAT(events_.events(),
              ElementsAre(Normal("SnapshotCreated",
                                 "Snapshot default/snap-1 was successfully "
                                 "created by the CSI driver."),
                          Normal("SnapshotReady", "Snapshot default/snap-1 is ready to use.")));
}

// The cache caught up (or another writer moved on): the sync starts from it.
TEST_F(SnapshotSyncTest, ACacheAtAVersionOurWritesDidNotStartFromIsTakenAsItIs) {
  HaveSource();
  Have(Content([](auto& c) {
    c.status = kube::VolumeSnapshotContentStatus{.creation_time = 1700000000'000000000,
                                                 .ready_to_use = false};
  }));
  ASSERT_TRUE(Sync(Snapshot(WithFinalizers)).ok());
  api_.BumpResourceVersion<kube::VolumeSnapshot>("default", "snap-1");  // another writer: rv 7
  kube::VolumeSnapshot other = *api_.Stored<kube::VolumeSnapshot>("default", "snap-1");
  other.status.reset();  // and it lost the status
  api_.Put(other);
  api_.ClearCalls();

  ASSERT_TRUE(SyncFromCache(other).ok());

  ASSERT_FALSE(api_.calls().empty());
  EXPECT_EQ(api_.calls()[0], PatchSnapshotStatus(other.metadata.resource_version,
                                                 {{"boundVolumeSnapshotContentName", kContentName},
                                                  {"creationTime", "2023-11-14T22:13:20Z"},
                                                  {"readyToUse", false}}));
}

TEST_F(SnapshotSyncTest, AnUnreadySnapshotStartsBothCreateOperationsWithItsDriver) {
  HaveSource();
  ASSERT_TRUE(Sync(Snapshot()).ok());
  EXPECT_EQ(metrics_.InFlight(), 2u);

  // Recorded once the content reports the snapshot cut and ready.
  Have(Content([](auto& c) {
    c.status = kube::VolumeSnapshotContentStatus{.creation_time = 1700000000'000000000,
                                                 .ready_to_use = true};
  }));
  clock_.Advance(std::chrono::seconds(3));
  ASSERT_TRUE(sync_->Sync(*StoredSnapshot()).ok());

  EXPECT_EQ(metrics_.InFlight(), 0u);
  for (const char* operation : {"CreateSnapshot", "CreateSnapshotAndReady"}) {
    EXPECT_THAT(Metrics(), HasSubstr(std::string("snapshot_controller_operation_total_seconds_sum{"
                                                 "driver_name=\"csi.example.com\","
                                                 "operation_name=\"") +
                                     operation +
                                     "\",operation_status=\"success\","
                                     "snapshot_type=\"dynamic\"} 3\n"));
  }
}

}  // namespace
}  // namespace snapshot_controller::testing
