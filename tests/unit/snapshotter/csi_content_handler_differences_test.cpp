// docs/snapshots.md §9: where the handler deliberately differs from
// upstream, each over several syncs against the fake API server (whose copy
// of the content is what the next sync gets, as the informer would deliver
// it):
//   §9.1/§9.12 deletion decided again after every CreateSnapshot answer -
//             the #1388 sequence converges in the sync that gets the handle;
//   §9.2      an unready snapshot is kPollReadiness, never kDone or an error;
//   §9.4      no GET before writes, a 409 refreshes once, a poll that
//             changes nothing writes nothing, a stale finalizer list is
//             refused rather than overwritten;
//   §9.6      a failed create of a VolumeSnapshot being deleted is not
//             retried;
//   and input errors never leave the being-created annotation to block
//   deletion, and Secret data never reach the log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "snapshot/content_lane.h"
#include "snapshot/names.h"
#include "snapshotter/content_state.h"
#include "tests/unit/csi/fake_driver.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class CsiContentHandlerDifferences : public HandlerWorld {
 protected:
  // The user deletes the VolumeSnapshot: the controller marks the content,
  // then deletes it.
  void UserDeletesSnapshot() {
    kube::VolumeSnapshotContent stored = Stored();
    MarkDeleted(stored);
    api_.Put(stored);
  }
};

// §9.1, §6 category 10: CreateSnapshot times out twice, the content is
// deleted meanwhile, then the driver answers with a handle: that very sync
// records it, deletes it and lets the content go - no restart, no resync.
TEST_F(CsiContentHandlerDifferences, Issue1388SequenceDeletesTheSnapshotOnceTheDriverAnswers) {
  api_.Put(Content());
  driver_.SetScript(
      {.create = {kDeadline, kDeadline, Snapshot([](auto& s) { s.ready_to_use = false; })},
       .remove = {base::Status::Ok()}});

  // 1: times out; the annotation stays.
  auto first = Sync(Stored());
  ASSERT_FALSE(first.ok());
  EXPECT_TRUE(Stored().metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));

  // 2: deleted meanwhile; the annotation holds the deletion back, the
  // create is retried and times out again.
  UserDeletesSnapshot();
  auto second = Sync(Stored());
  ASSERT_FALSE(second.ok());
  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create()), CreateCall(Create())));
  EXPECT_TRUE(api_.Stored("content-1").has_value());

  // 3: the driver answers: status, annotation, DeleteSnapshot, finalizer -
  // in this one sync (ours is the last finalizer: no status clear, §9.4).
  api_.ClearCalls();
  driver_.ClearCalls();
  std::string rv = Stored().metadata.resource_version;
  auto third = Sync(Stored());
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(*third, SyncOutcome::kDone);
  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create()), DeleteCall(std::string(kHandle))));
  EXPECT_THAT(api_.calls(), ElementsAre(WriteStatus(rv, {{"snapshotHandle", kHandle},
                                                         {"creationTime", kCreated},
                                                         {"restoreSize", kGiB}}),
                                        kRemoveBeingCreated, RemoveFinalizer()));
  EXPECT_FALSE(api_.Stored("content-1").has_value());  // gone: nothing leaked, nothing stuck
}

// §9.12: the sync works on a cached copy that has not seen the deletion
// yet; the API server's answer to the status write has, and the same sync
// acts on it.
TEST_F(CsiContentHandlerDifferences, DeletionSeenInAWriteAnswerIsActedOnInTheSameSync) {
  kube::VolumeSnapshotContent cached = Content([](auto& c) {
    c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
    c.status = kube::VolumeSnapshotContentStatus{.ready_to_use = false};
  });
  kube::VolumeSnapshotContent server = cached;
  MarkDeleted(server);
  api_.Put(server);  // same resourceVersion: only the informer is late
  driver_.SetScript({.create = {Snapshot()}, .remove = {base::Status::Ok()}});

  auto outcome = Sync(cached);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create()), DeleteCall(std::string(kHandle))));
  EXPECT_FALSE(api_.Stored("content-1").has_value());
}

// §9.1: a final answer also releases the deletion it held back.
TEST_F(CsiContentHandlerDifferences, FinalErrorOnDeletedContentReleasesItInTheSameSync) {
  api_.Put(Content([](auto& c) {
    c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
    c.status = kube::VolumeSnapshotContentStatus{.ready_to_use = false};
    MarkDeleted(c);
  }));
  driver_.SetScript({.create = {kInvalidArgument}});

  auto outcome = Sync(Stored());
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(events_.events(),
              ElementsAre("SnapshotContentCheckandUpdateFailed content-1: Failed to check and "
                          "update snapshot content: " +
                          TakeFailed(kInvalidArgument)));
  EXPECT_FALSE(api_.Stored("content-1").has_value());
}

// §9.4: a snapshot ready at once, then deleted with policy Delete, costs the
// sidecar four writes and one of them to the status: the annotation, the
// status, the annotation's removal, then (after DeleteSnapshot) the removal
// of its finalizer, which deletes the content - no status clear before it.
TEST_F(CsiContentHandlerDifferences, OneSnapshotsLifeWritesTheContentStatusOnce) {
  api_.Put(Content());
  driver_.SetScript({.create = {Snapshot()}, .remove = {base::Status::Ok()}});

  auto created = Sync(Stored());
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(*created, SyncOutcome::kDone);
  UserDeletesSnapshot();
  auto deleted = Sync(Stored());
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  EXPECT_EQ(*deleted, SyncOutcome::kDone);

  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create()), DeleteCall(std::string(kHandle))));
  EXPECT_THAT(api_.calls(), ElementsAre(kAddBeingCreated, WriteStatus("11", ReadyStatusBody()),
                                        kRemoveBeingCreated, RemoveFinalizer()));
  EXPECT_FALSE(api_.Stored("content-1").has_value());
}

// §9.2: unready is polled at the readiness cadence, never kDone, never an error.
TEST_F(CsiContentHandlerDifferences, UnreadySnapshotIsPolledNeverDoneNorError) {
  api_.Put(Content());
  auto unready = Snapshot([](auto& s) { s.ready_to_use = false; });
  driver_.SetScript({.create = {unready, unready, Snapshot()}});

  for (int poll = 0; poll < 2; ++poll) {
    auto outcome = Sync(Stored());
    ASSERT_TRUE(outcome.ok()) << outcome.error().message;
    EXPECT_EQ(*outcome, SyncOutcome::kPollReadiness) << "poll " << poll;
  }
  auto ready = Sync(Stored());
  ASSERT_TRUE(ready.ok()) << ready.error().message;
  EXPECT_EQ(*ready, SyncOutcome::kDone);
  EXPECT_TRUE(snapshot::IsReady(Stored()));
}

// §9.4: polling a snapshot the status already names needs no annotation;
// an answer that changes nothing costs no write at all.
TEST_F(CsiContentHandlerDifferences, ReadinessPollThatChangesNothingWritesNothing) {
  kube::VolumeSnapshotContent polled = Content([](auto& c) {
    c.status = ReadyStatus();
    c.status->ready_to_use = false;
  });
  api_.Put(polled);
  driver_.SetScript({.create = {Snapshot([](auto& s) { s.ready_to_use = false; })}});

  auto outcome = Sync(polled);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kPollReadiness);
  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create())));
  EXPECT_THAT(api_.calls(), IsEmpty());
}

// §9.4: the status write carries the cached resourceVersion; a 409 reads the
// content once, computes the status again and writes it at once.
TEST_F(CsiContentHandlerDifferences, StatusConflictRefreshesOnceAndRetries) {
  kube::VolumeSnapshotContent polled = Content([](auto& c) {
    c.status = ReadyStatus();
    c.status->ready_to_use = false;
  });
  api_.Put(polled);
  api_.BumpResourceVersion("content-1");  // another writer: 10 -> 11
  driver_.SetScript({.create = {Snapshot()}});

  auto outcome = Sync(polled);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(api_.calls(),
              ElementsAre(WriteStatus("10", {{"readyToUse", true}}), GetContent("content-1"),
                          WriteStatus("11", {{"readyToUse", true}})));
  EXPECT_TRUE(snapshot::IsReady(Stored()));
}

TEST_F(CsiContentHandlerDifferences, StatusConflictWhoseRefreshNeedsNoChangeWritesNoMore) {
  kube::VolumeSnapshotContent polled = Content([](auto& c) {
    c.status = ReadyStatus();
    c.status->ready_to_use = false;
  });
  api_.Put(Content([](auto& c) {
    c.status = ReadyStatus();  // someone recorded it ready meanwhile
    c.metadata.resource_version = "11";
  }));
  driver_.SetScript({.create = {Snapshot()}});

  auto outcome = Sync(polled);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(api_.calls(),
              ElementsAre(WriteStatus("10", {{"readyToUse", true}}), GetContent("content-1")));
}

TEST_F(CsiContentHandlerDifferences, SecondStatusConflictIsAnError) {
  kube::VolumeSnapshotContent polled = Content([](auto& c) {
    c.status = ReadyStatus();
    c.status->ready_to_use = false;
  });
  FakeSnapshotApi api({{"patch", "volumesnapshotcontents", "status",
                        base::Error::Http(409, "the object has been modified"), 2}});
  api.Put(polled);
  driver_.SetScript({.create = {Snapshot()}});
  CsiContentHandler handler(classes_, api, driver_, events_, {}, clock_);

  auto outcome = handler.SyncContent(polled);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error().message,
            "error updating status for volume snapshot content content-1: snapshot controller "
            "failed to update content-1 on API server: the object has been modified");
  EXPECT_EQ(api.calls().size(), 4u);  // write, read, write; the error status write
  EXPECT_EQ(api.calls()[1], GetContent("content-1"));
}

// §9.4: the finalizer patch tests the entry it removes; another
// controller's finalizer added since the cache was filled is never lost.
TEST_F(CsiContentHandlerDifferences, StaleFinalizerListIsRefusedNotOverwritten) {
  kube::VolumeSnapshotContent cached = Content([](auto& c) {
    c.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
    MarkDeleted(c);
  });
  kube::VolumeSnapshotContent server = cached;
  server.metadata.finalizers.insert(server.metadata.finalizers.begin(), "other/finalizer");
  api_.Put(server);

  auto outcome = Sync(cached);
  ASSERT_FALSE(outcome.ok());
  EXPECT_TRUE(outcome.error().IsHttp(422)) << outcome.error().message;
  EXPECT_THAT(Stored().metadata.finalizers,
              ElementsAre("other/finalizer", std::string(snapshot::kContentFinalizer)));

  auto retried = Sync(Stored());  // the informer delivers the newer copy
  ASSERT_TRUE(retried.ok()) << retried.error().message;
  EXPECT_THAT(Stored().metadata.finalizers, ElementsAre("other/finalizer"));
}

// §9.6: a final error on a content whose VolumeSnapshot is being deleted
// (policy Retain: the content itself stays) is reported once and not retried.
TEST_F(CsiContentHandlerDifferences, FinalErrorForSnapshotBeingDeletedIsNotRetried) {
  api_.Put(Content([](auto& c) {
    c.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
    c.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  }));
  driver_.SetScript({.create = {kInvalidArgument}});

  auto outcome = Sync(Stored());
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(events_.events(),
              ElementsAre("SnapshotCreationFailed content-1: Failed to create snapshot: " +
                          TakeFailed(kInvalidArgument)));
  EXPECT_FALSE(Stored().metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));

  // Later syncs (a resync, an unrelated change) neither create nor report.
  api_.ClearCalls();
  for (int sync = 0; sync < 3; ++sync) {
    auto again = Sync(Stored());
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, SyncOutcome::kDone);
  }
  EXPECT_THAT(driver_.calls(), ElementsAre(CreateCall(Create())));
  EXPECT_THAT(api_.calls(), IsEmpty());
  EXPECT_EQ(events_.events().size(), 1u);
}

// §9.6 keeps §3.4's protection: a create that may still be running is
// retried until the driver gives a final answer, VolumeSnapshot gone or not.
TEST_F(CsiContentHandlerDifferences, TimeoutForSnapshotBeingDeletedIsStillRetried) {
  api_.Put(
      Content([](auto& c) { c.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes"; }));
  driver_.SetScript({.create = {kDeadline, kDeadline}});

  EXPECT_FALSE(Sync(Stored()).ok());
  EXPECT_FALSE(Sync(Stored()).ok());
  EXPECT_EQ(driver_.calls().size(), 2u);
  EXPECT_TRUE(Stored().metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));
}

// The reserved-parameter check runs before the annotation is added: upstream
// adds it first and leaves it, and the content can then never be deleted.
TEST_F(CsiContentHandlerDifferences, UnknownReservedParameterNeverBlocksDeletion) {
  classes_.Upsert(std::make_shared<const kube::VolumeSnapshotClass>(Class([](auto& c) {
    c.parameters = {{"csi.storage.k8s.io/bogus", "x"}};
  })));
  api_.Put(Content());

  EXPECT_FALSE(Sync(Stored()).ok());
  EXPECT_FALSE(Stored().metadata.annotations.contains(snapshot::kBeingCreatedAnnotation));
  UserDeletesSnapshot();
  auto deleted = Sync(Stored());
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  EXPECT_THAT(driver_.calls(), IsEmpty());
  EXPECT_FALSE(api_.Stored("content-1").has_value());
}

// A ready content whose annotation removal failed earlier: removing it now
// releases a deletion that was waiting for it (§9.1).
TEST_F(CsiContentHandlerDifferences, LeftoverAnnotationOnDeletedReadyContentReleasesDeletion) {
  api_.Put(Content([](auto& c) {
    c.status = ReadyStatus();
    c.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
    MarkDeleted(c);
  }));
  driver_.SetScript({.remove = {base::Status::Ok()}});

  auto outcome = Sync(Stored());
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  EXPECT_EQ(*outcome, SyncOutcome::kDone);
  EXPECT_THAT(driver_.calls(), ElementsAre(DeleteCall(std::string(kHandle))));
  EXPECT_FALSE(api_.Stored("content-1").has_value());
}

// Secret data go to the driver and nowhere else, whatever the outcome.
TEST_F(CsiContentHandlerDifferences, SecretDataNeverReachTheLog) {
  csi::testing::LogCapture logs(/*verbosity=*/10);
  auto with_secret = [](kube::VolumeSnapshotContent& c) {
    c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
    c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "ns";
  };
  api_.AddSecret(Secret("ns", "creds", {{"password", "hunter2"}}));
  api_.Put(Content(with_secret));
  driver_.SetScript({.create = {kDeadline, Snapshot()}, .remove = {kInvalidArgument}});

  EXPECT_FALSE(Sync(Stored()).ok());
  ASSERT_TRUE(Sync(Stored()).ok());
  kube::VolumeSnapshotContent deleted = Stored();
  MarkDeleted(deleted);
  api_.Put(deleted);
  EXPECT_FALSE(Sync(Stored()).ok());

  EXPECT_THAT(driver_.calls(), ::testing::Each(::testing::HasSubstr("hunter2")));
  EXPECT_FALSE(logs.lines().empty());
  EXPECT_THAT(logs.Grep("hunter2"), IsEmpty());
}

}  // namespace
}  // namespace snapshotter::testing
