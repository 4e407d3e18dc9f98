// docs/snapshots.md §3.4 step 1 (§6 category 3, the sidecar's delete
// matrix): dynamic and pre-provisioned contents × Delete/Retain × with and
// without class × group member. DeleteSnapshot only for policy Delete with a
// status handle and no group handle; the status is cleared before the
// finalizer goes only when another finalizer keeps the content (§9.4: when
// ours is the last, its removal deletes the content); a failure keeps the
// finalizer and reports SnapshotDeleteError with upstream's message.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "tests/unit/snapshotter/handler_fixtures.h"

namespace snapshotter::testing {
namespace {

// The status patch clearing what named the deleted snapshot.
const ApiCall kClearStatus = WriteStatus("10", {{"creationTime", nullptr},
                                                {"readyToUse", nullptr},
                                                {"restoreSize", nullptr},
                                                {"snapshotHandle", nullptr}});

// A ready dynamic content deleted together with its VolumeSnapshot.
kube::VolumeSnapshotContent Deleted(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = Content([](auto& c) {
    c.status = ReadyStatus();
    MarkDeleted(c);
  });
  return Edited(std::move(content), edit);
}

// A ready pre-provisioned content, bound, deleted with its VolumeSnapshot.
kube::VolumeSnapshotContent DeletedImported(const Edit<kube::VolumeSnapshotContent>& edit = {}) {
  kube::VolumeSnapshotContent content = ImportedContent([](auto& c) {
    c.spec.volume_snapshot_ref.uid = std::string(kUid);
    c.status = ReadyStatus();
    MarkDeleted(c);
  });
  return Edited(std::move(content), edit);
}

void Retain(kube::VolumeSnapshotContent& c) {
  c.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
}
void NoClass(kube::VolumeSnapshotContent& c) { c.spec.volume_snapshot_class_name.reset(); }
void GroupMember(kube::VolumeSnapshotContent& c) {
  c.metadata.annotations[snapshot::kGroupSnapshotHandleAnnotation] = "group-1";
  c.spec.volume_snapshot_class_name.reset();
  c.status->volume_group_snapshot_handle = "group-1";
}

// Another controller's finalizer keeps the content after ours goes.
void HeldByOther(kube::VolumeSnapshotContent& c) {
  c.metadata.finalizers = {"other/finalizer", std::string(snapshot::kContentFinalizer)};
}

void Gone(const std::optional<kube::VolumeSnapshotContent>& stored) { EXPECT_FALSE(stored); }
void KeepsFinalizer(const std::optional<kube::VolumeSnapshotContent>& stored) {
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->metadata.finalizers,
            std::vector<kube::InternedString>{std::string(snapshot::kContentFinalizer)});
}

class CsiContentHandlerDelete : public ::testing::TestWithParam<SyncCase> {};

TEST_P(CsiContentHandlerDelete, Sync) { RunSyncCase(GetParam()); }

std::vector<SyncCase> DeleteCases() {
  return {
      {.name = "DynamicDeleteWithClassDeletesSnapshotThenFinalizerWithoutClearingStatus",
       .content = Deleted(),
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored = Gone},
      {.name = "DynamicDeleteWithoutClass",
       .content = Deleted(NoClass),
       .classes = {},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored = Gone},
      {.name = "DynamicRetainWithClassOnlyRemovesFinalizer",
       .content = Deleted(Retain),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "DynamicRetainWithoutClassOnlyRemovesFinalizer",
       .content = Deleted([](auto& c) {
         Retain(c);
         NoClass(c);
       }),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "DynamicGroupMemberDeleteOnlyRemovesFinalizer",
       .content = Deleted(GroupMember),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "DynamicGroupMemberRetainOnlyRemovesFinalizer",
       .content = Deleted([](auto& c) {
         GroupMember(c);
         Retain(c);
       }),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "DynamicDeleteWithoutHandleOnlyRemovesFinalizer",
       .content = Deleted([](auto& c) { c.status.reset(); }),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "StaticDeleteWithoutClassDeletesSnapshot",
       .content = DeletedImported(),
       .classes = {},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored = Gone},
      {.name = "StaticDeleteWithClassDeletesSnapshot",
       .content = DeletedImported([](auto& c) { c.spec.volume_snapshot_class_name = "gold"; }),
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored = Gone},
      {.name = "StaticRetainWithoutClassOnlyRemovesFinalizer",
       .content = DeletedImported(Retain),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "StaticRetainWithClassOnlyRemovesFinalizer",
       .content = DeletedImported([](auto& c) {
         Retain(c);
         c.spec.volume_snapshot_class_name = "gold";
       }),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "StaticGroupMemberOnlyRemovesFinalizer",
       .content = DeletedImported([](auto& c) { c.status->volume_group_snapshot_handle = "g"; }),
       .want_api = {RemoveFinalizer()},
       .want_stored = Gone},
      {.name = "StaticUnboundDeletedWithoutBeingDeletedAnnotationDeletesSnapshot",
       .content = ImportedContent([](auto& c) {
         c.status = ReadyStatus();
         c.metadata.deletion_timestamp = std::string(kDeleted);
       }),
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored = Gone},
      {.name = "DeletedContentWhoseSnapshotLivesIsKept",
       .content = Content([](auto& c) {
         c.status = ReadyStatus();
         c.metadata.deletion_timestamp = std::string(kDeleted);
       }),
       .want_stored = KeepsFinalizer},
      {.name = "DeleteSecretsAreSent",
       .content = Deleted([](auto& c) {
         c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
         c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "ns";
       }),
       .secrets = {Secret("ns", "creds", {{"password", "hunter2"}})},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {GetSecret("ns", "creds"), RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle), {{"password", "hunter2"}})},
       .want_stored = Gone},
      {.name = "MissingDeleteSecretKeepsFinalizer",
       .content = Deleted([](auto& c) {
         c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "creds";
         c.metadata.annotations[snapshot::kDeletionSecretNamespaceAnnotation] = "ns";
       }),
       .want_api = {GetSecret("ns", "creds")},
       .want_events = {"SnapshotDeleteError content-1: Failed to get snapshot credentials"},
       .want_error = R"(failed to get input parameters to delete snapshot for content )"
                     R"(content-1: "cannot get credentials for snapshot content \"content-1\"")",
       .want_stored = KeepsFinalizer},
      {.name = "CsiErrorKeepsFinalizerAndStatus",
       .content = Deleted(),
       .driver = {.remove = {kInvalidArgument}},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_events = {"SnapshotDeleteError content-1: Failed to delete snapshot"},
       .want_error = R"(failed to delete snapshot "content-1", err: failed to delete snapshot )"
                     R"(content content-1: "rpc error: code = InvalidArgument desc = bad volume")",
       .want_stored =
           [](const auto& stored) {
             KeepsFinalizer(stored);
             EXPECT_EQ(stored->status, ReadyStatus());
           }},
      {.name = "DeleteOfContentHeldByAnotherFinalizerClearsStatusThenFinalizer",
       .content = Deleted(HeldByOther),
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {kClearStatus, RemoveFinalizer(1)},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->metadata.finalizers,
                       std::vector<kube::InternedString>{"other/finalizer"});
             EXPECT_FALSE(stored->status->snapshot_handle);
           }},
      {.name = "FailedStatusClearKeepsFinalizer",
       .content = Deleted(HeldByOther),
       .api_failures = {{"patch", "volumesnapshotcontents", "status", kBoom}},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {kClearStatus},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_events = {"SnapshotDeleteError content-1: Failed to clear content status"},
       .want_error = "snapshot controller failed to update content-1 on API server: boom",
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->metadata.finalizers,
                       (std::vector<kube::InternedString>{
                           "other/finalizer", std::string(snapshot::kContentFinalizer)}));
           }},
      {.name = "FailedFinalizerRemovalIsRetriedAfterStatusCleared",
       .content = Deleted(HeldByOther),
       .api_failures = {{"patch", "volumesnapshotcontents", "", kBoom}},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {kClearStatus, RemoveFinalizer(1)},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_error = "snapshot controller failed to update content-1 on API server: boom",
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_FALSE(stored->status->snapshot_handle);  // the next sync deletes nothing
           }},
      // The next sync sends DeleteSnapshot again, which the driver answers
      // OK for a snapshot that is gone.
      {.name = "FailedRemovalOfTheLastFinalizerKeepsTheHandleForTheNextSync",
       .content = Deleted(),
       .api_failures = {{"patch", "volumesnapshotcontents", "", kBoom}},
       .driver = {.remove = {base::Status::Ok()}},
       .want_api = {RemoveFinalizer()},
       .want_csi = {DeleteCall(std::string(kHandle))},
       .want_error = "snapshot controller failed to update content-1 on API server: boom",
       .want_stored =
           [](const auto& stored) {
             KeepsFinalizer(stored);
             EXPECT_EQ(stored->status, ReadyStatus());
           }},
      {.name = "FinalizerIsRemovedAtItsIndexAmongOthers",
       .content = Deleted([](auto& c) {
         Retain(c);
         c.metadata.finalizers = {"other/finalizer", std::string(snapshot::kContentFinalizer)};
       }),
       .want_api = {RemoveFinalizer(1)},
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->metadata.finalizers,
                       std::vector<kube::InternedString>{"other/finalizer"});
           }},
      {.name = "NoFinalizerNoWrite", .content = Deleted([](auto& c) {
                                       Retain(c);
                                       c.metadata.finalizers = {"other/finalizer"};
                                     })},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiContentHandlerDelete, ::testing::ValuesIn(DeleteCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace snapshotter::testing
