// docs/snapshots.md §3.8 (and §3.3, §3.5, §9.3, §9.11 for groups): the
// pure rules of the group content handler and controller, one per test -
// which group contents are ours, which updates sync, what a sync
// decides from the fields, the status each answer leaves, the create
// parameters and the Secrets of groups.
#include <gtest/gtest.h>

#include "snapshot/names.h"
#include "snapshotter/content_event_filters.h"
#include "snapshotter/content_state.h"
#include "snapshotter/content_status.h"
#include "snapshotter/create_parameters.h"
#include "snapshotter/names.h"
#include "snapshotter/secret_references.h"
#include "tests/unit/snapshotter/group_handler_fixtures.h"

namespace snapshotter::testing {
namespace {

using kube::VolumeGroupSnapshotContent;

// --- Which group contents are ours (§3.3) ---

TEST(GroupIsDriverMatch, DynamicAndImportedGroupsOfTheDriverMatch) {
  EXPECT_TRUE(IsDriverMatch(GroupContent(), kDriver, nullptr));
  EXPECT_TRUE(IsDriverMatch(ImportedGroupContent(), kDriver, nullptr));
}

TEST(GroupIsDriverMatch, GroupWithoutSourceDoesNotMatch) {
  VolumeGroupSnapshotContent content = GroupContent([](auto& c) { c.spec.source = {}; });
  EXPECT_FALSE(IsDriverMatch(content, kDriver, nullptr));
}

TEST(GroupIsDriverMatch, OtherDriversContentOrClassDisqualifies) {
  EXPECT_FALSE(
      IsDriverMatch(GroupContent([](auto& c) { c.spec.driver = "other"; }), kDriver, nullptr));
  kube::VolumeGroupSnapshotClass other = GroupClass([](auto& c) { c.driver = "other"; });
  EXPECT_FALSE(IsDriverMatch(GroupContent(), kDriver, &other));
  kube::VolumeGroupSnapshotClass ours = GroupClass();
  EXPECT_TRUE(IsDriverMatch(GroupContent(), kDriver, &ours));
}

// --- Which updates sync (§9.3) ---

// Whether an update of the default group content by `edit` (with a new
// resourceVersion) is enqueued.
bool UpdateEnqueued(const Edit<VolumeGroupSnapshotContent>& edit) {
  VolumeGroupSnapshotContent updated = GroupContent([&](auto& c) {
    c.metadata.resource_version = "11";
    edit(c);
  });
  return ShouldEnqueueContentUpdate(GroupContent(), updated);
}

TEST(GroupUpdateFilter, ResyncAlwaysCounts) {
  EXPECT_TRUE(UpdateEnqueued([](auto& c) { c.metadata.resource_version = "10"; }));
}

TEST(GroupUpdateFilter, OwnWritesDoNotCount) {
  EXPECT_FALSE(UpdateEnqueued([](auto& c) {
    c.status = kube::VolumeGroupSnapshotContentStatus{.ready_to_use = true};
    c.metadata.annotations[snapshot::kGroupBeingCreatedAnnotation] = "yes";
    c.metadata.finalizers.clear();
  }));
}

TEST(GroupUpdateFilter, DeletionAndTheControllersAnnotationCount) {
  EXPECT_TRUE(UpdateEnqueued(
      [](auto& c) { c.metadata.annotations[snapshot::kGroupBeingDeletedAnnotation] = "yes"; }));
  EXPECT_TRUE(
      UpdateEnqueued([](auto& c) { c.metadata.deletion_timestamp = std::string(kDeleted); }));
}

// --- What a sync decides (§3.8) ---

TEST(GroupShouldDelete, NeedsTheControllersAnnotationUnlessImportedAndUnbound) {
  EXPECT_TRUE(ShouldDelete(GroupContent(MarkGroupDeleted)));
  VolumeGroupSnapshotContent alive =
      GroupContent([](auto& c) { c.metadata.deletion_timestamp = std::string(kDeleted); });
  EXPECT_FALSE(ShouldDelete(alive));
  VolumeGroupSnapshotContent unbound =
      ImportedGroupContent([](auto& c) { c.metadata.deletion_timestamp = std::string(kDeleted); });
  EXPECT_TRUE(ShouldDelete(unbound));
  EXPECT_FALSE(ShouldDelete(GroupContent()));
}

TEST(GroupShouldDelete, BeingCreatedHoldsDeletion) {
  VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    MarkGroupDeleted(c);
    c.metadata.annotations[snapshot::kGroupBeingCreatedAnnotation] = "yes";
  });
  EXPECT_FALSE(ShouldDelete(content));
}

TEST(GroupDeletesBackendSnapshot, PolicyDeleteWithAHandleOnly) {
  VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.status = kube::VolumeGroupSnapshotContentStatus{.volume_group_snapshot_handle = "g"};
  });
  EXPECT_TRUE(DeletesBackendSnapshot(content));
  content.spec.deletion_policy = std::string(kube::kDeletionPolicyRetain);
  EXPECT_FALSE(DeletesBackendSnapshot(content));
  EXPECT_FALSE(DeletesBackendSnapshot(GroupContent()));
}

TEST(GroupNeedsFirstCreate, DynamicWithoutStatusOnly) {
  EXPECT_TRUE(NeedsFirstCreate(GroupContent()));
  EXPECT_FALSE(NeedsFirstCreate(ImportedGroupContent()));
  EXPECT_FALSE(NeedsFirstCreate(
      GroupContent([](auto& c) { c.status = kube::VolumeGroupSnapshotContentStatus{}; })));
}

// --- The status each answer leaves (§3.8, §9.11) ---

const GroupSnapshotFacts kReadyFacts{.group_snapshot_handle = "g",
                                     .ready_to_use = true,
                                     .creation_time = "2023-07-22T04:26:40Z",
                                     .members = {Member(0), Member(1)}};

TEST(StatusWithGroupSnapshot, NilStatusGetsEveryFact) {
  GroupContentStatus status = StatusWithGroupSnapshot(std::nullopt, kReadyFacts);
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, (kube::VolumeGroupSnapshotContentStatus{
                         .volume_group_snapshot_handle = "g",
                         .creation_time = "2023-07-22T04:26:40Z",
                         .ready_to_use = true,
                         .volume_snapshot_info_list = {Member(0), Member(1)}}));
}

TEST(StatusWithGroupSnapshot, HandleAndTimeAreKeptReadinessAndMembersFollow) {
  kube::VolumeGroupSnapshotContentStatus current{.volume_group_snapshot_handle = "old",
                                                 .creation_time = "2020-01-01T00:00:00Z",
                                                 .ready_to_use = false,
                                                 .volume_snapshot_info_list = {Member(0, false)}};
  GroupContentStatus status = StatusWithGroupSnapshot(current, kReadyFacts);
  ASSERT_TRUE(status);
  EXPECT_EQ(status->volume_group_snapshot_handle, "old");
  EXPECT_EQ(status->creation_time, "2020-01-01T00:00:00Z");
  EXPECT_EQ(status->ready_to_use, true);
  EXPECT_EQ(status->volume_snapshot_info_list,
            (std::vector<kube::VolumeSnapshotInfo>{Member(0), Member(1)}));
}

// Upstream keeps the first answer's list: its entries stay unready (§9.11).
TEST(StatusWithGroupSnapshot, InfoListFollowsEveryAnswer) {
  GroupSnapshotFacts unready = kReadyFacts;
  unready.ready_to_use = false;
  unready.members = {Member(0, false), Member(1, false)};
  GroupContentStatus first = StatusWithGroupSnapshot(std::nullopt, unready);
  unready.members = {Member(0, true), Member(1, false)};
  GroupContentStatus second = StatusWithGroupSnapshot(first, unready);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->volume_snapshot_info_list[0].ready_to_use, true);
  EXPECT_EQ(second->volume_snapshot_info_list[1].ready_to_use, false);
}

TEST(StatusWithGroupSnapshot, NoMemberGoesBackToUnready) {
  GroupSnapshotFacts unready = kReadyFacts;
  unready.ready_to_use = false;
  unready.members = {Member(0, false)};
  kube::VolumeGroupSnapshotContentStatus current{.ready_to_use = false,
                                                 .volume_snapshot_info_list = {Member(0, true)}};
  GroupContentStatus status = StatusWithGroupSnapshot(current, unready);
  const kube::VolumeGroupSnapshotContentStatus& after = status ? *status : current;
  EXPECT_EQ(after.volume_snapshot_info_list[0].ready_to_use, true);
}

TEST(StatusWithGroupSnapshot, ReadyGroupMakesEveryMemberReady) {
  GroupSnapshotFacts facts = kReadyFacts;
  facts.members = {Member(0, false), Member(1, false)};
  GroupContentStatus status = StatusWithGroupSnapshot(std::nullopt, facts);
  ASSERT_TRUE(status);
  for (const auto& member : status->volume_snapshot_info_list) {
    EXPECT_EQ(member.ready_to_use, true) << member.snapshot_handle;
  }
}

TEST(StatusWithGroupSnapshot, AnswerWithoutMembersKeepsTheList) {
  kube::VolumeGroupSnapshotContentStatus current{.volume_group_snapshot_handle = "g",
                                                 .creation_time = "2023-07-22T04:26:40Z",
                                                 .ready_to_use = true,
                                                 .volume_snapshot_info_list = {Member(0)}};
  GroupSnapshotFacts facts = kReadyFacts;
  facts.members.clear();
  EXPECT_FALSE(StatusWithGroupSnapshot(current, facts));
}

TEST(StatusWithGroupSnapshot, ErrorGoesOnlyWhenTurningReady) {
  kube::VolumeGroupSnapshotContentStatus current{
      .ready_to_use = false, .error = kube::VolumeSnapshotError{.message = "timeout"}};
  GroupSnapshotFacts unready = kReadyFacts;
  unready.ready_to_use = false;
  EXPECT_TRUE(StatusWithGroupSnapshot(current, unready)->error);
  EXPECT_FALSE(StatusWithGroupSnapshot(current, kReadyFacts)->error);
}

TEST(StatusWithoutSnapshot, GroupLosesHandleReadinessTimeAndErrorKeepsMembers) {
  kube::VolumeGroupSnapshotContentStatus current{
      .volume_group_snapshot_handle = "g",
      .creation_time = "2023-07-22T04:26:40Z",
      .ready_to_use = true,
      .error = kube::VolumeSnapshotError{.message = "old"},
      .volume_snapshot_info_list = {Member(0)}};
  GroupContentStatus cleared = StatusWithoutSnapshot(GroupContentStatus(current));
  ASSERT_TRUE(cleared);
  EXPECT_EQ(*cleared,
            (kube::VolumeGroupSnapshotContentStatus{.volume_snapshot_info_list = {Member(0)}}));
  EXPECT_FALSE(StatusWithoutSnapshot(cleared));
  EXPECT_FALSE(StatusWithoutSnapshot(GroupContentStatus()));
}

TEST(StatusWithError, GroupStatusGetsErrorAndUnready) {
  kube::VolumeGroupSnapshotContentStatus status = StatusWithError(
      GroupContentStatus(kube::VolumeGroupSnapshotContentStatus{.ready_to_use = true}), "boom",
      "t");
  EXPECT_EQ(status.ready_to_use, false);
  EXPECT_EQ(status.error, (kube::VolumeSnapshotError{.time = "t", .message = "boom"}));
}

// --- Create parameters and Secrets (§3.5, §3.8) ---

TEST(GroupCreateParameters, ExtraMetadataNamesTheGroupAndItsContent) {
  auto parameters = CreateParameters({{"a", "b"}}, GroupContent(), true);
  ASSERT_TRUE(parameters.ok());
  EXPECT_EQ(*parameters,
            (std::map<std::string, std::string>{
                {"a", "b"},
                {std::string(kVolumeGroupSnapshotNameKey), "group-1"},
                {std::string(kVolumeGroupSnapshotNamespaceKey), "default"},
                {std::string(kVolumeGroupSnapshotContentNameKey), "group-content-1"}}));
  auto plain = CreateParameters({{"a", "b"}}, GroupContent(), false);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(*plain, (std::map<std::string, std::string>{{"a", "b"}}));
}

TEST(GroupDeletionSecretOf, TheGroupAnnotationsNameTheSecret) {
  VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.metadata.annotations[snapshot::kGroupDeletionSecretNameAnnotation] = "creds";
    c.metadata.annotations[snapshot::kGroupDeletionSecretNamespaceAnnotation] = "ns";
    // A single content's annotations mean nothing on a group.
    c.metadata.annotations[snapshot::kDeletionSecretNameAnnotation] = "other";
  });
  auto ref = DeletionSecretOf(content);
  ASSERT_TRUE(ref.ok());
  ASSERT_TRUE(*ref);
  EXPECT_EQ(**ref, (kube::SecretReference{.name = "creds", .namespace_ = "ns"}));
}

TEST(GroupDeletionSecretOf, AnEmptyValueIsAnError) {
  VolumeGroupSnapshotContent content = GroupContent([](auto& c) {
    c.metadata.annotations[snapshot::kGroupDeletionSecretNameAnnotation] = "";
    c.metadata.annotations[snapshot::kGroupDeletionSecretNamespaceAnnotation] = "ns";
  });
  auto ref = DeletionSecretOf(content);
  ASSERT_FALSE(ref.ok());
  EXPECT_EQ(ref.error().message,
            "cannot retrieve secrets for group snapshot content \"group-content-1\", err: secret "
            "name or namespace not specified");
}

TEST(GroupGetSecretOf, ContentNameTokenResolvesOthersAreInvalid) {
  auto ref =
      GroupGetSecretOf({{std::string(snapshot::kGroupSnapshotterGetSecretNameKey),
                         "get-${volumegroupsnapshotcontent.name}"},
                        {std::string(snapshot::kGroupSnapshotterGetSecretNamespaceKey), "ns"}},
                       "gc-1");
  ASSERT_TRUE(ref.ok()) << ref.error().message;
  ASSERT_TRUE(*ref);
  EXPECT_EQ(**ref, (kube::SecretReference{.name = "get-gc-1", .namespace_ = "ns"}));

  auto bad = GroupGetSecretOf(
      {{std::string(snapshot::kGroupSnapshotterGetSecretNameKey), "${volumegroupsnapshot.name}"},
       {std::string(snapshot::kGroupSnapshotterGetSecretNamespaceKey), "ns"}},
      "gc-1");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            R"(error resolving value "${volumegroupsnapshot.name}": invalid tokens: )"
            R"(["volumegroupsnapshot.name"])");

  auto half =
      GroupGetSecretOf({{std::string(snapshot::kGroupSnapshotterGetSecretNameKey), "x"}}, "gc-1");
  ASSERT_FALSE(half.ok());
  EXPECT_EQ(half.error().message,
            "failed to get name and namespace template from params: either name and namespace "
            "for GroupSnapshotterGet secrets specified, Both must be specified");
}

}  // namespace
}  // namespace snapshotter::testing
