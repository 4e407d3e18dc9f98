// docs/snapshots.md §4.2 and §4.7: the Controller's group queues
// "snapshot-controller-group-snapshot" and "snapshot-controller-group-content"
// (what queues what, the deletion hand-over to the group content and the
// member snapshots, backoff), §9.3 (own writes cause no sync) and §9.5 (lanes)
// for the group kinds, and that nothing of groups runs while they are off.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "snapshot/names.h"
#include "snapshot_controller/names.h"
#include "tests/support/snapshot_objects.h"
#include "tests/unit/snapshot_controller/controller_fixture.h"

namespace snapshot_controller {
namespace {

using namespace std::chrono_literals;
using kube::VolumeGroupSnapshot;
using kube::VolumeGroupSnapshotContent;
using kube::VolumeSnapshot;
using kube::WatchEventType;
using testing::ControllerTest;
using ::testing::ElementsAre;
using testing::kDeletionTime;
using testing::kStart;
using testing::WithVersion;
using testsupport::MakeGroupContent;
using testsupport::MakeGroupSnapshot;
using testsupport::MakeReadyGroupSnapshot;
using testsupport::MakeSnapshot;
using TimePoint = base::Clock::TimePoint;

VolumeGroupSnapshotContent MakeSettledGroupContent(std::string name) {
  VolumeGroupSnapshotContent content = MakeGroupContent(std::move(name));
  content.metadata.finalizers = {std::string(snapshot::kGroupContentFinalizer)};
  content.metadata.has_finalizers_field = true;
  content.status.emplace();
  content.status->volume_group_snapshot_handle = "group-handle";
  content.status->ready_to_use = true;
  return content;
}

// A member snapshot of group `group` (its owner reference).
VolumeSnapshot MakeMember(std::string ns, std::string name, const std::string& group) {
  VolumeSnapshot member = MakeSnapshot(std::move(ns), std::move(name));
  member.metadata.owner_references = {{.api_version = "groupsnapshot.storage.k8s.io/v1",
                                       .kind = "VolumeGroupSnapshot",
                                       .name = group,
                                       .uid = "uid-" + group}};
  return member;
}

TEST_F(ControllerTest, GroupQueuesAreNamedLikeUpstream) {
  UseGroups({});
  Start(1, {});
  EXPECT_EQ(controller_->group_snapshot_queue().name(), "snapshot-controller-group-snapshot");
  EXPECT_EQ(controller_->group_content_queue().name(), "snapshot-controller-group-content");
  Stop();
}

// §4.2: group snapshots are keyed "namespace/name", group contents by name;
// each listed object syncs once.
TEST_F(ControllerTest, SyncsEveryListedGroupSnapshotAndGroupContentOnce) {
  UseGroups({MakeGroupSnapshot("ns-a", "g"), MakeGroupSnapshot("ns-b", "g")},
            {MakeGroupContent("gc")});
  Start(2, {});
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("ns-a/g", 1));
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("ns-b/g", 1));
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  Stop();
  EXPECT_EQ(handler_.Count("sync group snapshot ns-a/g rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync group snapshot ns-b/g rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync group content gc rv 1"), 1);
}

// §9.13: without group sources nothing of groups is listed or synced, and a
// member snapshot is synced as any other.
TEST_F(ControllerTest, GroupsOffListNoGroupKindAndMembersSyncAsSnapshots) {
  group_lister_.SetItems({MakeGroupSnapshot("default", "group-1")});
  Start(1, {MakeMember("default", "m", "group-1")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/m", 1));
  Stop();
  EXPECT_FALSE(informers_->Contains<VolumeGroupSnapshot>());
  for (const std::string& call : handler_.Calls()) EXPECT_EQ(call.find("group"), std::string::npos);
}

// §4.7: a group content sync answering kSyncSnapshot queues its group
// snapshot (its status lags the content's).
TEST_F(ControllerTest, GroupContentsSyncSnapshotAnswerQueuesItsGroupSnapshot) {
  handler_.AskForSnapshotSync("gc", 1);
  handler_.group_snapshots().Block("default/group-1");
  handler_.group_contents().Block("gc");
  UseGroups({MakeGroupSnapshot("default", "group-1")}, {MakeGroupContent("gc")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_snapshots().AwaitStarted("default/group-1", 1));
  handler_.group_contents().Release("gc");
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  handler_.group_snapshots().Release("default/group-1");
  EXPECT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 2));
  Stop();
}

// §4.2, §4.5 step 3: a group snapshot deleted from the API is reported, then
// its bound group content syncs, and so do its members, whose deletion
// waited for it; a snapshot of no group or of another group does not.
TEST_F(ControllerTest, DeletedGroupSnapshotIsReportedThenItsContentAndMembersSync) {
  UseGroups({MakeReadyGroupSnapshot("default", "group-1", "gc")}, {MakeSettledGroupContent("gc")});
  Start(1, {MakeMember("default", "m-1", "group-1"), MakeMember("default", "m-2", "group-1"),
            MakeMember("default", "other", "group-2"), MakeMember("ns-b", "m-1", "group-1"),
            MakeSnapshot("default", "plain")});
  for (const char* key :
       {"default/m-1", "default/m-2", "default/other", "ns-b/m-1", "default/plain"}) {
    ASSERT_TRUE(handler_.snapshots().AwaitFinished(key, 1)) << key;
  }
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  // Its first sync is done before the deletion, which would otherwise empty
  // the cache under a sync still queued.
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 1));
  Send(WatchEventType::kDeleted,
       WithVersion(MakeReadyGroupSnapshot("default", "group-1", "gc"), "2"));
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 2));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/m-1", 2));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/m-2", 2));
  // A fence: anything the deletion queued by mistake would sync before it.
  Send(WatchEventType::kAdded, MakeSnapshot("default", "fence"));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/fence", 1));
  Stop();
  EXPECT_EQ(handler_.Count("deleted group default/group-1 uid uid-group-1"), 1);
  std::vector<std::string> calls = handler_.Calls();
  auto deleted =
      std::find(calls.begin(), calls.end(), "deleted group default/group-1 uid uid-group-1");
  ASSERT_NE(deleted, calls.end());
  EXPECT_NE(std::find(deleted, calls.end(), "sync group content gc rv 1"), calls.end());
  EXPECT_EQ(handler_.Count("sync snapshot default/other rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync snapshot ns-b/m-1 rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync snapshot default/plain rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync group snapshot default/group-1 rv 1"), 1);  // nothing left
}

// §4.2: a group content deleted from the API queues the group snapshot its
// ref names, which may be waiting for it to go.
TEST_F(ControllerTest, DeletedGroupContentQueuesItsGroupSnapshot) {
  VolumeGroupSnapshot deleting = MakeReadyGroupSnapshot("default", "group-1", "gc");
  deleting.metadata.deletion_timestamp = kDeletionTime;
  UseGroups({deleting}, {MakeSettledGroupContent("gc")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 1));
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  Send(WatchEventType::kDeleted, WithVersion(MakeSettledGroupContent("gc"), "2"));
  EXPECT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 2));
  Stop();
}

// §4.2: the error backoff is upstream's on the group queues too.
TEST_F(ControllerTest, GroupSnapshotErrorsRetryWithExponentialBackoff) {
  retry_interval_max_ = 4s;
  handler_.group_snapshots().Fail("default/group-1", 3);
  UseGroups({MakeGroupSnapshot("default", "group-1")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_snapshots().AwaitStarted("default/group-1", 1));
  size_t syncs = 1;
  for (TimePoint at : {kStart + 1s, kStart + 3s, kStart + 7s}) {
    AdvanceToTimer(at);
    ASSERT_TRUE(handler_.group_snapshots().AwaitStarted("default/group-1", ++syncs));
  }
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 4));
  Stop();
  EXPECT_THAT(handler_.group_snapshots().StartTimes("default/group-1"),
              ElementsAre(kStart, kStart + 1s, kStart + 3s, kStart + 7s));
}

TEST_F(ControllerTest, GroupContentErrorsRetryWithExponentialBackoff) {
  handler_.group_contents().Fail("gc", 2);
  UseGroups({}, {MakeGroupContent("gc")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_contents().AwaitStarted("gc", 1));
  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(handler_.group_contents().AwaitStarted("gc", 2));
  AdvanceToTimer(kStart + 3s);
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 3));
  Stop();
}

// §9.3: the controller's own status and finalizer writes on a group
// snapshot, and its being-deleted annotation and finalizer on a group
// content, queue nothing (a fence syncs after anything they had queued).
TEST_F(ControllerTest, OwnGroupWritesCauseNoSync) {
  UseGroups({MakeGroupSnapshot("default", "group-1")}, {MakeGroupContent("gc")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 1));
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  VolumeGroupSnapshot protected_group = WithVersion(MakeGroupSnapshot("default", "group-1"), "2");
  protected_group.metadata.finalizers = {
      std::string(snapshot_controller::kGroupSnapshotBoundFinalizer)};
  protected_group.metadata.has_finalizers_field = true;
  Send(WatchEventType::kModified, protected_group);
  VolumeGroupSnapshot bound = WithVersion(protected_group, "3");
  bound.status.emplace();
  bound.status->bound_volume_group_snapshot_content_name = "gc";
  bound.status->ready_to_use = false;
  Send(WatchEventType::kModified, bound);
  VolumeGroupSnapshotContent protected_content = WithVersion(MakeGroupContent("gc"), "2");
  protected_content.metadata.finalizers = {std::string(snapshot::kGroupContentFinalizer)};
  protected_content.metadata.has_finalizers_field = true;
  Send(WatchEventType::kModified, protected_content);
  VolumeGroupSnapshotContent marked = WithVersion(protected_content, "3");
  marked.metadata.annotations[snapshot::kGroupBeingDeletedAnnotation] = "yes";
  Send(WatchEventType::kModified, marked);
  Send(WatchEventType::kAdded, MakeGroupSnapshot("default", "fence"));
  Send(WatchEventType::kAdded, MakeGroupContent("fence"));
  ASSERT_TRUE(handler_.group_snapshots().AwaitFinished("default/fence", 1));
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("fence", 1));
  Stop();
  EXPECT_EQ(handler_.group_snapshots().StartTimes("default/group-1").size(), 1u);
  EXPECT_EQ(handler_.group_contents().StartTimes("gc").size(), 1u);
}

// §9.3, §4.7: the sidecar's status write on a group content is synced: the
// group snapshot mirrors it and its members are made from it.
TEST_F(ControllerTest, SidecarsGroupContentStatusIsSynced) {
  UseGroups({}, {MakeGroupContent("gc")});
  Start(1, {});
  ASSERT_TRUE(handler_.group_contents().AwaitFinished("gc", 1));
  VolumeGroupSnapshotContent created = WithVersion(MakeGroupContent("gc"), "2");
  created.status.emplace();
  created.status->volume_group_snapshot_handle = "group-handle";
  created.status->volume_snapshot_info_list = {{.volume_handle = "vol-1", .snapshot_handle = "s1"}};
  Send(WatchEventType::kModified, created);
  EXPECT_TRUE(handler_.AwaitCall("sync group content gc rv 2"));
  Stop();
}

// §4.2: no group sync before the group stores hold a complete list.
TEST_F(ControllerTest, WaitsForTheGroupCachesBeforeWorking) {
  group_class_lister_.FailLists(1);
  UseGroups({MakeGroupSnapshot("default", "group-1")});
  Start(1, {MakeSnapshot("default", "s")});
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({kStart + 800ms}, testing::kTimerWait));
  EXPECT_TRUE(handler_.Calls().empty());
  clock_.Advance(800ms);
  EXPECT_TRUE(handler_.group_snapshots().AwaitFinished("default/group-1", 1));
  EXPECT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  Stop();
}

}  // namespace
}  // namespace snapshot_controller
