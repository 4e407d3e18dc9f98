// The Controller's test fixture: Run() on its own thread over scripted
// listers (snapshot and group kinds) and a scripted handler, a fake clock
// for timers, and helpers to send watch events and pass timers. With
// UseGroups() before Start(), the group informers and queues run too.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "kube/runtime/informer_set.h"
#include "kube/runtime/run_controllers.h"
#include "snapshot/names.h"
#include "snapshot_controller/controller.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/support/snapshot_objects.h"
#include "tests/unit/snapshot_controller/controller_fakes.h"

namespace snapshot_controller::testing {

using TimePoint = base::Clock::TimePoint;

inline constexpr TimePoint kStart{};
inline constexpr auto kTimerWait = std::chrono::seconds(5);
inline constexpr std::string_view kDeletionTime = "2024-01-01T00:00:00Z";

// A ready content its controller has protected: resyncs of it are routine.
inline kube::VolumeSnapshotContent MakeSettledContent(std::string name) {
  kube::VolumeSnapshotContent content = testsupport::MakeReadyContent(std::move(name));
  content.metadata.finalizers = {std::string(snapshot::kContentFinalizer)};
  content.metadata.has_finalizers_field = true;
  return content;
}

template <class T>
T WithVersion(T object, std::string resource_version) {
  object.metadata.resource_version = std::move(resource_version);
  return object;
}

class ControllerTest : public ::testing::Test {
 protected:
  using VolumeSnapshot = kube::VolumeSnapshot;
  using VolumeSnapshotContent = kube::VolumeSnapshotContent;
  using VolumeGroupSnapshot = kube::VolumeGroupSnapshot;
  using VolumeGroupSnapshotContent = kube::VolumeGroupSnapshotContent;

  // The group kinds are listed and watched, and the handler syncs them.
  void UseGroups(std::vector<VolumeGroupSnapshot> groups,
                 std::vector<VolumeGroupSnapshotContent> contents = {}) {
    group_lister_.SetItems(std::move(groups));
    group_content_lister_.SetItems(std::move(contents));
    group_handler_ = &handler_;
  }

  // Starts Run() on its own thread with the scripted listers.
  void Start(uint32_t workers, std::vector<VolumeSnapshot> snapshots,
             std::vector<VolumeSnapshotContent> contents = {}) {
    snapshot_lister_.SetItems(std::move(snapshots));
    content_lister_.SetItems(std::move(contents));
    kube::ReflectorOptions reflector_options;
    reflector_options.resync_period = resync_period_;
    informers_.emplace(reflector_options, clock_);
    informers_->UseSource(snapshot_lister_);
    informers_->UseSource(content_lister_);
    informers_->UseSource(class_lister_);
    informers_->UseSource(claim_lister_);
    informers_->UseSource(volume_lister_);
    if (node_lister_) informers_->UseSource(*node_lister_);
    if (group_handler_) {
      informers_->UseSource(group_lister_);
      informers_->UseSource(group_content_lister_);
      informers_->UseSource(group_class_lister_);
    }
    controller_.emplace(handler_, *informers_,
                        ControllerOptions{.worker_threads = workers,
                                          .retry_interval_start = std::chrono::seconds(1),
                                          .retry_interval_max = retry_interval_max_,
                                          .resync_period = resync_period_},
                        clock_, node_lister_ != nullptr, group_handler_);
    run_ = std::jthread([this](std::stop_token stop) {
      kube::RunWithInformers(*informers_, stop, *controller_);
      if (on_run_returned_) on_run_returned_();
    });
  }
  void Stop() {
    run_.request_stop();
    run_.join();
  }

  // Sends a watch event and waits until the controller has handled it.
  void Send(kube::WatchEventType type, const VolumeSnapshot& snapshot) {
    snapshot_lister_.Send(type, snapshot);
    ASSERT_TRUE(snapshot_lister_.AwaitDelivered(++snapshots_sent_));
  }
  void Send(kube::WatchEventType type, const VolumeSnapshotContent& content) {
    content_lister_.Send(type, content);
    ASSERT_TRUE(content_lister_.AwaitDelivered(++contents_sent_));
  }
  void Send(kube::WatchEventType type, const kube::PersistentVolumeClaim& claim) {
    claim_lister_.Send(type, claim);
    ASSERT_TRUE(claim_lister_.AwaitDelivered(++claims_sent_));
  }
  void Send(kube::WatchEventType type, const VolumeGroupSnapshot& group) {
    group_lister_.Send(type, group);
    ASSERT_TRUE(group_lister_.AwaitDelivered(++groups_sent_));
  }
  void Send(kube::WatchEventType type, const VolumeGroupSnapshotContent& content) {
    group_content_lister_.Send(type, content);
    ASSERT_TRUE(group_content_lister_.AwaitDelivered(++group_contents_sent_));
  }

  // Waits until the queue's timer is set for exactly `deadline`, then moves
  // the clock there.
  void AdvanceToTimer(TimePoint deadline) {
    ASSERT_TRUE(clock_.AwaitSleeperDeadlines({deadline}, kTimerWait))
        << "no timer for " << (deadline - kStart) / std::chrono::milliseconds(1) << "ms";
    clock_.Advance(deadline - clock_.Now());
  }

  std::chrono::milliseconds retry_interval_max_ = std::chrono::minutes(5);
  // None: no resync thread sleeps on clock_.
  std::chrono::milliseconds resync_period_ = std::chrono::milliseconds(0);
  // Called on Run's thread the moment Run returns.
  std::function<void()> on_run_returned_;
  int snapshots_sent_ = 0;
  int contents_sent_ = 0;
  int claims_sent_ = 0;
  int groups_sent_ = 0;
  int group_contents_sent_ = 0;
  base::FakeClock clock_;
  ScriptedControllerHandler handler_{clock_};
  GroupHandler* group_handler_ = nullptr;
  testsupport::FakeListerWatcher<VolumeSnapshot> snapshot_lister_;
  testsupport::FakeListerWatcher<VolumeSnapshotContent> content_lister_;
  testsupport::FakeListerWatcher<kube::VolumeSnapshotClass> class_lister_;
  testsupport::FakeListerWatcher<kube::PersistentVolumeClaim> claim_lister_;
  testsupport::FakeListerWatcher<kube::PersistentVolume> volume_lister_;
  testsupport::FakeListerWatcher<VolumeGroupSnapshot> group_lister_;
  testsupport::FakeListerWatcher<VolumeGroupSnapshotContent> group_content_lister_;
  testsupport::FakeListerWatcher<kube::VolumeGroupSnapshotClass> group_class_lister_;
  // With distributed snapshotting: Nodes are listed and watched here.
  testsupport::FakeListerWatcher<kube::Node>* node_lister_ = nullptr;
  std::optional<kube::InformerSet> informers_;
  std::optional<Controller> controller_;
  std::jthread run_;  // last: stops and joins before the rest goes
};

}  // namespace snapshot_controller::testing
