// docs/snapshots.md §3.3 and §3.8 for groups: the GroupContentController is
// the content controller over VolumeGroupSnapshotContents - its own queue
// (csi-snapshotter-groupsnapshotcontent), the group isDriverMatch with the
// group class's driver, no sync on the sidecar's own writes (§9.3) and the
// readiness cadence until the group is ready (§9.2) - driven through Run
// with scripted listers, a scripted handler and a fake clock.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "content_controller_fakes.h"
#include "snapshot/names.h"
#include "snapshotter/content_controller.h"

namespace snapshotter {
namespace {

using namespace std::chrono_literals;
using kube::VolumeGroupSnapshotClass;
using kube::VolumeGroupSnapshotContent;
using ::testing::ElementsAre;
using testing::kDone;
using testing::kPoll;
using testing::kSnapshotDriver;
using testing::kStart;
using ::testing::UnorderedElementsAre;

VolumeGroupSnapshotContent GroupContentOf(std::string name,
                                          std::string driver = std::string(kSnapshotDriver)) {
  VolumeGroupSnapshotContent content;
  content.metadata.name = std::move(name);
  content.metadata.resource_version = "1";
  content.spec.driver = std::move(driver);
  content.spec.source.volume_handles = {"vol-1", "vol-2"};
  return content;
}

VolumeGroupSnapshotClass GroupClassOf(std::string name, std::string driver) {
  VolumeGroupSnapshotClass group_class;
  group_class.metadata.name = std::move(name);
  group_class.driver = std::move(driver);
  return group_class;
}

class GroupContentControllerTest : public testing::ControllerWorld<GroupContentKind> {};

TEST_F(GroupContentControllerTest, QueueIsNamedLikeUpstream) {
  Start(1, {});
  EXPECT_EQ(controller_->queue().name(), "csi-snapshotter-groupsnapshotcontent");
  Stop();
}

// §3.3 isDriverMatch for groups: a source, the driver, and the group class's
// driver when that class is known.
TEST_F(GroupContentControllerTest, SyncsOnlyGroupContentsOfTheDriver) {
  VolumeGroupSnapshotContent no_source = GroupContentOf("no-source");
  no_source.spec.source.volume_handles.clear();
  VolumeGroupSnapshotContent class_of_other = GroupContentOf("class-of-other");
  class_of_other.spec.volume_group_snapshot_class_name = "other-class";
  VolumeGroupSnapshotContent imported = GroupContentOf("imported");
  imported.spec.source = {.group_snapshot_handles =
                              kube::GroupSnapshotHandles{.volume_group_snapshot_handle = "g",
                                                         .volume_snapshot_handles = {"s-1"}}};
  Start(1,
        {GroupContentOf("other-driver", "other.csi.example.com"), no_source, class_of_other,
         imported},
        {GroupClassOf("other-class", "other.csi.example.com")});
  // One worker: a content sent after the initial list is handled after it.
  content_lister_.Send(kube::WatchEventType::kAdded, GroupContentOf("last"));
  ASSERT_TRUE(handler_.AwaitFinished("last", 1));
  Stop();
  EXPECT_THAT(handler_.Order(), UnorderedElementsAre("imported", "last"));
}

// §9.3: the sidecar's own writes to a group content cause no sync; a change
// of the controller's (the being-deleted annotation) does.
TEST_F(GroupContentControllerTest, OwnWritesCauseNoSync) {
  Start(1, {GroupContentOf("g")});
  ASSERT_TRUE(handler_.AwaitFinished("g", 1));
  VolumeGroupSnapshotContent written = GroupContentOf("g");
  written.metadata.resource_version = "2";
  written.metadata.annotations[snapshot::kGroupBeingCreatedAnnotation] = "yes";
  written.status = kube::VolumeGroupSnapshotContentStatus{.ready_to_use = true};
  SendUpdate(written);
  VolumeGroupSnapshotContent deleting = written;
  deleting.metadata.resource_version = "3";
  deleting.metadata.annotations[snapshot::kGroupBeingDeletedAnnotation] = "yes";
  SendUpdate(deleting);
  ASSERT_TRUE(handler_.AwaitFinished("g", 2));
  Stop();
  EXPECT_THAT(handler_.ResourceVersions("g"), ElementsAre("1", "3"));
}

// §9.2 for groups: an unready group is polled at the readiness cadence.
TEST_F(GroupContentControllerTest, UnreadyGroupIsPolledAtTheReadinessCadence) {
  handler_.Script("g", {kPoll, kPoll, kPoll, kDone});
  Start(1, {GroupContentOf("g")});
  ASSERT_TRUE(handler_.AwaitStarted("g", 1));
  std::vector<base::Clock::TimePoint> expected = {kStart};
  for (auto delay : {1s, 2s, 4s}) {
    expected.push_back(expected.back() + delay);
    AdvanceToTimer(expected.back());
    ASSERT_TRUE(handler_.AwaitStarted("g", expected.size()));
  }
  ASSERT_TRUE(handler_.AwaitFinished("g", 4));
  Stop();
  EXPECT_EQ(handler_.StartTimes("g"), expected);
}

}  // namespace
}  // namespace snapshotter
