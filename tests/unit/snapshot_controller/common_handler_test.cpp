// CommonHandler (docs/snapshots.md §4.3 step 1, §4.5, §4.6): how the parts
// are composed, and the DeleteSnapshot operation a snapshot's deletion starts
// and its leaving the cache ends (with its pending creates as cancel).
#include "snapshot_controller/common_handler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/unit/snapshot_controller/handler_fixture.h"

namespace snapshot_controller::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using namespace nlohmann::literals;

kube::VolumeSnapshot DeletingUnboundSnapshot() {
  return Snapshot([](kube::VolumeSnapshot& s) {
    s.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    s.metadata.finalizers = {kAsSource};
  });
}

// The sample of one DeleteSnapshot-or-create observation count.
std::string CountSample(std::string_view driver, std::string_view operation,
                        std::string_view status) {
  return "snapshot_controller_operation_total_seconds_count{driver_name=\"" + std::string(driver) +
         "\",operation_name=\"" + std::string(operation) + "\",operation_status=\"" +
         std::string(status) + "\",snapshot_type=\"dynamic\"} 1\n";
}

class CommonHandlerTest : public HandlerTest {
 protected:
  CommonHandler handler_{api_, caches_.caches(), events_, metrics_, HandlerOptions{}, clock_};
};

TEST_F(CommonHandlerTest, SnapshotBeingDeletedIsDeletedNotSynced) {
  Have(Class());
  Have(Claim());
  Have(DeletingUnboundSnapshot());

  ASSERT_TRUE(handler_.SyncSnapshot(Decoded(DeletingUnboundSnapshot())).ok());

  // No content, so the deletion removes the finalizer; a sync would not.
  EXPECT_THAT(api_.calls(), ElementsAre(PatchSnapshot(R"([
      {"op": "test", "path": "/metadata/finalizers/0",
       "value": "snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection"},
      {"op": "remove", "path": "/metadata/finalizers/0"}])"_json)));
  EXPECT_FALSE(StoredSnapshot());
}

// §4.3 step 1 and §9.14: the claim step failing (here a PUT cut off with the
// API server) does not stop the sync, but fails it once the rest is done, so
// the snapshot comes back until the claim is let go of.
TEST_F(CommonHandlerTest, ClaimStepFailureFailsTheSyncSoTheSnapshotIsRetriedUntilTheClaimIsFree) {
  Have(Claim([](kube::PersistentVolumeClaim& c) {
    c.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)};
  }));
  Have(Volume());
  Have(Class());
  Have(Content([](kube::VolumeSnapshotContent& c) {
    c.status = kube::VolumeSnapshotContentStatus{.snapshot_handle = "backend-snap-1",
                                                 .restore_size = int64_t{1} << 30,
                                                 .ready_to_use = true};
  }));
  const kube::VolumeSnapshot ready = Snapshot([](kube::VolumeSnapshot& s) {
    s.metadata.finalizers = {kAsSource, kBound};
    s.status = kube::VolumeSnapshotStatus{.bound_volume_snapshot_content_name = kContentName,
                                          .ready_to_use = true};
  });
  Have(ready);
  api_.Fail({"update", "persistentvolumeclaims", "",
             base::Error::Transport("TLS read: connection lost"), /*times=*/1});

  base::Status first = handler_.SyncSnapshot(Decoded(ready));

  ASSERT_FALSE(first.ok());
  EXPECT_THAT(first.error().message, HasSubstr("connection lost"));
  EXPECT_THAT(events_.events(),
              Contains(Warning("ErrorPVCFinalizer",
                               "Error check and remove PVC Finalizer for VolumeSnapshot")));
  auto held = api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1");
  ASSERT_TRUE(held);
  EXPECT_FALSE(held->metadata.finalizers.empty());

  ASSERT_TRUE(handler_.SyncSnapshot(Decoded(ready)).ok());
  auto released = api_.Stored<kube::PersistentVolumeClaim>("default", "claim-1");
  ASSERT_TRUE(released);
  EXPECT_THAT(released->metadata.finalizers, IsEmpty());
}

TEST_F(CommonHandlerTest, SnapshotDeletedRecordsTheDeleteAndCancelsPendingCreates) {
  Have(Class());
  Have(Claim());
  // A create the sidecar never finished, as SnapshotSync started it.
  metrics_.Start(kCreateSnapshotAndReadyOperation, kSnapshotUid, kDriver, SnapshotType::kDynamic);
  Have(DeletingUnboundSnapshot());
  ASSERT_TRUE(handler_.SyncSnapshot(Decoded(DeletingUnboundSnapshot())).ok());
  EXPECT_EQ(metrics_.InFlight(), 2u);

  clock_.Advance(std::chrono::seconds(1));
  handler_.SnapshotDeleted(Decoded(DeletingUnboundSnapshot()));

  EXPECT_EQ(metrics_.InFlight(), 0u);
  const std::string text = Metrics();
  EXPECT_THAT(text, HasSubstr(CountSample(kDriver, "DeleteSnapshot", "success")));
  EXPECT_THAT(text, HasSubstr(CountSample(kDriver, "CreateSnapshotAndReady", "cancel")));
}

TEST_F(CommonHandlerTest, SnapshotDeletedWhoseDriverNoCacheKnowsKeepsTheStartedDriver) {
  // The class is gone: the deletion starts with "unknown", and the record
  // still ends the operation, as upstream's.
  Have(Claim());
  Have(DeletingUnboundSnapshot());
  ASSERT_TRUE(handler_.SyncSnapshot(Decoded(DeletingUnboundSnapshot())).ok());

  handler_.SnapshotDeleted(Decoded(DeletingUnboundSnapshot()));

  EXPECT_EQ(metrics_.InFlight(), 0u);
  EXPECT_THAT(Metrics(), HasSubstr(CountSample("unknown", "DeleteSnapshot", "success")));
}

TEST_F(CommonHandlerTest, SnapshotDeletedWithoutADeletionStartedRecordsNothing) {
  Have(Class());
  handler_.SnapshotDeleted(Decoded(Snapshot()));
  EXPECT_THAT(Metrics(), Not(HasSubstr("snapshot_controller_operation_total_seconds_count")));
  EXPECT_THAT(events_.events(), IsEmpty());
}

}  // namespace
}  // namespace snapshot_controller::testing
