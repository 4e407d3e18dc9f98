// ClaimFinalizer (docs/snapshots.md §4.3 step 1 and createSnapshotContent
// step 1, §4.5 step 6): the pvc-as-source-protection finalizer added and
// removed by whole-claim Updates, retried from a fresh read on a conflict.
#include "snapshot_controller/claim_finalizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/snapshot_controller/fakes.h"
#include "tests/unit/snapshot_controller/objects.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

const std::string kFinalizer(kClaimAsSourceFinalizer);
const std::string kClaimKey = "default/claim-1";

void Protect(kube::PersistentVolumeClaim& claim) {
  claim.metadata.finalizers.push_back(kFinalizer);
}

kube::VolumeSnapshot Ready(kube::VolumeSnapshot snapshot) {
  snapshot.status = kube::VolumeSnapshotStatus{.ready_to_use = true};
  return snapshot;
}

class ClaimFinalizerTest : public ::testing::Test {
 protected:
  // The claim as both the cache and the API server hold it.
  void Have(const kube::PersistentVolumeClaim& claim) {
    caches_.Add(claim);
    api_.Put(claim);
  }
  std::vector<kube::InternedString> StoredFinalizers() {
    auto stored = api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1");
    return stored ? stored->metadata.finalizers : std::vector<kube::InternedString>{"<gone>"};
  }

  FakeCaches caches_;
  FakeControllerApi api_;
  ClaimFinalizer finalizer_{api_, caches_.caches()};
};

TEST_F(ClaimFinalizerTest, AddAppendsTheFinalizerByUpdatingAFreshReadOfTheClaim) {
  Have(Claim([](auto& c) { c.metadata.finalizers = {"kubernetes.io/pvc-protection"}; }));

  ASSERT_TRUE(finalizer_.Add(Snapshot()).ok());

  auto want = Claim([](auto& c) {
    c.metadata.finalizers = {"kubernetes.io/pvc-protection", kFinalizer};
  });
  EXPECT_THAT(api_.calls(), ElementsAre(GetCall(kClaims, kClaimKey), UpdateCall(kClaims, want)));
  EXPECT_THAT(StoredFinalizers(), ElementsAre("kubernetes.io/pvc-protection", kFinalizer));
}

TEST_F(ClaimFinalizerTest, AddKeepsAFinalizerThatIsThereWithoutWriting) {
  Have(Claim(Protect));
  ASSERT_TRUE(finalizer_.Add(Snapshot()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, AddRefusesAClaimBeingDeletedWithUpstreamsMessage) {
  Have(Claim([](auto& c) { c.metadata.deletion_timestamp = "2024-01-01T00:00:00Z"; }));

  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message,
            "snapshot controller failed to update claim-1 on API server: cannot add finalizer on "
            "claim because it is being deleted");
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, AddFailsForAClaimMissingFromTheCache) {
  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message,
            "snapshot controller failed to update snap-1 on API server: cannot get claim from "
            "snapshot");
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, AddDoesNothingForAPreProvisionedSnapshot) {
  ASSERT_TRUE(finalizer_.Add(ImportingSnapshot()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

// A cache behind the server (the claim was just bound or labelled) causes no
// conflict: the write starts from the fresh read and keeps the other
// writer's change.
TEST_F(ClaimFinalizerTest, AddWritesFromAFreshReadSoALaggingCacheCausesNoConflict) {
  caches_.Add(Claim());  // resourceVersion 20, behind the server
  api_.Put(Claim([](auto& c) {
    c.metadata.resource_version = "21";
    c.metadata.labels = {{"team", "a"}};
  }));

  ASSERT_TRUE(finalizer_.Add(Snapshot()).ok());

  auto fresh = Claim([](auto& c) {
    c.metadata.resource_version = "21";
    c.metadata.labels = {{"team", "a"}};
    Protect(c);
  });
  EXPECT_THAT(api_.calls(), ElementsAre(GetCall(kClaims, kClaimKey), UpdateCall(kClaims, fresh)));
  auto stored = api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->metadata.labels, (kube::StringMap{{"team", "a"}}));
  EXPECT_THAT(stored->metadata.finalizers, ElementsAre(kFinalizer));
}

TEST_F(ClaimFinalizerTest, AddGivesUpAfterFiveConflictingUpdates) {
  Have(Claim());
  api_.Fail({"update", "persistentvolumeclaims", "", base::Error::Http(409, "conflict")});

  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message,
            "snapshot controller failed to update claim-1 on API server: conflict");
  std::vector<ApiCall> want;
  for (int i = 0; i < 5; ++i) {
    want.push_back(GetCall(kClaims, kClaimKey));
    want.push_back(UpdateCall(kClaims, Claim(Protect)));
  }
  EXPECT_EQ(api_.calls(), want);
}

TEST_F(ClaimFinalizerTest, AddDoesNotRetryAnotherError) {
  Have(Claim());
  api_.Fail({"update", "persistentvolumeclaims", "", base::Error::Http(500, "etcd down")});

  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_EQ(added.error().message,
            "snapshot controller failed to update claim-1 on API server: etcd down");
  EXPECT_TRUE(added.error().IsHttp(500));
  EXPECT_THAT(api_.calls(),
              ElementsAre(GetCall(kClaims, kClaimKey), UpdateCall(kClaims, Claim(Protect))));
}

TEST_F(ClaimFinalizerTest, AddStopsWhenTheFreshClaimIsBeingDeleted) {
  caches_.Add(Claim());
  api_.Put(Claim([](auto& c) {
    c.metadata.resource_version = "21";
    c.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    c.metadata.finalizers = {"kubernetes.io/pvc-protection"};
  }));

  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_THAT(added.error().message, ::testing::HasSubstr("because it is being deleted"));
  EXPECT_THAT(api_.calls(), ElementsAre(GetCall(kClaims, kClaimKey)));
}

TEST_F(ClaimFinalizerTest, AddFailsWhenTheClaimIsGoneFromTheServer) {
  caches_.Add(Claim());

  auto added = finalizer_.Add(Snapshot());

  ASSERT_FALSE(added.ok());
  EXPECT_TRUE(added.error().IsHttp(404));
  EXPECT_EQ(added.error().message,
            "snapshot controller failed to update claim-1 on API server: persistentvolumeclaims "
            "\"claim-1\" not found");
}

TEST_F(ClaimFinalizerTest, RemoveIfUnusedDropsOnlyOurFinalizer) {
  Have(Claim([](auto& c) { c.metadata.finalizers = {"a", kFinalizer, "b"}; }));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());

  auto want = Claim([](auto& c) { c.metadata.finalizers = {"a", "b"}; });
  EXPECT_THAT(api_.calls(), ElementsAre(UpdateCall(kClaims, want)));
  EXPECT_THAT(StoredFinalizers(), ElementsAre("a", "b"));
}

TEST_F(ClaimFinalizerTest, RemoveIfUnusedKeepsItWhileAnotherUnreadySnapshotTakesTheClaim) {
  Have(Claim(Protect));
  caches_.Add(Snapshot([](auto& s) { s.metadata.name = "snap-2"; }));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, RemoveIfUnusedIgnoresReadyOtherNamespaceAndPreProvisionedSnapshots) {
  Have(Claim(Protect));
  caches_.Add(Ready(Snapshot([](auto& s) { s.metadata.name = "snap-ready"; })));
  caches_.Add(Snapshot([](auto& s) {
    s.metadata.name = "snap-elsewhere";
    s.metadata.namespace_ = "other";
  }));
  caches_.Add(ImportingSnapshot([](auto& s) { s.metadata.name = "snap-imported"; }));
  caches_.Add(Snapshot([](auto& s) {
    s.metadata.name = "snap-of-another-claim";
    s.spec.source.persistent_volume_claim_name = "claim-2";
  }));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  EXPECT_THAT(StoredFinalizers(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, RemoveIfUnusedDoesNotCountTheSnapshotItself) {
  Have(Claim(Protect));
  caches_.Add(Snapshot());  // unready, as the deletion flow sees it

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  EXPECT_THAT(StoredFinalizers(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, RemoveIfNoUnreadySnapshotKeepsItWhileTheSnapshotItselfIsUnready) {
  Have(Claim(Protect));
  caches_.Add(Snapshot());

  ASSERT_TRUE(finalizer_.RemoveIfNoUnreadySnapshot(Snapshot()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());

  ASSERT_TRUE(finalizer_.RemoveIfNoUnreadySnapshot(Ready(Snapshot())).ok());
  EXPECT_THAT(StoredFinalizers(), IsEmpty());
}

// §9.14: a snapshot can turn ready before the cache shows the finalizer our
// own update added (its watch event late, or lost with a restarting API
// server); the removal goes by that update's answer.
TEST_F(ClaimFinalizerTest, RemoveGoesByOurOwnAdditionWhileTheCacheLagsBehindIt) {
  Have(Claim());
  ASSERT_TRUE(finalizer_.Add(Snapshot()).ok());  // the cache does not follow
  ASSERT_THAT(StoredFinalizers(), ElementsAre(kFinalizer));

  ASSERT_TRUE(finalizer_.RemoveIfNoUnreadySnapshot(Ready(Snapshot())).ok());
  EXPECT_THAT(StoredFinalizers(), IsEmpty());
}

// §9.14: when another writer released the claim after our addition, going
// by our answer costs one conflicting update and a fresh read, nothing more.
TEST_F(ClaimFinalizerTest, RemoveByOurOwnAdditionStopsAtAConflictWhenAnotherWriterReleasedIt) {
  Have(Claim());
  ASSERT_TRUE(finalizer_.Add(Snapshot()).ok());
  api_.Put(Claim([](auto& c) { c.metadata.finalizers = {"other"}; }));
  api_.ClearCalls();

  ASSERT_TRUE(finalizer_.RemoveIfNoUnreadySnapshot(Ready(Snapshot())).ok());
  EXPECT_THAT(StoredFinalizers(), ElementsAre("other"));
  ASSERT_EQ(api_.calls().size(), 2u);
  EXPECT_EQ(api_.calls()[1], GetCall(kClaims, kClaimKey));
}

TEST_F(ClaimFinalizerTest,
       RemoveDoesNothingForAMissingClaimAClaimWithoutItOrAPreProvisionedSnapshot) {
  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  Have(Claim());
  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  ASSERT_TRUE(finalizer_.RemoveIfUnused(ImportingSnapshot()).ok());
  EXPECT_THAT(api_.calls(), IsEmpty());
}

TEST_F(ClaimFinalizerTest, RemoveAfterAConflictStopsWhenTheFreshClaimNoLongerHasIt) {
  caches_.Add(Claim(Protect));
  api_.Put(Claim([](auto& c) { c.metadata.resource_version = "21"; }));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(UpdateCall(kClaims, Claim()), GetCall(kClaims, kClaimKey)));
}

TEST_F(ClaimFinalizerTest, RemoveSucceedsWhenTheClaimIsGoneFromTheServer) {
  caches_.Add(Claim(Protect));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(UpdateCall(kClaims, Claim())));
}

TEST_F(ClaimFinalizerTest, RemoveAfterAConflictSucceedsWhenTheClaimIsGone) {
  caches_.Add(Claim(Protect));
  api_.Fail({"update", "persistentvolumeclaims", "", base::Error::Http(409, "conflict"), 1});

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());

  EXPECT_THAT(api_.calls(), ElementsAre(UpdateCall(kClaims, Claim()), GetCall(kClaims, kClaimKey)));
}

TEST_F(ClaimFinalizerTest, RemovingTheLastFinalizerOfAClaimBeingDeletedLetsItGo) {
  Have(Claim([](auto& c) {
    c.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    Protect(c);
  }));

  ASSERT_TRUE(finalizer_.RemoveIfUnused(Snapshot()).ok());
  EXPECT_FALSE(api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1"));
}

}  // namespace
}  // namespace snapshot_controller::testing
