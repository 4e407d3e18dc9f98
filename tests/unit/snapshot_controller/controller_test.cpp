// docs/snapshots.md §4.2 (informers, queues, what queues what, backoff),
// §9.3 (own writes cause no sync), §9.5 (new work before resyncs) and §9.8
// (stop drains), driven through Controller::Run with scripted listers, a
// scripted handler and a fake clock.
#include "snapshot_controller/controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "snapshot/names.h"
#include "snapshot_controller/names.h"
#include "tests/support/snapshot_objects.h"
#include "tests/unit/snapshot_controller/controller_fixture.h"

namespace snapshot_controller {
namespace {

using namespace std::chrono_literals;
using kube::VolumeSnapshot;
using kube::VolumeSnapshotContent;
using kube::WatchEventType;
using testing::ControllerTest;
using ::testing::ElementsAre;
using testing::kDeletionTime;
using testing::kStart;
using testing::kTimerWait;
using testing::MakeSettledContent;
using testing::WithVersion;
using testsupport::MakeContent;
using testsupport::MakeReadyContent;
using testsupport::MakeReadySnapshot;
using testsupport::MakeSnapshot;
using TimePoint = base::Clock::TimePoint;

TEST_F(ControllerTest, QueuesAreNamedLikeUpstream) {
  Start(1, {});
  EXPECT_EQ(controller_->snapshot_queue().name(), "snapshot-controller-snapshot");
  EXPECT_EQ(controller_->content_queue().name(), "snapshot-controller-content");
  Stop();
}

// §4.2: snapshots are keyed "namespace/name", contents by name; each listed
// object syncs once, handed over as the store holds it.
TEST_F(ControllerTest, SyncsEveryListedSnapshotAndContentOnce) {
  Start(2, {MakeSnapshot("ns-a", "s"), MakeSnapshot("ns-b", "s")}, {MakeContent("c")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("ns-a/s", 1));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("ns-b/s", 1));
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  Stop();
  EXPECT_EQ(handler_.Count("sync snapshot ns-a/s rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync snapshot ns-b/s rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync content c rv 1"), 1);
}

// §4.2: adds and updates from the watch are synced.
TEST_F(ControllerTest, WatchedAddsAndUpdatesAreSynced) {
  Start(1, {MakeSnapshot("default", "s")}, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitCall("sync snapshot default/s rv 1"));
  ASSERT_TRUE(handler_.AwaitCall("sync content c rv 1"));
  Send(WatchEventType::kAdded, MakeSnapshot("default", "added"));
  Send(WatchEventType::kAdded, MakeContent("added"));
  VolumeSnapshot labelled = WithVersion(MakeSnapshot("default", "s"), "2");
  labelled.metadata.labels["team"] = "a";
  Send(WatchEventType::kModified, labelled);
  VolumeSnapshotContent bound = WithVersion(MakeContent("c"), "2");
  bound.spec.volume_snapshot_ref.uid = "uid-2";
  Send(WatchEventType::kModified, bound);
  EXPECT_TRUE(handler_.AwaitCall("sync snapshot default/added rv 1"));
  EXPECT_TRUE(handler_.AwaitCall("sync content added rv 1"));
  EXPECT_TRUE(handler_.AwaitCall("sync snapshot default/s rv 2"));
  EXPECT_TRUE(handler_.AwaitCall("sync content c rv 2"));
  Stop();
}

// §4.2: a VolumeSnapshot deleted from the API ends its operation in the
// handler (SnapshotDeleted, with its last known state), then its bound
// content syncs at once.
TEST_F(ControllerTest, DeletedSnapshotIsReportedThenItsBoundContentSyncs) {
  Start(1, {MakeReadySnapshot("default", "s", "c")}, {MakeSettledContent("c")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  Send(WatchEventType::kDeleted, WithVersion(MakeReadySnapshot("default", "s", "c"), "2"));
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 2));
  Stop();
  std::vector<std::string> calls = handler_.Calls();
  auto deleted = std::find(calls.begin(), calls.end(), "deleted default/s uid uid-s");
  ASSERT_NE(deleted, calls.end());
  EXPECT_NE(std::find(deleted, calls.end(), "sync content c rv 1"), calls.end())
      << "the content synced again only before its snapshot's deletion was reported";
  EXPECT_EQ(handler_.Count("sync snapshot default/s rv 1"), 1);  // nothing left to sync
  EXPECT_EQ(handler_.Count("deleted default/s uid uid-s"), 1);
}

// §4.2: a content deleted from the API queues the VolumeSnapshot its
// volumeSnapshotRef names, which may be waiting for it to go (§4.5 step 6).
TEST_F(ControllerTest, DeletedContentQueuesTheSnapshotItsRefNames) {
  VolumeSnapshot deleting = MakeReadySnapshot("default", "snap-1", "c");
  deleting.metadata.deletion_timestamp = kDeletionTime;
  Start(1, {deleting}, {MakeSettledContent("c")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/snap-1", 1));
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  Send(WatchEventType::kDeleted, WithVersion(MakeSettledContent("c"), "2"));
  EXPECT_TRUE(handler_.snapshots().AwaitFinished("default/snap-1", 2));
  Stop();
  EXPECT_EQ(handler_.Count("sync snapshot default/snap-1 rv 1"), 2);
}

// §4.4: a content sync answering kSyncSnapshot queues the content's snapshot.
TEST_F(ControllerTest, SyncSnapshotAnswerQueuesTheContentsSnapshot) {
  handler_.AskForSnapshotSync("c", 1);
  // The content answers only once the snapshot's first sync has started, so
  // its request cannot merge into that sync while it is still queued.
  handler_.snapshots().Block("default/snap-1");
  handler_.contents().Block("c");
  Start(1, {MakeSnapshot("default", "snap-1")}, {MakeContent("c")});
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/snap-1", 1));
  handler_.contents().Release("c");
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  handler_.snapshots().Release("default/snap-1");
  EXPECT_TRUE(handler_.snapshots().AwaitFinished("default/snap-1", 2));
  Stop();
  EXPECT_EQ(handler_.Count("sync snapshot default/snap-1 rv 1"), 2);
}

kube::PersistentVolumeClaim MakeClaim(std::string ns, std::string name, std::string version,
                                      bool protected_as_source) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = std::move(ns);
  claim.metadata.name = std::move(name);
  claim.metadata.resource_version = std::move(version);
  if (protected_as_source) claim.metadata.finalizers = {std::string(kClaimAsSourceFinalizer)};
  return claim;
}

// §9.14: a claim that comes to show the pvc-as-source-protection finalizer
// while a snapshot of it is ready queues that snapshot, whose last sync may
// have seen a cache without it; unready snapshots, other claims' snapshots
// and other claim changes queue nothing.
TEST_F(ControllerTest, ClaimNewlyShowingTheSourceFinalizerQueuesItsReadySnapshots) {
  VolumeSnapshot unready = MakeSnapshot("default", "unready");
  VolumeSnapshot of_other_claim = MakeReadySnapshot("default", "other", "c2");
  of_other_claim.spec.source.persistent_volume_claim_name = "claim-2";
  claim_lister_.SetItems({MakeClaim("default", "claim-1", "1", false)});
  Start(1, {MakeReadySnapshot("default", "ready", "c"), unready, of_other_claim});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/ready", 1));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/unready", 1));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/other", 1));

  // The one worker stays in the sync the finalizer brings, so whatever else
  // the claim's events queued is still in the queue when it is looked at.
  handler_.snapshots().Block("default/ready");
  kube::PersistentVolumeClaim labelled = MakeClaim("default", "claim-1", "2", false);
  labelled.metadata.labels["team"] = "a";
  Send(WatchEventType::kModified, labelled);
  Send(WatchEventType::kModified, MakeClaim("default", "claim-1", "3", true));
  Send(WatchEventType::kModified, MakeClaim("default", "claim-1", "4", true));  // still shows it
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/ready", 2));
  EXPECT_EQ(controller_->snapshot_queue().Len(), 0u);
  handler_.snapshots().Release("default/ready");
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/ready", 2));
  Stop();
  EXPECT_EQ(handler_.Count("sync snapshot default/ready rv 1"), 2);
  EXPECT_EQ(handler_.Count("sync snapshot default/unready rv 1"), 1);
  EXPECT_EQ(handler_.Count("sync snapshot default/other rv 1"), 1);
}

// §4.2: the error backoff is upstream's, start doubling up to the max, on
// each queue.
TEST_F(ControllerTest, SnapshotErrorsRetryWithExponentialBackoffUpToTheMax) {
  retry_interval_max_ = 4s;
  handler_.snapshots().Fail("default/s", 4);
  Start(1, {MakeSnapshot("default", "s")});
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/s", 1));
  size_t syncs = 1;
  for (TimePoint at : {kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s}) {
    AdvanceToTimer(at);
    ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/s", ++syncs));
  }
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 5));
  Stop();
  EXPECT_THAT(handler_.snapshots().StartTimes("default/s"),
              ElementsAre(kStart, kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s));
  EXPECT_EQ(controller_->snapshot_queue().NumRequeues("default/s"), 0);  // success forgot them
}

TEST_F(ControllerTest, ContentErrorsRetryWithExponentialBackoffUpToTheMax) {
  retry_interval_max_ = 4s;
  handler_.contents().Fail("c", 4);
  Start(1, {}, {MakeContent("c")});
  ASSERT_TRUE(handler_.contents().AwaitStarted("c", 1));
  size_t syncs = 1;
  for (TimePoint at : {kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s}) {
    AdvanceToTimer(at);
    ASSERT_TRUE(handler_.contents().AwaitStarted("c", ++syncs));
  }
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 5));
  Stop();
  EXPECT_THAT(handler_.contents().StartTimes("c"),
              ElementsAre(kStart, kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s));
  EXPECT_EQ(controller_->content_queue().NumRequeues("c"), 0);
}

// §9.3: the controller's own status and finalizer writes on a VolumeSnapshot
// queue nothing. One worker, one lane: the fence added after them syncs
// after anything they had queued.
TEST_F(ControllerTest, OwnSnapshotWritesCauseNoSync) {
  Start(1, {MakeSnapshot("default", "s")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  VolumeSnapshot protected_snapshot = WithVersion(MakeSnapshot("default", "s"), "2");
  protected_snapshot.metadata.finalizers = {std::string(kSnapshotAsSourceFinalizer)};
  protected_snapshot.metadata.has_finalizers_field = true;
  Send(WatchEventType::kModified, protected_snapshot);
  VolumeSnapshot bound = WithVersion(protected_snapshot, "3");
  bound.status.emplace();
  bound.status->bound_volume_snapshot_content_name = "c";
  bound.status->ready_to_use = false;
  Send(WatchEventType::kModified, bound);
  Send(WatchEventType::kAdded, MakeSnapshot("default", "fence"));
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/fence", 1));
  Stop();
  EXPECT_EQ(handler_.snapshots().StartTimes("default/s").size(), 1u);
}

// §9.3: another writer's finalizer is not ours to ignore.
TEST_F(ControllerTest, AnotherWritersSnapshotFinalizerIsSynced) {
  Start(1, {MakeSnapshot("default", "s")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  VolumeSnapshot kept = WithVersion(MakeSnapshot("default", "s"), "2");
  kept.metadata.finalizers = {"example.com/backup"};
  kept.metadata.has_finalizers_field = true;
  Send(WatchEventType::kModified, kept);
  EXPECT_TRUE(handler_.AwaitCall("sync snapshot default/s rv 2"));
  Stop();
}

// §9.3: the being-deleted annotation and the bound-protection finalizer the
// controller puts on a content queue nothing.
TEST_F(ControllerTest, OwnContentWritesCauseNoSync) {
  Start(1, {}, {MakeContent("c")});
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  VolumeSnapshotContent protected_content = WithVersion(MakeContent("c"), "2");
  protected_content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  protected_content.metadata.has_finalizers_field = true;
  Send(WatchEventType::kModified, protected_content);
  VolumeSnapshotContent marked = WithVersion(protected_content, "3");
  marked.metadata.annotations[snapshot::kBeingDeletedAnnotation] = "yes";
  Send(WatchEventType::kModified, marked);
  Send(WatchEventType::kAdded, MakeContent("fence"));
  ASSERT_TRUE(handler_.contents().AwaitFinished("fence", 1));
  Stop();
  EXPECT_EQ(handler_.contents().StartTimes("c").size(), 1u);
}

// §9.3, §4.4: the sidecar's status writes are synced, so the VolumeSnapshot
// mirrors them; so is its removal of the content's finalizer.
TEST_F(ControllerTest, SidecarsContentWritesAreSynced) {
  VolumeSnapshotContent content = MakeContent("c");
  content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  content.metadata.has_finalizers_field = true;
  Start(1, {}, {content});
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  VolumeSnapshotContent ready = WithVersion(content, "2");
  ready.status.emplace();
  ready.status->snapshot_handle = "snap-handle";
  ready.status->ready_to_use = true;
  Send(WatchEventType::kModified, ready);
  ASSERT_TRUE(handler_.AwaitCall("sync content c rv 2"));
  VolumeSnapshotContent released = WithVersion(ready, "3");
  released.metadata.deletion_timestamp = kDeletionTime;
  Send(WatchEventType::kModified, released);
  ASSERT_TRUE(handler_.AwaitCall("sync content c rv 3"));
  VolumeSnapshotContent unprotected = WithVersion(released, "4");
  unprotected.metadata.finalizers.clear();
  Send(WatchEventType::kModified, unprotected);
  EXPECT_TRUE(handler_.AwaitCall("sync content c rv 4"));
  Stop();
}

// §4.2, §9.3: a resync (same resourceVersion) syncs everything again.
TEST_F(ControllerTest, ResyncSyncsEverySnapshotAndContentAgain) {
  resync_period_ = 15min;
  Start(1, {MakeReadySnapshot("default", "s", "c")}, {MakeSettledContent("c")});
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  ASSERT_TRUE(handler_.contents().AwaitFinished("c", 1));
  // The snapshot, content and claim reflectors' resync timers (a claim
  // event can queue snapshots, §9.14); the other kinds have none.
  ASSERT_TRUE(
      clock_.AwaitSleeperDeadlines({kStart + 15min, kStart + 15min, kStart + 15min}, kTimerWait));
  clock_.Advance(15min);
  EXPECT_TRUE(handler_.snapshots().AwaitFinished("default/s", 2));
  EXPECT_TRUE(handler_.contents().AwaitFinished("c", 2));
  Stop();
}

// §9.5: a new VolumeSnapshot is synced before ready ones waiting for their
// resync (#1148), which then follow in order.
TEST_F(ControllerTest, NewSnapshotOvertakesQueuedResyncs) {
  std::vector<VolumeSnapshot> snapshots = {MakeSnapshot("default", "in-flight")};
  for (int i = 0; i < 5; ++i) {
    snapshots.push_back(MakeReadySnapshot("default", "ready-" + std::to_string(i), "c"));
  }
  handler_.snapshots().Block("default/in-flight");
  handler_.snapshots().Block("default/new");
  Start(1, snapshots);
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/in-flight", 1));
  Send(WatchEventType::kAdded, MakeSnapshot("default", "new"));  // waits in the queue
  handler_.snapshots().Release("default/in-flight");
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/new", 1));
  EXPECT_THAT(handler_.snapshots().Order(), ElementsAre("default/in-flight", "default/new"));
  handler_.snapshots().Release("default/new");
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/ready-4", 1));
  Stop();
  EXPECT_THAT(handler_.snapshots().Order(),
              ElementsAre("default/in-flight", "default/new", "default/ready-0", "default/ready-1",
                          "default/ready-2", "default/ready-3", "default/ready-4"));
}

// §9.5: the same for contents; protected ready contents are the resyncs.
TEST_F(ControllerTest, NewContentOvertakesQueuedResyncs) {
  std::vector<VolumeSnapshotContent> contents = {MakeContent("in-flight")};
  for (int i = 0; i < 5; ++i) contents.push_back(MakeSettledContent("ready-" + std::to_string(i)));
  handler_.contents().Block("in-flight");
  handler_.contents().Block("new");
  Start(1, {}, contents);
  ASSERT_TRUE(handler_.contents().AwaitStarted("in-flight", 1));
  Send(WatchEventType::kAdded, MakeContent("new"));
  handler_.contents().Release("in-flight");
  ASSERT_TRUE(handler_.contents().AwaitStarted("new", 1));
  EXPECT_THAT(handler_.contents().Order(), ElementsAre("in-flight", "new"));
  handler_.contents().Release("new");
  ASSERT_TRUE(handler_.contents().AwaitFinished("ready-4", 1));
  Stop();
  EXPECT_THAT(handler_.contents().Order(), ElementsAre("in-flight", "new", "ready-0", "ready-1",
                                                       "ready-2", "ready-3", "ready-4"));
}

// ControllerHandler's contract: never two calls for one VolumeSnapshot at
// once. A deletion reported while its sync runs waits for that sync, though
// another worker is free.
TEST_F(ControllerTest, SnapshotDeletedWaitsForTheSyncInFlight) {
  handler_.snapshots().Block("default/s");
  Start(2, {MakeSnapshot("default", "s")});
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/s", 1));
  Send(WatchEventType::kDeleted, WithVersion(MakeSnapshot("default", "s"), "2"));
  EXPECT_EQ(handler_.Count("deleted default/s uid uid-s"), 0);
  handler_.snapshots().Release("default/s");
  ASSERT_TRUE(handler_.AwaitCall("deleted default/s uid uid-s"));
  Stop();
  EXPECT_THAT(handler_.Calls(),
              ElementsAre("sync snapshot default/s rv 1", "deleted default/s uid uid-s"));
}

// A VolumeSnapshot deleted and created again under the same name before its
// key's turn: the old one's deletion is reported, then the new one syncs.
TEST_F(ControllerTest, SnapshotCreatedAgainSyncsAfterItsPredecessorsDeletion) {
  handler_.snapshots().Block("default/blocker");
  Start(1, {MakeSnapshot("default", "blocker"), MakeSnapshot("default", "s")});
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/blocker", 1));
  Send(WatchEventType::kDeleted, WithVersion(MakeSnapshot("default", "s"), "2"));
  VolumeSnapshot again = WithVersion(MakeSnapshot("default", "s"), "3");
  again.metadata.uid = "uid-again";
  Send(WatchEventType::kAdded, again);
  handler_.snapshots().Release("default/blocker");
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  Stop();
  EXPECT_THAT(handler_.Calls(),
              ElementsAre("sync snapshot default/blocker rv 1", "deleted default/s uid uid-s",
                          "sync snapshot default/s rv 3"));
}

// §4.2: no sync before every store holds a complete list.
TEST_F(ControllerTest, WaitsForEveryCacheBeforeWorking) {
  class_lister_.FailLists(1);
  claim_lister_.FailLists(1);
  volume_lister_.FailLists(1);
  Start(1, {MakeSnapshot("default", "s")}, {MakeContent("c")});
  // The three reflectors back off.
  ASSERT_TRUE(
      clock_.AwaitSleeperDeadlines({kStart + 800ms, kStart + 800ms, kStart + 800ms}, kTimerWait));
  EXPECT_TRUE(handler_.Calls().empty());
  clock_.Advance(800ms);
  EXPECT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  EXPECT_TRUE(handler_.contents().AwaitFinished("c", 1));
  Stop();
}

// §4.3 createSnapshotContent step 3: with distributed snapshotting the
// Nodes are cached too, complete before the first sync.
TEST_F(ControllerTest, WithANodeSourceNodesAreCachedBeforeTheFirstSync) {
  testsupport::FakeListerWatcher<kube::Node> node_lister;
  kube::Node node;
  node.metadata.name = "node-1";
  node.metadata.resource_version = "1";
  node_lister.SetItems({node});
  node_lister.FailLists(1);
  node_lister_ = &node_lister;
  Start(1, {MakeSnapshot("default", "s")}, {});
  // Only the Node reflector backs off, and the workers wait for it.
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({kStart + 800ms}, kTimerWait));
  EXPECT_TRUE(handler_.Calls().empty());
  EXPECT_EQ(informers_->StoreOf<kube::Node>().Size(), 0u);
  clock_.Advance(800ms);
  ASSERT_TRUE(handler_.snapshots().AwaitFinished("default/s", 1));
  Stop();
  EXPECT_NE(informers_->StoreOf<kube::Node>().Get("", "node-1"), nullptr);
}

TEST_F(ControllerTest, StopBeforeCachesSyncedReturns) {
  volume_lister_.FailLists(1000);
  Start(1, {MakeSnapshot("default", "s")}, {MakeContent("c")});
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({kStart + 800ms}, kTimerWait));
  Stop();
  EXPECT_TRUE(handler_.Calls().empty());
}

// §9.8: stop lets the syncs in flight on both queues finish and starts no
// queued one.
TEST_F(ControllerTest, RunReturnsOnlyAfterInFlightSyncsFinished) {
  int snapshots_finished_at_return = -1;
  int contents_finished_at_return = -1;
  on_run_returned_ = [&] {
    snapshots_finished_at_return = handler_.snapshots().Finished("default/s-1");
    contents_finished_at_return = handler_.contents().Finished("c-1");
  };
  handler_.snapshots().Block("default/s-1");
  handler_.contents().Block("c-1");
  // One worker per queue: s-2 and c-2 wait.
  Start(1, {MakeSnapshot("default", "s-1"), MakeSnapshot("default", "s-2")},
        {MakeContent("c-1"), MakeContent("c-2")});
  ASSERT_TRUE(handler_.snapshots().AwaitStarted("default/s-1", 1));
  ASSERT_TRUE(handler_.contents().AwaitStarted("c-1", 1));
  run_.request_stop();
  handler_.snapshots().Release("default/s-1");
  handler_.contents().Release("c-1");
  run_.join();
  EXPECT_EQ(snapshots_finished_at_return, 1);
  EXPECT_EQ(contents_finished_at_return, 1);
  EXPECT_THAT(handler_.snapshots().Order(), ElementsAre("default/s-1"));
  EXPECT_THAT(handler_.contents().Order(), ElementsAre("c-1"));
}

}  // namespace
}  // namespace snapshot_controller
