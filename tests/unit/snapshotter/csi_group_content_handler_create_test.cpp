// docs/snapshots.md §3.8 (create): a dynamic VolumeGroupSnapshotContent is
// created step by step - class, Secret, parameters, being-created
// annotation, CreateVolumeGroupSnapshot with the volume handles, status with
// one volumeSnapshotInfoList entry per member, annotation removed - with the
// exact API writes and CSI request; an unready group is created again until
// ready (upstream's poll, at our readiness cadence, §9.2) and its info list
// follows every answer (§9.11); failures save status.error and report
// GroupSnapshotCreationFailed or GroupSnapshotContentCheckandUpdateFailed;
// the annotation stays on non-final errors and goes on final ones.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "snapshotter/names.h"
#include "tests/unit/snapshotter/group_handler_fixtures.h"

namespace snapshotter::testing {
namespace {

// The group content after a first create that was not ready yet.
kube::VolumeGroupSnapshotContent UnreadyGroupContent(
    const Edit<kube::VolumeGroupSnapshotContent>& edit = {}) {
  kube::VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.status = kube::VolumeGroupSnapshotContentStatus{
        .volume_group_snapshot_handle = std::string(kGroupHandle),
        .creation_time = std::string(kCreatedTime),
        .ready_to_use = false,
        .volume_snapshot_info_list = {Member(0, false), Member(1, false), Member(2, false)}};
  });
  return Edited(std::move(content), edit);
}

void WithGroupSecretAnnotations(kube::VolumeGroupSnapshotContent& c) {
  c.metadata.annotations[snapshot::kGroupDeletionSecretNameAnnotation] = "creds";
  c.metadata.annotations[snapshot::kGroupDeletionSecretNamespaceAnnotation] = "ns";
}

const std::string kFirstFailure = "Failed to create group snapshot: ";
const std::string kLaterFailure = "Failed to check and update group snapshot content: ";

// `c`, a first create failing with `error` before the driver is asked: the
// error saved on the status (after the reads `c` expects) and reported as
// GroupSnapshotCreationFailed; no annotation, no CSI call.
GroupSyncCase FailsBeforeTheDriver(GroupSyncCase c, const std::string& error) {
  c.want_api.push_back(WriteGroupStatus("10", ErrorStatusBody(kFirstFailure + error)));
  c.want_events = {"GroupSnapshotCreationFailed group-content-1: " + kFirstFailure + error};
  c.want_error = error;
  return c;
}

class CsiGroupContentHandlerCreate : public ::testing::TestWithParam<GroupSyncCase> {};

TEST_P(CsiGroupContentHandlerCreate, Sync) { RunSyncCase(GetParam()); }

std::vector<GroupSyncCase> GroupCreateCases() {
  return {
      {.name = "ReadyAtOnceWritesStatusWithEveryMemberThenRemovesAnnotation",
       .content = GroupContent(),
       .driver = {.create = {Group()}},
       .want_api = {kAddGroupBeingCreated, WriteGroupStatus("11", GroupStatusBody()),
                    kRemoveGroupBeingCreated},
       .want_csi = {CreateGroupCall(CreateGroup())},
       .want_outcome = SyncOutcome::kDone,
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             ASSERT_TRUE(stored->status);
             EXPECT_EQ(stored->status->volume_snapshot_info_list.size(), 3u);
             EXPECT_FALSE(
                 stored->metadata.annotations.contains(snapshot::kGroupBeingCreatedAnnotation));
           }},
      GroupSyncCase{
          .name = "UnreadyIsPolledForReadiness",
          .content = GroupContent(),
          .driver = {.create = {Group([](auto& g) {
                       g.ready_to_use = false;
                       for (auto& m : g.members) m.ready_to_use = false;
                     })}},
          .want_api = {kAddGroupBeingCreated, WriteGroupStatus("11", GroupStatusBody(false)),
                       kRemoveGroupBeingCreated},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_outcome = SyncOutcome::kPollReadiness},
      // A poll of a group the status names: no annotation, only what changed.
      GroupSyncCase{
          .name = "PollTurningReadyMarksGroupAndEveryMemberReady",
          .content = UnreadyGroupContent(),
          .driver = {.create = {Group()}},
          .want_api = {WriteGroupStatus(
              "10", {{"readyToUse", true},
                     {"volumeSnapshotInfoList", {MemberBody(0), MemberBody(1), MemberBody(2)}}})},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_outcome = SyncOutcome::kDone},
      {.name = "UnchangedPollWritesNothing",
       .content = UnreadyGroupContent(),
       .driver = {.create = {Group([](auto& g) {
                    g.ready_to_use = false;
                    for (auto& m : g.members) m.ready_to_use = false;
                  })}},
       .want_csi = {CreateGroupCall(CreateGroup())},
       .want_outcome = SyncOutcome::kPollReadiness},
      // §9.11: a member once ready stays so while the group is not yet.
      {.name = "MemberOnceReadyNeverFallsBackToUnready",
       .content = UnreadyGroupContent(
           [](auto& c) { c.status->volume_snapshot_info_list[0].ready_to_use = true; }),
       .driver = {.create = {Group([](auto& g) {
                    g.ready_to_use = false;
                    for (auto& m : g.members) m.ready_to_use = false;
                  })}},
       .want_csi = {CreateGroupCall(CreateGroup())},
       .want_outcome = SyncOutcome::kPollReadiness,
       .want_stored =
           [](const auto& stored) {
             ASSERT_TRUE(stored);
             EXPECT_EQ(stored->status->volume_snapshot_info_list[0].ready_to_use, true);
           }},
      // §9.11: a ready group's members are ready (CSI), whatever an entry says.
      GroupSyncCase{
          .name = "ReadyGroupLeavesNoMemberUnready",
          .content = GroupContent(),
          .driver = {.create = {Group([](auto& g) { g.members[1].ready_to_use = false; })}},
          .want_api = {kAddGroupBeingCreated, WriteGroupStatus("11", GroupStatusBody()),
                       kRemoveGroupBeingCreated},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_outcome = SyncOutcome::kDone},
      GroupSyncCase{
          .name = "NameHonoursPrefixAndUuidLength",
          .content = GroupContent(),
          .options = {.group_snapshot_name_prefix = "grp", .group_snapshot_name_uuid_length = 8},
          .driver = {.create = {Group()}},
          .want_api = {kAddGroupBeingCreated, WriteGroupStatus("11", GroupStatusBody()),
                       kRemoveGroupBeingCreated},
          .want_csi = {CreateGroupCall(CreateGroup([](auto& r) { r.name = "grp-9f8e7d6c"; }))},
          .want_outcome = SyncOutcome::kDone},
      {.name = "ParametersLoseReservedKeysAndGainExtraMetadata",
       .content = GroupContent(),
       .classes = {GroupClass([](auto& c) {
         c.parameters = {{"tier", "fast"},
                         {std::string(snapshot::kGroupSnapshotterSecretNameKey), "creds"},
                         {std::string(snapshot::kGroupSnapshotterSecretNamespaceKey), "ns"},
                         {std::string(snapshot::kGroupSnapshotterGetSecretNameKey), "get-creds"},
                         {std::string(snapshot::kGroupSnapshotterGetSecretNamespaceKey), "ns"}};
       })},
       .options = {.extra_create_metadata = true},
       .driver = {.create = {Group()}},
       .want_api = {kAddGroupBeingCreated, WriteGroupStatus("11", GroupStatusBody()),
                    kRemoveGroupBeingCreated},
       .want_csi = {CreateGroupCall(CreateGroup([](auto& r) {
         r.parameters = {{"tier", "fast"},
                         {std::string(kVolumeGroupSnapshotNameKey), "group-1"},
                         {std::string(kVolumeGroupSnapshotNamespaceKey), "default"},
                         {std::string(kVolumeGroupSnapshotContentNameKey), "group-content-1"}};
       }))},
       .want_outcome = SyncOutcome::kDone},
      GroupSyncCase{
          .name = "CredentialsComeFromTheGroupDeletionSecretAnnotations",
          .content = GroupContent(WithGroupSecretAnnotations),
          .secrets = {Secret("ns", "creds", {{"user", "u"}})},
          .driver = {.create = {Group()}},
          .want_api = {GetSecret("ns", "creds"), kAppendGroupBeingCreated,
                       WriteGroupStatus("11", GroupStatusBody()), kRemoveGroupBeingCreated},
          .want_csi = {CreateGroupCall(CreateGroup([](auto& r) {
            r.secrets = {{"user", "u"}};
          }))},
          .want_outcome = SyncOutcome::kDone},
      // Input errors are found before the annotation is added.
      FailsBeforeTheDriver({.name = "MissingClassFails", .content = GroupContent(), .classes = {}},
                           R"(failed to get input parameters to create group snapshot for group )"
                           R"(snapshot content group-content-1: "volumegroupsnapshotclass.)"
                           R"(groupsnapshot.storage.k8s.io \"group-gold\" not found")"),
      FailsBeforeTheDriver(
          {.name = "NoClassNameFails", .content = GroupContent([](auto& c) {
                                         c.spec.volume_group_snapshot_class_name.reset();
                                       })},
          R"(failed to get input parameters to create group snapshot for group snapshot )"
          R"(content group-content-1: "failed to take group snapshot group-content-1 without a )"
          R"(group snapshot class")"),
      FailsBeforeTheDriver(
          {.name = "UnknownReservedParameterFails",
           .content = GroupContent(),
           .classes = {GroupClass([](auto& c) {
             c.parameters = {{"csi.storage.k8s.io/typo", "x"}};
           })}},
          R"(failed to remove CSI Parameters of prefixed keys: found unknown parameter key )"
          R"("csi.storage.k8s.io/typo" with reserved namespace csi.storage.k8s.io/)"),
      FailsBeforeTheDriver(
          {.name = "UnboundContentFails",
           .content = GroupContent([](auto& c) { c.spec.volume_group_snapshot_ref.uid.clear(); })},
          R"(failed to take group snapshot of the volumes [vol-1 vol-2 vol-3]: "cannot create )"
          R"(group snapshot. Group snapshot content group-content-1 not bound to a group )"
          R"(snapshot")"),
      FailsBeforeTheDriver(
          {.name = "MissingSecretFails",
           .content = GroupContent(WithGroupSecretAnnotations),
           .want_api = {GetSecret("ns", "creds")}},
          R"(failed to get input parameters to create group snapshot for group snapshot )"
          R"(content group-content-1: "cannot get credentials for group snapshot content )"
          R"(\"group-content-1\"")"),
      // §3.4 create step 7 for groups: a timeout may leave a create running.
      GroupSyncCase{
          .name = "TimeoutKeepsTheAnnotation",
          .content = GroupContent(),
          .driver = {.create = {kDeadline}},
          .want_api = {kAddGroupBeingCreated,
                       WriteGroupStatus(
                           "11", ErrorStatusBody(kFirstFailure + TakeGroupFailed(kDeadline)))},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_events = {"GroupSnapshotCreationFailed group-content-1: " + kFirstFailure +
                          TakeGroupFailed(kDeadline)},
          .want_error = TakeGroupFailed(kDeadline),
          .want_stored =
              [](const auto& stored) {
                ASSERT_TRUE(stored);
                EXPECT_TRUE(
                    stored->metadata.annotations.contains(snapshot::kGroupBeingCreatedAnnotation));
              }},
      GroupSyncCase{
          .name = "FinalErrorRemovesTheAnnotation",
          .content = GroupContent(),
          .driver = {.create = {kInvalidArgument}},
          .want_api = {kAddGroupBeingCreated, kRemoveGroupBeingCreated,
                       WriteGroupStatus("12", ErrorStatusBody(kFirstFailure +
                                                              TakeGroupFailed(kInvalidArgument)))},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_events = {"GroupSnapshotCreationFailed group-content-1: " + kFirstFailure +
                          TakeGroupFailed(kInvalidArgument)},
          .want_error = TakeGroupFailed(kInvalidArgument)},
      GroupSyncCase{
          .name = "LaterFailureIsCheckAndUpdateFailed",
          .content = UnreadyGroupContent(),
          .driver = {.create = {kDeadline}},
          .want_api = {WriteGroupStatus(
              "10", {{"error",
                      {{"message", kLaterFailure + TakeGroupFailed(kDeadline)}, {"time", kNow}}}})},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_events = {"GroupSnapshotContentCheckandUpdateFailed group-content-1: " +
                          kLaterFailure + TakeGroupFailed(kDeadline)},
          .want_error = TakeGroupFailed(kDeadline)},
      {.name = "SameErrorIsNotWrittenTwice",
       .content = UnreadyGroupContent([](auto& c) {
         c.status->error = kube::VolumeSnapshotError{
             .time = "2023-11-14T22:10:00Z", .message = kLaterFailure + TakeGroupFailed(kDeadline)};
       }),
       .driver = {.create = {kDeadline}},
       .want_csi = {CreateGroupCall(CreateGroup())},
       .want_error = TakeGroupFailed(kDeadline)},
      GroupSyncCase{
          .name = "ReadyClearsAnEarlierError",
          .content = UnreadyGroupContent([](auto& c) {
            c.status->error =
                kube::VolumeSnapshotError{.time = "2023-11-14T22:10:00Z",
                                          .message = kLaterFailure + TakeGroupFailed(kDeadline)};
          }),
          .driver = {.create = {Group()}},
          .want_api = {WriteGroupStatus(
              "10", {{"error", nullptr},
                     {"readyToUse", true},
                     {"volumeSnapshotInfoList", {MemberBody(0), MemberBody(1), MemberBody(2)}}})},
          .want_csi = {CreateGroupCall(CreateGroup())},
          .want_outcome = SyncOutcome::kDone},
      // §3.8 step 3: no more CSI calls once ready.
      {.name = "ReadyContentIsLeftAlone",
       .content = UnreadyGroupContent([](auto& c) { c.status->ready_to_use = true; }),
       .want_outcome = SyncOutcome::kDone},
      {.name = "ReadyContentLosesALeftoverAnnotation",
       .content = UnreadyGroupContent([](auto& c) {
         c.status->ready_to_use = true;
         c.metadata.annotations[snapshot::kGroupBeingCreatedAnnotation] = "yes";
       }),
       .want_api = {kRemoveGroupBeingCreated},
       .want_outcome = SyncOutcome::kDone},
  };
}

INSTANTIATE_TEST_SUITE_P(Table, CsiGroupContentHandlerCreate,
                         ::testing::ValuesIn(GroupCreateCases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace snapshotter::testing
