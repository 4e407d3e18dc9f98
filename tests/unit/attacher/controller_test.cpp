#include "attacher/controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <thread>

#include "controller_fakes.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"

namespace attacher {
namespace {

using namespace std::chrono_literals;
using kube::CSINode;
using kube::PersistentVolume;
using kube::VolumeAttachment;
using ::testing::ElementsAre;
using testing::FakeHandler;
using testing::FakeListerWatcher;
using testing::kDriver;
using testing::MakeCsiPv;
using testing::MakeDeletedPvWithFinalizer;
using testing::MakeVa;

// docs/attacher.md §5.1: informers, queues, workers.
class ControllerTest : public ::testing::Test {
 protected:
  // Starts the informers and Run() on its own thread with the scripted listers.
  void Start(uint32_t workers, std::vector<VolumeAttachment> vas,
             std::vector<PersistentVolume> pvs = {}) {
    va_lister_.SetItems(std::move(vas));
    pv_lister_.SetItems(std::move(pvs));
    ControllerOptions options{.worker_threads = workers,
                              .retry_interval_start = 1s,
                              .retry_interval_max = 5min,
                              .resync_period = resync_period_};
    kube::ReflectorOptions reflector_options;
    reflector_options.resync_period = resync_period_;
    informers_.emplace(reflector_options, clock_);
    informers_->UseSource(va_lister_);
    informers_->UseSource(pv_lister_);
    if (csi_node_lister_) {
      informers_->UseSource(*csi_node_lister_);
      informers_->StoreOf<CSINode>();  // as the CSI handler takes it
    }
    controller_.emplace(std::string(kDriver), handler_, *informers_, options, clock_, &va_metrics_,
                        &pv_metrics_);
    run_ = std::jthread([this](std::stop_token stop) {
      kube::RunWithInformers(*informers_, stop, *controller_);
      if (on_run_returned_) on_run_returned_();
    });
  }
  void Stop() {
    run_.request_stop();
    run_.join();
  }
  kube::Store<VolumeAttachment>& va_store() { return informers_->StoreOf<VolumeAttachment>(); }
  kube::Store<CSINode>& csi_node_store() { return informers_->StoreOf<CSINode>(); }

  std::chrono::milliseconds resync_period_ = 0ms;  // none: no resync thread sleeps on clock_
  // Called on Run's thread the moment Run returns.
  std::function<void()> on_run_returned_;
  base::FakeClock clock_;
  FakeHandler handler_{clock_};
  FakeListerWatcher<VolumeAttachment> va_lister_;
  FakeListerWatcher<PersistentVolume> pv_lister_;
  FakeListerWatcher<CSINode>* csi_node_lister_ = nullptr;
  testing::CountingQueueMetrics va_metrics_;
  testing::CountingQueueMetrics pv_metrics_;
  std::optional<kube::InformerSet> informers_;
  std::optional<Controller> controller_;
  std::jthread run_;  // last: stops and joins before the rest goes
};

TEST_F(ControllerTest, QueuesAreNamedLikeUpstream) {
  Start(1, {});
  EXPECT_EQ(controller_->volume_attachment_queue().name(), "csi-attacher-va");
  EXPECT_EQ(controller_->persistent_volume_queue().name(), "csi-attacher-pv");
  Stop();
}

TEST_F(ControllerTest, SyncsEachVolumeAttachmentOnce) {
  Start(2, {MakeVa("va-1"), MakeVa("va-2")});
  ASSERT_TRUE(controller_->WaitForCacheSync(run_.get_stop_token()));
  EXPECT_TRUE(controller_->HasSynced());
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 1));
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-2", 1));
  Stop();
  EXPECT_EQ(handler_.VolumeAttachmentSyncTimes("va-1").size(), 1u);
  EXPECT_EQ(handler_.VolumeAttachmentSyncTimes("va-2").size(), 1u);
}

TEST_F(ControllerTest, OtherDriversVolumeAttachmentIsQueuedButNotSynced) {
  // One worker and FIFO order: the other driver's VA is handled before ours.
  Start(1, {MakeVa("other", "pv-1", "other.csi.example.com"), MakeVa("ours")});
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("ours", 1));
  Stop();
  EXPECT_EQ(va_metrics_.adds, 2);
  EXPECT_THAT(handler_.SyncedVolumeAttachments(), ElementsAre("ours"));
}

TEST_F(ControllerTest, RetriesFailingVolumeAttachmentWithExponentialBackoff) {
  handler_.FailVolumeAttachment("va-1", 3);
  Start(1, {MakeVa("va-1")});
  ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("va-1", 1));
  size_t syncs = 1;
  for (auto backoff : {1s, 2s, 4s}) {
    clock_.AwaitSleepers(1);  // the queue's timer waits for the retry
    clock_.Advance(backoff - 1ms);
    clock_.Advance(1ms);
    ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("va-1", ++syncs));
  }
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 4));
  Stop();
  base::Clock::TimePoint start{};
  EXPECT_THAT(handler_.VolumeAttachmentSyncTimes("va-1"),
              ElementsAre(start, start + 1s, start + 3s, start + 7s));
  // Success forgot the failures: the next failure would start at 1 s again.
  EXPECT_EQ(controller_->volume_attachment_queue().NumRequeues("va-1"), 0);
}

TEST_F(ControllerTest, NeverSyncsOneVolumeAttachmentConcurrently) {
  handler_.Block("va-1");
  Start(4, {MakeVa("va-1"), MakeVa("va-2")});
  ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("va-1", 1));
  // Re-adds while va-1 is in flight collapse into one later sync; other
  // workers neither take va-1 nor wait for it.
  for (int i = 0; i < 3; ++i) controller_->EnqueueVolumeAttachment("va-1");
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-2", 1));
  EXPECT_EQ(handler_.VolumeAttachmentSyncTimes("va-1").size(), 1u);
  handler_.Release("va-1");
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 2));
  Stop();
  EXPECT_EQ(handler_.VolumeAttachmentSyncTimes("va-1").size(), 2u);
  EXPECT_EQ(handler_.MaxConcurrentSyncsOfOneKey(), 1);
}

// #761: a burst of queued detaches does not delay a new attachment.
TEST_F(ControllerTest, NewAttachmentIsSyncedBeforeQueuedDetaches) {
  std::vector<VolumeAttachment> vas = {MakeVa("in-flight")};
  for (int i = 0; i < 5; ++i) {
    VolumeAttachment detaching = MakeVa("detach-" + std::to_string(i));
    detaching.status.attached = true;
    detaching.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
    vas.push_back(std::move(detaching));
  }
  // One worker, held by the first sync while the new attachment arrives, and
  // then by the next one so the order is settled.
  handler_.Block("in-flight");
  handler_.Block("new-attach");
  Start(1, vas);
  ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("in-flight", 1));
  va_lister_.Send(kube::WatchEventType::kAdded, MakeVa("new-attach"));
  ASSERT_TRUE(va_lister_.AwaitDelivered(1));  // new-attach waits in the queue

  handler_.Release("in-flight");
  ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("new-attach", 1));
  EXPECT_THAT(handler_.VolumeAttachmentSyncOrder(), ElementsAre("in-flight", "new-attach"));
  handler_.Release("new-attach");
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("detach-4", 1));
  Stop();
  // The detaches then follow in the order they were listed.
  EXPECT_THAT(handler_.VolumeAttachmentSyncOrder(),
              ElementsAre("in-flight", "new-attach", "detach-0", "detach-1", "detach-2", "detach-3",
                          "detach-4"));
}

TEST_F(ControllerTest, DeletedVolumeAttachmentQueuesItsPersistentVolume) {
  Start(1, {MakeVa("va-1", "pv-1")}, {MakeCsiPv("pv-1")});
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 1));
  VolumeAttachment deleted = MakeVa("va-1", "pv-1");
  deleted.metadata.resource_version = "2";
  va_lister_.Send(kube::WatchEventType::kDeleted, deleted);
  ASSERT_TRUE(handler_.AwaitPersistentVolumeSync("pv-1"));
  Stop();
}

TEST_F(ControllerTest, SyncsOnlyDeletedPersistentVolumesWithOurFinalizer) {
  PersistentVolume finalized = MakeCsiPv("pv-finalized");
  finalized.metadata.finalizers = {FinalizerFor(kDriver)};
  Start(1, {}, {MakeCsiPv("pv-plain"), finalized, MakeDeletedPvWithFinalizer("pv-deleted")});
  ASSERT_TRUE(handler_.AwaitPersistentVolumeSync("pv-deleted"));
  // The deletion of pv-finalized arrives by watch and queues it too.
  PersistentVolume deleting = MakeDeletedPvWithFinalizer("pv-finalized");
  deleting.metadata.resource_version = "2";
  pv_lister_.Send(kube::WatchEventType::kModified, deleting);
  ASSERT_TRUE(handler_.AwaitPersistentVolumeSync("pv-finalized"));
  Stop();
  EXPECT_THAT(handler_.PersistentVolumeSyncs(), ElementsAre("pv-deleted", "pv-finalized"));
}

TEST_F(ControllerTest, VolumeAttachmentGoneFromCacheIsDropped) {
  Start(1, {});
  ASSERT_TRUE(controller_->WaitForCacheSync(run_.get_stop_token()));
  va_store().Upsert(std::make_shared<const VolumeAttachment>(MakeVa("va-1")));
  controller_->EnqueueVolumeAttachment("never-existed");
  controller_->EnqueueVolumeAttachment("va-1");
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 1));
  Stop();
  EXPECT_THAT(handler_.SyncedVolumeAttachments(), ElementsAre("va-1"));
  EXPECT_EQ(controller_->volume_attachment_queue().NumRequeues("never-existed"), 0);
}

TEST_F(ControllerTest, WaitsForPersistentVolumesButNotCsiNodesBeforeWorking) {
  FakeListerWatcher<CSINode> csi_nodes;
  csi_nodes.FailLists(1000);  // CSINodes never list
  csi_node_lister_ = &csi_nodes;
  pv_lister_.FailLists(1);
  Start(1, {MakeVa("va-1")});
  // Both reflectors that failed now back off on the fake clock.
  clock_.AwaitSleepers(2);
  EXPECT_FALSE(controller_->HasSynced());
  EXPECT_TRUE(handler_.SyncedVolumeAttachments().empty());
  clock_.Advance(800ms);  // the reflectors' first backoff
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 1));
  EXPECT_TRUE(controller_->HasSynced());
  Stop();
}

TEST_F(ControllerTest, CsiNodesFillTheirStore) {
  FakeListerWatcher<CSINode> csi_nodes;
  csi_nodes.SetItems({testing::MakeCsiNode("node-1", "d", "id-1")});
  csi_node_lister_ = &csi_nodes;
  Start(1, {});
  csi_nodes.Send(kube::WatchEventType::kAdded, testing::MakeCsiNode("node-2", "d", "id-2"));
  ASSERT_TRUE(csi_nodes.AwaitDelivered(1));
  Stop();
  std::vector<std::string> node_ids;
  for (const auto& csi_node : csi_node_store().List()) {
    node_ids.push_back(csi_node->metadata.name + "=" + csi_node->spec.drivers.at(0).node_id);
  }
  EXPECT_THAT(node_ids, ::testing::UnorderedElementsAre("node-1=id-1", "node-2=id-2"));
}

TEST_F(ControllerTest, ResyncSyncsEveryVolumeAttachmentAgain) {
  resync_period_ = 10min;
  Start(1, {MakeVa("va-1")});
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 1));
  clock_.AwaitSleepers(2);  // the VA and PV reflectors' resync timers
  clock_.Advance(10min);
  ASSERT_TRUE(handler_.AwaitFinishedVolumeAttachmentSyncs("va-1", 2));
  Stop();
}

TEST_F(ControllerTest, StopBeforeCachesSyncedReturns) {
  pv_lister_.FailLists(1000);
  Start(1, {MakeVa("va-1")});
  clock_.AwaitSleepers(1);  // the PV reflector backs off
  Stop();
  EXPECT_FALSE(controller_->HasSynced());
  std::stop_source stopped;
  stopped.request_stop();
  EXPECT_FALSE(controller_->WaitForCacheSync(stopped.get_token()));
  EXPECT_TRUE(handler_.SyncedVolumeAttachments().empty());
}

TEST_F(ControllerTest, RunReturnsOnlyAfterInFlightSyncFinished) {
  int va_1_syncs_finished_at_return = -1;
  on_run_returned_ = [&] {
    va_1_syncs_finished_at_return = handler_.FinishedVolumeAttachmentSyncs("va-1");
  };
  handler_.Block("va-1");
  Start(1, {MakeVa("va-1"), MakeVa("va-2")});  // one worker: va-2 waits behind va-1
  ASSERT_TRUE(handler_.AwaitVolumeAttachmentSyncs("va-1", 1));
  // The queues stop taking work before request_stop() returns; Run must then
  // wait for va-1, whenever it is released.
  run_.request_stop();
  handler_.Release("va-1");
  run_.join();
  EXPECT_EQ(va_1_syncs_finished_at_return, 1);
  // Queued work is not started after stop.
  EXPECT_THAT(handler_.SyncedVolumeAttachments(), ElementsAre("va-1"));
}

}  // namespace
}  // namespace attacher
