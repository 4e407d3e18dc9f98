#include "kube/runtime/controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "scripted_api.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/support/scripted_sync.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;
using testsupport::FakeListerWatcher;
using Lane = WorkQueue::Lane;

VolumeAttachment Va(const std::string& name, const std::string& resource_version = "1",
                    const std::string& pv = "") {
  VolumeAttachment va = testing::MakeVa(name, resource_version);
  if (!pv.empty()) va.spec.source.persistent_volume_name = pv;
  return va;
}

PersistentVolume Pv(const std::string& name, const std::string& resource_version = "1") {
  PersistentVolume pv;
  pv.metadata.name = name;
  pv.metadata.resource_version = resource_version;
  return pv;
}

// A controller of VolumeAttachments on fake sources, its reconciles
// recorded by a ScriptedSync.
class ControllerTest : public ::testing::Test {
 protected:
  ControllerTest() {
    informers_.UseSource(vas_);
    informers_.UseSource(pvs_);
  }
  void TearDown() override {
    runner_.request_stop();
    if (runner_.joinable()) runner_.join();
  }

  // A controller the fixture owns until after the runner has stopped.
  Controller<VolumeAttachment>& MakeController(testsupport::ScriptedSync& sync,
                                               PrimaryRules<VolumeAttachment> rules = {},
                                               std::string name = "vas") {
    return *controllers_.emplace_back(std::make_unique<Controller<VolumeAttachment>>(
        informers_, ControllerOptions{.name = std::move(name)}, std::move(rules),
        [this, &sync](const std::string& key, const Controller<VolumeAttachment>::Ptr& va) {
          {
            std::lock_guard lock(mu_);
            seen_[key].push_back(va ? va->metadata.resource_version : "gone");
          }
          return DoneOr(sync.Sync(key));
        },
        clock_));
  }
  template <class... Controllers>
  void Run(Controllers&... controllers) {
    runner_ = std::jthread([this, &controllers...](std::stop_token stop) {
      RunWithInformers(informers_, stop, controllers...);
    });
  }
  // The resourceVersion of the object each reconcile of `key` was given.
  std::vector<std::string> Seen(const std::string& key) {
    std::lock_guard lock(mu_);
    return seen_[key];
  }

  base::FakeClock clock_;
  FakeListerWatcher<VolumeAttachment> vas_;
  FakeListerWatcher<PersistentVolume> pvs_;
  InformerSet informers_{ReflectorOptions{}, clock_};
  testsupport::ScriptedSync sync_{clock_};
  testsupport::ScriptedSync other_sync_{clock_};
  std::vector<std::unique_ptr<Controller<VolumeAttachment>>> controllers_;
  std::atomic<int> pvs_at_reconcile_{-1};  // the PV store's size when a reconcile ran
  std::mutex mu_;
  std::map<std::string, std::vector<std::string>> seen_;  // guarded by mu_
  std::jthread runner_;                                   // last: stops before the rest goes
};

TEST_F(ControllerTest, InformerSetMakesOneInformerPerKindAndSelector) {
  EXPECT_EQ(&informers_.Get<VolumeAttachment>(), &informers_.Get<VolumeAttachment>());
  EXPECT_EQ(&informers_.StoreOf<VolumeAttachment>(), &informers_.Get<VolumeAttachment>().store());
  FakeListerWatcher<VolumeAttachment> selected;
  informers_.UseSource(selected, "a=b");
  EXPECT_NE(&informers_.Get<VolumeAttachment>("a=b"), &informers_.Get<VolumeAttachment>());
  EXPECT_THROW(informers_.UseSource(selected, "a=b"), std::logic_error);
  InformerSet without_client;
  EXPECT_THROW(without_client.Get<PersistentVolume>(), std::logic_error);
}

// Two controllers of one kind share its informer: one watch feeds both.
TEST_F(ControllerTest, ControllersOfOneKindShareItsInformer) {
  auto& first = MakeController(sync_);
  auto& second = MakeController(other_sync_, {}, "second");
  vas_.SetItems({Va("listed")});
  Run(first, second);
  ASSERT_TRUE(sync_.AwaitFinished("listed", 1));
  ASSERT_TRUE(other_sync_.AwaitFinished("listed", 1));
  vas_.Send(WatchEventType::kAdded, Va("watched", "2"));
  ASSERT_TRUE(sync_.AwaitFinished("watched", 1));
  ASSERT_TRUE(other_sync_.AwaitFinished("watched", 1));
}

TEST_F(ControllerTest, ReconcileGetsTheStoredObjectOrNullWhenGone) {
  auto& controller = MakeController(sync_);
  vas_.SetItems({Va("a", "5")});
  Run(controller);
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  vas_.Send(WatchEventType::kDeleted, Va("a", "6"));
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  EXPECT_THAT(Seen("a"), ElementsAre("5", "gone"));
}

TEST_F(ControllerTest, PrimaryRulesFilterUpdatesAndPickLanes) {
  PrimaryRules<VolumeAttachment> rules{
      .admits = [](const VolumeAttachment& va) { return va.metadata.name != "foreign"; },
      .update_needs_sync =
          [](const VolumeAttachment&, const VolumeAttachment& now) {
            return now.metadata.resource_version != "ignored";
          },
      .lane =
          [](const VolumeAttachment& va) {
            return va.metadata.name.starts_with("urgent") ? Lane::kUrgent : Lane::kNormal;
          },
      .on_delete = [](const auto&) { return std::nullopt; }};
  auto& controller = MakeController(sync_, std::move(rules));
  sync_.Block("first");
  vas_.SetItems({Va("first")});
  Run(controller);
  ASSERT_TRUE(sync_.AwaitStarted("first", 1));
  vas_.Send(WatchEventType::kAdded, Va("foreign"));
  vas_.Send(WatchEventType::kAdded, Va("normal"));
  vas_.Send(WatchEventType::kAdded, Va("urgent"));
  vas_.Send(WatchEventType::kModified, Va("first", "ignored"));
  vas_.Send(WatchEventType::kDeleted, Va("first", "ignored"));
  ASSERT_TRUE(vas_.AwaitDelivered(5));
  sync_.Release("first");
  vas_.Send(WatchEventType::kAdded, Va("last"));
  ASSERT_TRUE(sync_.AwaitFinished("last", 1));
  EXPECT_THAT(sync_.Order(), ElementsAre("first", "urgent", "normal", "last"));
}

// A resync hands every object over again as an update with its
// resourceVersion unchanged: it counts whatever update_needs_sync says.
TEST_F(ControllerTest, ResyncsAlwaysCount) {
  FakeListerWatcher<VolumeAttachment> vas;
  ReflectorOptions resyncing;
  resyncing.resync_period = 10min;
  InformerSet informers(resyncing, clock_);
  informers.UseSource(vas);
  Controller<VolumeAttachment> controller(
      informers, ControllerOptions{.name = "vas"},
      {.update_needs_sync = [](const VolumeAttachment&, const VolumeAttachment&) { return false; }},
      [this](const std::string& key, const Controller<VolumeAttachment>::Ptr&) {
        return DoneOr(sync_.Sync(key));
      },
      clock_);
  vas.SetItems({Va("a", "3")});
  std::jthread runner([&](std::stop_token stop) { RunWithInformers(informers, stop, controller); });
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  clock_.AwaitSleepers(1);  // the resync timer
  clock_.Advance(10min);
  ASSERT_TRUE(sync_.AwaitFinished("a", 2));
  runner.request_stop();
  runner.join();
}

TEST_F(ControllerTest, WatchesMapsSecondaryEventsToPrimaryKeys) {
  auto& controller = MakeController(sync_);
  controller.Watches<PersistentVolume>([](const Change<PersistentVolume>& change) {
    std::string type = change.type == Change<PersistentVolume>::Type::kAdded     ? "added"
                       : change.type == Change<PersistentVolume>::Type::kUpdated ? "updated"
                                                                                 : "deleted";
    if (change.type == Change<PersistentVolume>::Type::kUpdated &&
        change.old_object->metadata.resource_version != "1") {
      type += "-from-" + change.old_object->metadata.resource_version;
    }
    return std::vector<std::string>{"from-" + change.object.metadata.name + "-" + type};
  });
  pvs_.SetItems({Pv("pv")});
  Run(controller);
  ASSERT_TRUE(sync_.AwaitFinished("from-pv-added", 1));
  pvs_.Send(WatchEventType::kModified, Pv("pv", "2"));
  ASSERT_TRUE(sync_.AwaitFinished("from-pv-updated", 1));
  pvs_.Send(WatchEventType::kDeleted, Pv("pv", "3"));
  ASSERT_TRUE(sync_.AwaitFinished("from-pv-deleted", 1));
  // Keys of objects not in the primary store reconcile with none.
  EXPECT_THAT(Seen("from-pv-deleted"), ElementsAre("gone"));
}

// After the API server comes back (the watch broke, the kind was listed
// again), a key whose reconcile failed is reconciled at once with its backoff
// reset, not when the backoff of before ends; keys that succeeded are left
// alone.
TEST_F(ControllerTest, RelistAfterALostWatchRetriesFailedKeysAtOnce) {
  auto& controller = MakeController(sync_);
  sync_.Fail("failing", 2);
  vas_.SetItems({Va("failing"), Va("fine")});
  const base::Clock::TimePoint start = clock_.Now();
  Run(controller);
  ASSERT_TRUE(sync_.AwaitFinished("failing", 1));
  ASSERT_TRUE(sync_.AwaitFinished("fine", 1));
  vas_.BreakWatch();
  // The reflector backs off 800 ms; the failed key waits on its 1 s backoff.
  ASSERT_TRUE(
      clock_.AwaitSleeperDeadlines({start + 800ms, start + 1s}, testsupport::kHandOffTimeout));
  clock_.Advance(800ms);
  ASSERT_TRUE(sync_.AwaitFinished("failing", 2));
  // Failed again: back off from the start, the timer of before is gone.
  ASSERT_TRUE(clock_.AwaitSleeperDeadlines({start + 1800ms}, testsupport::kHandOffTimeout));
  clock_.Advance(1s);
  ASSERT_TRUE(sync_.AwaitFinished("failing", 3));
  EXPECT_THAT(sync_.StartTimes("failing"), ElementsAre(start, start + 800ms, start + 1800ms));
  EXPECT_EQ(sync_.StartTimes("fine").size(), 1u);
}

// The first reconcile finds the read-only store complete, although its list
// failed once and succeeded only after a backoff.
TEST_F(ControllerTest, WorkersWaitForEveryStoreTheControllerReads) {
  auto& controller = *controllers_.emplace_back(std::make_unique<Controller<VolumeAttachment>>(
      informers_, ControllerOptions{.name = "vas"}, PrimaryRules<VolumeAttachment>{},
      [this](const std::string& key, const Controller<VolumeAttachment>::Ptr&) {
        pvs_at_reconcile_ = static_cast<int>(informers_.StoreOf<PersistentVolume>().Size());
        return DoneOr(sync_.Sync(key));
      },
      clock_));
  controller.Reads<PersistentVolume>();
  pvs_.FailLists(1);
  vas_.SetItems({Va("a")});
  pvs_.SetItems({Pv("pv")});
  Run(controller);
  clock_.AwaitSleepers(1);  // the PV reflector backs off after its failed list
  clock_.Advance(800ms);
  ASSERT_TRUE(sync_.AwaitFinished("a", 1));
  EXPECT_EQ(pvs_at_reconcile_, 1);
  EXPECT_TRUE(controller.HasSynced());
}

}  // namespace
}  // namespace kube
