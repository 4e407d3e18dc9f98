// docs/snapshots.md §3.3 (informers, queue, driver match, backoff), §9.2
// (readiness cadence), §9.3 (own writes cause no sync), §9.5 (new work
// before resyncs) and §9.12 (the handler gets the newest content), driven
// through ContentController::Run with scripted listers, a scripted handler
// and a fake clock.
#include "snapshotter/content_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "content_controller_fakes.h"
#include "snapshot/names.h"

namespace snapshotter {
namespace {

using namespace std::chrono_literals;
using kube::VolumeSnapshotClass;
using kube::VolumeSnapshotContent;
using ::testing::ElementsAre;
using testing::kDone;
using testing::kError;
using testing::kPoll;
using testing::kSnapshotDriver;
using testing::MakeClass;
using testing::MakeContent;
using testing::MakeReadyContent;
using ::testing::UnorderedElementsAre;
using TimePoint = base::Clock::TimePoint;

using testing::kStart;

class ContentControllerTest : public testing::ControllerWorld<SnapshotContentKind> {};

TEST_F(ContentControllerTest, QueueIsNamedLikeUpstream) {
  Start(1, {});
  EXPECT_EQ(controller_->queue().name(), "csi-snapshotter-content");
  Stop();
}

TEST_F(ContentControllerTest, SyncsEachOfOurContentsOnce) {
  Start(2, {MakeContent("c-1"), MakeContent("c-2")});
  ASSERT_TRUE(handler_.AwaitFinished("c-1", 1));
  ASSERT_TRUE(handler_.AwaitFinished("c-2", 1));
  Stop();
  EXPECT_EQ(handler_.StartTimes("c-1").size(), 1u);
  EXPECT_EQ(handler_.StartTimes("c-2").size(), 1u);
}

// §3.3 isDriverMatch: source, driver, and the class's driver when known.
TEST_F(ContentControllerTest, SyncsOnlyContentsThatMatchTheDriver) {
  VolumeSnapshotContent no_source = MakeContent("no-source");
  no_source.spec.source.volume_handle.reset();
  VolumeSnapshotContent class_of_other = MakeContent("class-of-other");
  class_of_other.spec.volume_snapshot_class_name = "other-class";
  VolumeSnapshotContent unknown_class = MakeContent("unknown-class");
  unknown_class.spec.volume_snapshot_class_name = "no-such-class";
  VolumeSnapshotContent imported = MakeContent("imported");
  imported.spec.source.volume_handle.reset();
  imported.spec.source.snapshot_handle = "snap-7";
  Start(1,
        {MakeContent("other-driver", "other.csi.example.com"), no_source, class_of_other,
         unknown_class, imported},
        {MakeClass("other-class", "other.csi.example.com")});
  // One worker: a content sent after the initial list is handled after it.
  content_lister_.Send(kube::WatchEventType::kAdded, MakeContent("last"));
  ASSERT_TRUE(handler_.AwaitFinished("last", 1));
  Stop();
  EXPECT_THAT(handler_.Order(), UnorderedElementsAre("unknown-class", "imported", "last"));
}

// Other drivers' contents never reach the queue (the class cannot make a
// content of another driver ours).
TEST_F(ContentControllerTest, OtherDriversContentsAreNotQueued) {
  Start(1, {MakeContent("other", "other.csi.example.com"), MakeContent("ours")});
  ASSERT_TRUE(handler_.AwaitFinished("ours", 1));
  Stop();
  EXPECT_EQ(metrics_.adds, 1);
}

// §3.3: the error backoff is upstream's, start doubling up to the max.
TEST_F(ContentControllerTest, ErrorsRetryWithExponentialBackoffUpToTheMax) {
  retry_interval_max_ = 4s;
  handler_.Script("c", {kError, kError, kError, kError, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  size_t syncs = 1;
  for (TimePoint at : {kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s}) {
    AdvanceToTimer(at);
    ASSERT_TRUE(handler_.AwaitStarted("c", ++syncs));
  }
  ASSERT_TRUE(handler_.AwaitFinished("c", 5));
  Stop();
  EXPECT_THAT(handler_.StartTimes("c"),
              ElementsAre(kStart, kStart + 1s, kStart + 3s, kStart + 7s, kStart + 11s));
  EXPECT_EQ(controller_->queue().NumRequeues("c"), 0);  // success forgot the failures
}

// §9.2: an unready snapshot is polled at start, doubling, capped at 30 s.
TEST_F(ContentControllerTest, ReadinessPollsDoubleUpToThirtySeconds) {
  handler_.Script("c", {kPoll, kPoll, kPoll, kPoll, kPoll, kPoll, kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  std::vector<TimePoint> expected = {kStart};
  for (auto delay : {1s, 2s, 4s, 8s, 16s, 30s, 30s}) {
    expected.push_back(expected.back() + delay);
    AdvanceToTimer(expected.back());
    ASSERT_TRUE(handler_.AwaitStarted("c", expected.size()));
  }
  ASSERT_TRUE(handler_.AwaitFinished("c", 8));
  Stop();
  EXPECT_EQ(handler_.StartTimes("c"), expected);
}

// §9.2: --retry-interval-max below 30 s caps the readiness cadence too.
TEST_F(ContentControllerTest, ReadinessCadenceIsCappedByALowerRetryIntervalMax) {
  retry_interval_max_ = 3s;
  handler_.Script("c", {kPoll, kPoll, kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  std::vector<TimePoint> expected = {kStart};
  for (auto delay : {1s, 2s, 3s}) {
    expected.push_back(expected.back() + delay);
    AdvanceToTimer(expected.back());
    ASSERT_TRUE(handler_.AwaitStarted("c", expected.size()));
  }
  ASSERT_TRUE(handler_.AwaitFinished("c", 4));
  Stop();
  EXPECT_EQ(handler_.StartTimes("c"), expected);
}

// §9.2: the two cadences are independent. An error between polls retries
// after the error backoff (forgotten by each poll, a successful sync) and
// leaves the readiness cadence where it was.
TEST_F(ContentControllerTest, ErrorsAndPollsKeepTheirOwnCadences) {
  handler_.Script("c", {kError, kError, kPoll, kPoll, kError, kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  std::vector<TimePoint> expected = {kStart};
  //                 error error poll poll error poll
  for (auto delay : {1s, 2s, 1s, 2s, 1s, 4s}) {
    expected.push_back(expected.back() + delay);
    AdvanceToTimer(expected.back());
    ASSERT_TRUE(handler_.AwaitStarted("c", expected.size()));
  }
  ASSERT_TRUE(handler_.AwaitFinished("c", 7));
  Stop();
  EXPECT_EQ(handler_.StartTimes("c"), expected);
}

// kDone forgets the readiness cadence: a later change polls from the start.
TEST_F(ContentControllerTest, DoneForgetsTheReadinessCadence) {
  handler_.Script("c", {kPoll, kPoll, kDone, kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  AdvanceToTimer(kStart + 1s);
  AdvanceToTimer(kStart + 3s);
  ASSERT_TRUE(handler_.AwaitFinished("c", 3));
  VolumeSnapshotContent deleted = MakeContent("c");
  deleted.metadata.resource_version = "2";
  deleted.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  SendUpdate(deleted);
  ASSERT_TRUE(handler_.AwaitStarted("c", 4));
  AdvanceToTimer(kStart + 4s);
  ASSERT_TRUE(handler_.AwaitFinished("c", 5));
  Stop();
  EXPECT_THAT(handler_.StartTimes("c"),
              ElementsAre(kStart, kStart + 1s, kStart + 3s, kStart + 3s, kStart + 4s));
}

// §9.3 and §9.2: the sidecar's own writes between polls cause no sync and
// do not move the cadence; the next poll sees them (§9.12).
TEST_F(ContentControllerTest, OwnWritesNeitherSyncNorLengthenTheCadence) {
  handler_.Script("c", {kPoll, kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitFinished("c", 1));
  EXPECT_EQ(metrics_.adds, 1);

  VolumeSnapshotContent annotated = MakeContent("c");
  annotated.metadata.resource_version = "2";
  annotated.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  SendUpdate(annotated);
  VolumeSnapshotContent with_status = annotated;
  with_status.metadata.resource_version = "3";
  with_status.status.emplace();
  with_status.status->snapshot_handle = "snap-1";
  with_status.status->ready_to_use = false;
  SendUpdate(with_status);
  EXPECT_EQ(metrics_.adds, 1);  // neither write queued the content

  AdvanceToTimer(kStart + 1s);
  ASSERT_TRUE(handler_.AwaitFinished("c", 2));
  VolumeSnapshotContent ready = with_status;
  ready.metadata.resource_version = "4";
  ready.metadata.annotations.erase(snapshot::kBeingCreatedAnnotation);
  ready.status->ready_to_use = true;
  SendUpdate(ready);
  AdvanceToTimer(kStart + 3s);
  ASSERT_TRUE(handler_.AwaitFinished("c", 3));
  Stop();
  EXPECT_THAT(handler_.StartTimes("c"), ElementsAre(kStart, kStart + 1s, kStart + 3s));
  EXPECT_THAT(handler_.ResourceVersions("c"), ElementsAre("1", "3", "4"));
}

// §3.3: changes the sidecar must act on are synced at once, whatever cadence
// is pending.
TEST_F(ContentControllerTest, DeletionIsSyncedAtOnceWhilePolling) {
  handler_.Script("c", {kPoll, kDone});
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitFinished("c", 1));
  VolumeSnapshotContent deleted = MakeContent("c");
  deleted.metadata.resource_version = "2";
  deleted.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  SendUpdate(deleted);
  ASSERT_TRUE(handler_.AwaitFinished("c", 2));
  Stop();
  EXPECT_THAT(handler_.StartTimes("c"), ElementsAre(kStart, kStart));
  EXPECT_THAT(handler_.ResourceVersions("c"), ElementsAre("1", "2"));
}

// §9.12: a sync started after updates gets the newest of them, even when the
// newest is one of the sidecar's own writes that queued nothing.
TEST_F(ContentControllerTest, HandlerGetsTheNewestContent) {
  handler_.Block("c");
  Start(1, {MakeContent("c")});
  ASSERT_TRUE(handler_.AwaitStarted("c", 1));
  VolumeSnapshotContent bound = MakeContent("c");
  bound.metadata.resource_version = "2";
  bound.spec.volume_snapshot_ref.uid = "uid-2";
  SendUpdate(bound);
  VolumeSnapshotContent annotated = bound;
  annotated.metadata.resource_version = "3";
  annotated.metadata.annotations[snapshot::kBeingCreatedAnnotation] = "yes";
  SendUpdate(annotated);
  handler_.Release("c");
  ASSERT_TRUE(handler_.AwaitFinished("c", 2));
  Stop();
  EXPECT_THAT(handler_.ResourceVersions("c"), ElementsAre("1", "3"));
  EXPECT_EQ(handler_.MaxConcurrentSyncsOfOneName(), 1);
}

// A content deleted while a poll is pending is not synced again.
TEST_F(ContentControllerTest, DeletedContentIsNoLongerSynced) {
  handler_.Script("c", {kPoll});
  Start(1, {MakeContent("c"), MakeContent("d")});
  ASSERT_TRUE(handler_.AwaitFinished("c", 1));
  ASSERT_TRUE(handler_.AwaitFinished("d", 1));
  VolumeSnapshotContent gone = MakeContent("c");
  gone.metadata.resource_version = "2";
  content_lister_.Send(kube::WatchEventType::kDeleted, gone);
  ASSERT_TRUE(content_lister_.AwaitDelivered(1));
  AdvanceToTimer(kStart + 1s);
  // One worker, FIFO: d's sync after the timer proves c's turn has passed.
  VolumeSnapshotContent d = MakeContent("d");
  d.metadata.resource_version = "2";
  d.metadata.labels["touched"] = "yes";
  SendUpdate(d);
  ASSERT_TRUE(handler_.AwaitFinished("d", 2));
  Stop();
  EXPECT_EQ(handler_.StartTimes("c").size(), 1u);
}

// §9.5: a new snapshot is synced before ready contents waiting for their
// resync (#1148), which then follow in order.
TEST_F(ContentControllerTest, NewSnapshotOvertakesQueuedResyncs) {
  std::vector<VolumeSnapshotContent> contents = {MakeContent("in-flight")};
  for (int i = 0; i < 5; ++i) contents.push_back(MakeReadyContent("ready-" + std::to_string(i)));
  handler_.Block("in-flight");
  handler_.Block("new");
  Start(1, contents);
  ASSERT_TRUE(handler_.AwaitStarted("in-flight", 1));
  content_lister_.Send(kube::WatchEventType::kAdded, MakeContent("new"));
  ASSERT_TRUE(content_lister_.AwaitDelivered(1));  // new waits in the queue
  handler_.Release("in-flight");
  ASSERT_TRUE(handler_.AwaitStarted("new", 1));
  EXPECT_THAT(handler_.Order(), ElementsAre("in-flight", "new"));
  handler_.Release("new");
  ASSERT_TRUE(handler_.AwaitFinished("ready-4", 1));
  Stop();
  EXPECT_THAT(handler_.Order(), ElementsAre("in-flight", "new", "ready-0", "ready-1", "ready-2",
                                            "ready-3", "ready-4"));
}

// §3.3: a resync (same resourceVersion) always syncs again.
TEST_F(ContentControllerTest, ResyncSyncsEveryContentAgain) {
  resync_period_ = 15min;
  Start(1, {MakeReadyContent("c")});
  ASSERT_TRUE(handler_.AwaitFinished("c", 1));
  // The content reflector's resync timer; classes are only read, so their
  // informer has no resync.
  AdvanceToTimer(kStart + 15min);
  ASSERT_TRUE(handler_.AwaitFinished("c", 2));
  Stop();
}

TEST_F(ContentControllerTest, WaitsForClassesBeforeWorking) {
  class_lister_.FailLists(1);
  Start(1, {MakeContent("c")});
  clock_.AwaitSleepers(1);  // the class reflector backs off
  EXPECT_TRUE(handler_.Order().empty());
  clock_.Advance(800ms);  // the reflector's first backoff
  ASSERT_TRUE(handler_.AwaitFinished("c", 1));
  Stop();
}

TEST_F(ContentControllerTest, StopBeforeCachesSyncedReturns) {
  class_lister_.FailLists(1000);
  Start(1, {MakeContent("c")});
  clock_.AwaitSleepers(1);
  Stop();
  EXPECT_TRUE(handler_.Order().empty());
}

// §9.8: stop waits for the sync in flight (its CSI call included) and starts
// no queued one.
TEST_F(ContentControllerTest, RunReturnsOnlyAfterInFlightSyncFinished) {
  int finished_at_return = -1;
  on_run_returned_ = [&] { finished_at_return = handler_.Finished("c-1"); };
  handler_.Block("c-1");
  Start(1, {MakeContent("c-1"), MakeContent("c-2")});  // one worker: c-2 waits
  ASSERT_TRUE(handler_.AwaitStarted("c-1", 1));
  run_.request_stop();
  handler_.Release("c-1");
  run_.join();
  EXPECT_EQ(finished_at_return, 1);
  EXPECT_THAT(handler_.Order(), ElementsAre("c-1"));
}

}  // namespace
}  // namespace snapshotter
