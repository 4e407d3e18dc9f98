// docs/snapshots.md §3.8 (deletion and pre-provisioned groups): a group
// content goes with DeleteVolumeGroupSnapshot (policy Delete and a status
// handle; the members' snapshot IDs from the info list, else from the
// imported source; credentials from the group deletion-secret annotations),
// then the finalizer removed, the status cleared first only when another
// finalizer keeps the content (§9.4); Retain, or no handle,
// only removes the finalizer; a failure keeps the finalizer and reports
// GroupSnapshotDeleteError with upstream's message. Deletion waits for the
// being-created annotation and is decided again after every create answer
// (§9.1); a create abandoned by its group's deletion is not retried (§9.6).
// An imported group is checked with GetVolumeGroupSnapshot (credentials from
// the class's group-snapshotter-get-secret-*) until ready.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "tests/unit/snapshotter/group_handler_fixtures.h"

namespace snapshotter::testing {
namespace {

// The status patch clearing what named the deleted group snapshot; the info
// list stays, as upstream's.
const ApiCall kClearGroupStatus = WriteGroupStatus(
    "10",
    {{"creationTime", nullptr}, {"readyToUse", nullptr}, {"volumeGroupSnapshotHandle", nullptr}});

kube::VolumeGroupSnapshotContentStatus ReadyGroupStatus() {
  return {.volume_group_snapshot_handle = std::string(kGroupHandle),
          .creation_time = std::string(kCreatedTime),
          .ready_to_use = true,
          .volume_snapshot_info_list = {Member(0), Member(1), Member(2)}};
}

// A ready dynamic group content deleted together with its group.
kube::VolumeGroupSnapshotContent DeletedGroup(
    const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  kube::VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.status = ReadyGroupStatus();
    MarkGroupDeleted(c);
  });
  return Edited(std::move(content), edit);
}

// Another controller's finalizer keeps the content after ours goes.
void GroupHeldByOther(kube::VolumeGroupSnapshotContent& c) {
  c.metadata.finalizers = {"other/finalizer", std::string(snapshot::kGroupContentFinalizer)};
}

void GroupGone(const std::optional<kube::VolumeGroupSnapshotContent>& stored) {
  EXPECT_FALSE(stored);
}
void GroupKeepsFinalizer(const std::optional<kube::VolumeGroupSnapshotContent>& stored) {
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->metadata.finalizers,
            std::vector<kube::InternedString>{std::string(snapshot::kGroupContentFinalizer)});
}

const std::string kDeleteFailed =
    R"(failed to delete group snapshot "group-content-1", err: )" + kInvalidArgument.message;
const std::string kCredentialsFailed =
    R"(failed to get input parameters to delete group snapshot for group snapshot content )"
    R"(group-content-1: "cannot get credentials for group snapshot content \"group-content-1\"")";
const std::string kGetFailed =
    R"(failed to list group snapshot for group snapshot content group-content-1: ")" +
    kDeadline.message + "\"";

// `c` deleted with its group snapshot, after the reads `c` expects:
// DeleteVolumeGroupSnapshot with `secrets`, the finalizer removed (the status
// is not cleared: the content goes with it), the content gone.
GroupSyncCase DeletesTheGroup(GroupSyncCase c, const Secrets& secrets = {}) {
  c.driver.remove = {base::Status::Ok()};
  c.want_api.insert(c.want_api.end(), {RemoveGroupFinalizer()});
  c.want_csi = {DeleteGroupCall(secrets)};
  c.want_outcome = SyncOutcome::kDone;
  c.want_stored = GroupGone;
  return c;
}

class CsiGroupContentHandlerDelete : public ::testing::TestWithParam<GroupSyncCase> {};

TEST_P(CsiGroupContentHandlerDelete, Sync) { RunSyncCase(GetParam()); }

std::vector<GroupSyncCase> GroupDeleteCases() {
  return {
      DeletesTheGroup(
          {.name = "DeleteRemovesGroupSnapshotThenFinalizer", .content = DeletedGroup()}),
      DeletesTheGroup({.name = "DeleteUsesTheGroupDeletionSecret",
                       .content = DeletedGroup([](auto& c) {
                         c.metadata.annotations[snapshot::kGroupDeletionSecretNameAnnotation] =
                             "creds";
                         c.metadata.annotations[snapshot::kGroupDeletionSecretNamespaceAnnotation] =
                             "ns";
                       }),
                       .secrets = {Secret("ns", "creds", {{"user", "u"}})},
                       .want_api = {GetSecret("ns", "creds")}},
                      {{"user", "u"}}),
      {.name = "RetainOnlyRemovesTheFinalizer",
       .content = DeletedGroup(
           [](auto& c) { c.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain); }),
       .want_api = {RemoveGroupFinalizer()},
       .want_outcome = SyncOutcome::kDone,
       .want_stored = GroupGone},
      {.name = "NoHandleOnlyRemovesTheFinalizer",
       .content = GroupContent(MarkGroupDeleted),
       .want_api = {RemoveGroupFinalizer()},
       .want_outcome = SyncOutcome::kDone,
       .want_stored = GroupGone},
      // Unbound: it goes at once, with the source's member IDs.
      DeletesTheGroup({.name = "ImportedGroupIsDeletedWithItsSourceSnapshotIds",
                       .content = ImportedGroupContent([](auto& c) {
                         c.status = ReadyGroupStatus();
                         c.status->volume_snapshot_info_list.clear();
                         c.metadata.deletion_timestamp = std::string(kDeleted);
                       })}),
      GroupSyncCase{
          .name = "DriverErrorKeepsTheFinalizer",
          .content = DeletedGroup(),
          .driver = {.remove = {kInvalidArgument}},
          .want_csi = {DeleteGroupCall()},
          .want_events =
              {"GroupSnapshotDeleteError group-content-1: Failed to delete group snapshot"},
          .want_error = kDeleteFailed,
          .want_stored = GroupKeepsFinalizer},
      GroupSyncCase{
          .name = "MissingSecretKeepsTheFinalizer",
          .content = DeletedGroup([](auto& c) {
            c.metadata.annotations[snapshot::kGroupDeletionSecretNameAnnotation] = "creds";
            c.metadata.annotations[snapshot::kGroupDeletionSecretNamespaceAnnotation] = "ns";
          }),
          .want_api = {GetSecret("ns", "creds")},
          .want_events = {"GroupSnapshotDeleteError group-content-1: Failed to get snapshot "
                          "credentials"},
          .want_error = kCredentialsFailed,
          .want_stored = GroupKeepsFinalizer},
      GroupSyncCase{.name = "ContentHeldByAnotherFinalizerHasItsStatusClearedFirst",
                    .content = DeletedGroup(GroupHeldByOther),
                    .driver = {.remove = {base::Status::Ok()}},
                    .want_api = {kClearGroupStatus, RemoveGroupFinalizer(1)},
                    .want_csi = {DeleteGroupCall()},
                    .want_outcome = SyncOutcome::kDone,
                    .want_stored =
                        [](const auto& stored) {
                          ASSERT_TRUE(stored);
                          EXPECT_EQ(stored->metadata.finalizers,
                                    std::vector<kube::InternedString>{"other/finalizer"});
                          EXPECT_FALSE(stored->status->volume_group_snapshot_handle);
                        }},
      GroupSyncCase{
          .name = "StatusClearFailureKeepsTheFinalizer",
          .content = DeletedGroup(GroupHeldByOther),
          .api_failures = {{.verb = "patch",
                            .resource = "volumegroupsnapshotcontents",
                            .subresource = "status",
                            .error = kBoom}},
          .driver = {.remove = {base::Status::Ok()}},
          .want_api = {kClearGroupStatus},
          .want_csi = {DeleteGroupCall()},
          .want_events =
              {"GroupSnapshotDeleteError group-content-1: Failed to clear content status"},
          .want_error = "snapshot controller failed to update group-content-1 on API server: boom",
          .want_stored =
              [](const auto& stored) {
                ASSERT_TRUE(stored);
                EXPECT_EQ(stored->metadata.finalizers,
                          (std::vector<kube::InternedString>{
                              "other/finalizer", std::string(snapshot::kGroupContentFinalizer)}));
              }},
      {.name = "GroupAliveKeepsTheContent",
       .content = GroupContent([](auto& c) {
         c.status = ReadyGroupStatus();
         c.metadata.deletion_timestamp = std::string(kDeleted);
       }),
       .want_outcome = SyncOutcome::kDone,
       .want_stored = GroupKeepsFinalizer},
      // §9.1: the annotation holds deletion until the driver answers; then,
      // in the same sync, the group snapshot it made is deleted.
      GroupSyncCase{.name = "DeletionWaitsForTheCreateAnswerThenDeletes",
                    .content = GroupContent([](auto& c) {
                      MarkGroupDeleted(c);
                      c.metadata.annotations[snapshot::kGroupBeingCreatedAnnotation] = "yes";
                    }),
                    .driver = {.create = {Group()}, .remove = {base::Status::Ok()}},
                    .want_api = {WriteGroupStatus("10", GroupStatusBody()),
                                 kRemoveGroupBeingCreated, RemoveGroupFinalizer()},
                    .want_csi = {CreateGroupCall(CreateGroup()), DeleteGroupCall()},
                    .want_outcome = SyncOutcome::kDone,
                    .want_stored = GroupGone},
      // §9.6: a final create error after the group went is not retried.
      {.name = "AbandonedCreateIsNotRetried",
       .content = GroupContent([](auto& c) {
         c.metadata.annotations[snapshot::kGroupBeingDeletedAnnotation] = "yes";
         c.status = kube::VolumeGroupSnapshotContentStatus{
             .ready_to_use = false,
             .error = kube::VolumeSnapshotError{.time = "2023-11-14T22:10:00Z",
                                                .message = "Failed to create group snapshot: x"}};
       }),
       .want_outcome = SyncOutcome::kDone},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiGroupContentHandlerDelete,
                         ::testing::ValuesIn(GroupDeleteCases()),
                         [](const auto& info) { return info.param.name; });

class CsiGroupContentHandlerImported : public ::testing::TestWithParam<GroupSyncCase> {};

TEST_P(CsiGroupContentHandlerImported, Sync) { RunSyncCase(GetParam()); }

std::vector<GroupSyncCase> GroupImportedCases() {
  return {
      GroupSyncCase{
          .name = "ReadyGroupGetsItsStatusWithoutMembers",
          .content = ImportedGroupContent(),
          .driver = {.get = {Group()}},
          .want_api = {WriteGroupStatus("10", {{"volumeGroupSnapshotHandle", kGroupHandle},
                                               {"creationTime", kCreatedTime},
                                               {"readyToUse", true}})},
          .want_csi = {GetGroupCall()},
          .want_outcome = SyncOutcome::kDone},
      GroupSyncCase{
          .name = "UnreadyGroupIsPolled",
          .content = ImportedGroupContent(),
          .driver = {.get = {Group([](auto& g) { g.ready_to_use = false; })}},
          .want_api = {WriteGroupStatus("10", {{"volumeGroupSnapshotHandle", kGroupHandle},
                                               {"creationTime", kCreatedTime},
                                               {"readyToUse", false}})},
          .want_csi = {GetGroupCall()},
          .want_outcome = SyncOutcome::kPollReadiness},
      GroupSyncCase{
          .name = "CredentialsComeFromTheClassGetSecret",
          .content = ImportedGroupContent(
              [](auto& c) { c.spec.volume_group_snapshot_class_name = "group-gold"; }),
          .classes = {GroupClass([](auto& c) {
            c.parameters = {{std::string(snapshot::kGroupSnapshotterGetSecretNameKey),
                             "${volumegroupsnapshotcontent.name}"},
                            {std::string(snapshot::kGroupSnapshotterGetSecretNamespaceKey), "ns"}};
          })},
          .secrets = {Secret("ns", "group-content-1", {{"user", "u"}})},
          .driver = {.get = {Group()}},
          .want_api = {GetSecret("ns", "group-content-1"),
                       WriteGroupStatus("10", {{"volumeGroupSnapshotHandle", kGroupHandle},
                                               {"creationTime", kCreatedTime},
                                               {"readyToUse", true}})},
          .want_csi = {GetGroupCall({{"user", "u"}})},
          .want_outcome = SyncOutcome::kDone},
      GroupSyncCase{
          .name = "DriverErrorIsCheckAndUpdateFailed",
          .content = ImportedGroupContent(),
          .driver = {.get = {kDeadline}},
          .want_api = {WriteGroupStatus(
              "10",
              ErrorStatusBody("Failed to check and update group snapshot content: " + kGetFailed))},
          .want_csi = {GetGroupCall()},
          .want_events = {"GroupSnapshotContentCheckandUpdateFailed group-content-1: Failed to "
                          "check and update group snapshot content: " +
                          kGetFailed},
          .want_error = kGetFailed},
      GroupSyncCase{
          .name = "MissingClassIsCheckAndUpdateFailed",
          .content = ImportedGroupContent(
              [](auto& c) { c.spec.volume_group_snapshot_class_name = "absent"; }),
          .want_api = {WriteGroupStatus(
              "10", ErrorStatusBody(
                        "Failed to check and update group snapshot content: failed to get group "
                        "snapshot class absent for group snapshot content group-content-1: "
                        R"(volumegroupsnapshotclass.groupsnapshot.storage.k8s.io "absent" not )"
                        "found"))},
          .want_events = {"GroupSnapshotContentCheckandUpdateFailed group-content-1: Failed to "
                          "check and update group snapshot content: failed to get group snapshot "
                          "class absent for group snapshot content group-content-1: "
                          R"(volumegroupsnapshotclass.groupsnapshot.storage.k8s.io "absent" not )"
                          "found"},
          .want_error = "failed to get group snapshot class absent for group snapshot content "
                        "group-content-1: "
                        R"(volumegroupsnapshotclass.groupsnapshot.storage.k8s.io "absent" not )"
                        "found"},
      {.name = "ReadyImportedGroupIsLeftAlone",
       .content = ImportedGroupContent([](auto& c) {
         c.status = ReadyGroupStatus();
         c.status->volume_snapshot_info_list.clear();
       }),
       .want_outcome = SyncOutcome::kDone},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiGroupContentHandlerImported,
                         ::testing::ValuesIn(GroupImportedCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace snapshotter::testing
