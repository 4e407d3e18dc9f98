// Group snapshots with the whole stack (docs/snapshots.md §3.8; §4.7 for the
// controller's half): upstream's snapshot-controller, a csi-snapshotter
// sidecar and the fault driver's GroupController take a VolumeGroupSnapshot
// of three labelled bound claims - one CreateVolumeGroupSnapshot with their
// three volume handles, a ready group content whose info list names the
// three members, three member snapshots and contents, all ready - and delete
// it all again with one DeleteVolumeGroupSnapshot. The pair test runs with
// upstream's sidecar and ours; the test of §9.11 (a group ready only after
// polls leaves no member unready) with ours.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"

namespace snapshot_it {
namespace {

using ::testing::UnorderedElementsAreArray;

const std::vector<std::string> kGroupVolumes = {"vol-a", "vol-b", "vol-c"};
constexpr char kGroupVolumeSizes[] = "vol-a:1073741824,vol-b:1073741824,vol-c:1073741824";

// One test's group: its class, its three claims (labelled `group=<label>`)
// and the VolumeGroupSnapshot selecting them.
struct GroupNames {
  std::string driver = {};
  std::string group_class = {};
  std::string group = {};
  std::string label = {};
  std::vector<std::string> pvcs = {};
  std::vector<std::string> pvs = {};
};

bool GroupReady(const kube::VolumeGroupSnapshot& group) {
  return group.status && group.status->ready_to_use.value_or(false) &&
         group.status->bound_volume_group_snapshot_content_name;
}

// The steps and checks of both tests, on either fixture.
template <class Fixture>
class GroupSteps : public Fixture {
 protected:
  // The names of one test's group, made `owner`'s own.
  static GroupNames GroupNamesFor(const std::string& owner) {
    GroupNames n{.driver = Fixture::OwnName("group", owner) + ".csi.example.com",
                 .group_class = Fixture::OwnName("group-class", owner),
                 .group = Fixture::OwnName("group", owner),
                 .label = Fixture::OwnName("db", owner)};
    for (const std::string& volume : kGroupVolumes) {
      n.pvcs.push_back(Fixture::OwnName("pvc-" + volume, owner));
      n.pvs.push_back(Fixture::OwnName("pv-" + volume, owner));
    }
    return n;
  }

  // The driver, controller and `sidecar`; the claims, bound and labelled;
  // the class; then the group.
  void StartAndCreateGroup(const GroupNames& n, const std::string& faults,
                           const std::function<testsupport::Process*()>& sidecar) {
    n_ = n;
    ASSERT_NO_FATAL_FAILURE(this->StartFaultDriver(n.driver, kGroupVolumeSizes));
    if (!faults.empty()) this->WriteFaults(faults);
    ASSERT_NO_FATAL_FAILURE(this->StartSnapshotController());
    ASSERT_NE(sidecar(), nullptr);
    for (size_t i = 0; i < kGroupVolumes.size(); ++i) {
      this->CreateBoundPvc("default", n.pvcs[i], n.pvs[i], n.driver, kGroupVolumes[i]);
      auto labelled = this->admin_->template Patch<kube::PersistentVolumeClaim>(
          "default", n.pvcs[i], kube::PatchType::kMerge,
          R"({"metadata":{"labels":{"group":")" + n.label + R"("}}})");
      ASSERT_TRUE(labelled.ok()) << labelled.error().message;
    }
    kube::VolumeGroupSnapshotClass group_class;
    group_class.metadata.name = n.group_class;
    group_class.driver = n.driver;
    group_class.deletion_policy = "Delete";
    auto created_class = this->admin_->Create(group_class);
    ASSERT_TRUE(created_class.ok()) << created_class.error().message;
    kube::VolumeGroupSnapshot group;
    group.metadata.namespace_ = "default";
    group.metadata.name = n.group;
    group.spec.source.selector = kube::LabelSelector{.match_labels = {{"group", n.label}}};
    group.spec.volume_group_snapshot_class_name = n.group_class;
    auto created = this->admin_->Create(group);
    ASSERT_TRUE(created.ok()) << created.error().message;
  }

  // Waits for the group to be ready; checks its content and the three
  // members; returns the content's name ("" on failure).
  std::string ExpectReadyWithThreeReadyMembers() {
    auto group = this->template Await<kube::VolumeGroupSnapshot>("default", n_.group, GroupReady);
    EXPECT_TRUE(group && GroupReady(*group)) << "VolumeGroupSnapshot never became readyToUse";
    if (!group || !GroupReady(*group)) return "";
    const std::string content_name = *group->status->bound_volume_group_snapshot_content_name;
    auto content = this->admin_->template Get<kube::VolumeGroupSnapshotContent>("", content_name);
    EXPECT_TRUE(content.ok()) << content.error().message;
    if (!content.ok()) return "";
    EXPECT_EQ(content->spec.driver, n_.driver);
    EXPECT_THAT(content->spec.source.volume_handles, UnorderedElementsAreArray(kGroupVolumes));
    EXPECT_TRUE(content->status && content->status->ready_to_use.value_or(false));
    EXPECT_TRUE(content->status && content->status->volume_group_snapshot_handle);
    if (!content->status) return content_name;
    group_handle_ = content->status->volume_group_snapshot_handle.value_or("");
    std::vector<std::string> member_volumes;
    for (const kube::VolumeSnapshotInfo& member : content->status->volume_snapshot_info_list) {
      member_volumes.push_back(member.volume_handle);
      EXPECT_EQ(member.ready_to_use, true) << "info list entry of " << member.volume_handle;
    }
    EXPECT_THAT(member_volumes, UnorderedElementsAreArray(kGroupVolumes));
    // Three member snapshots, each ready and bound to a ready member content.
    EXPECT_TRUE(this->Eventually([&] { return ReadyMembers() == 3; }))
        << "members ready: " << ReadyMembers();
    return content_name;
  }

  // The member snapshots: those the group owns.
  std::vector<kube::VolumeSnapshot> Members() const {
    std::vector<kube::VolumeSnapshot> members;
    auto all = this->admin_->template List<kube::VolumeSnapshot>("default");
    if (!all.ok()) return members;
    for (const kube::VolumeSnapshot& snapshot : all->items) {
      const bool of_group = std::ranges::any_of(
          snapshot.metadata.owner_references,
          [&](const kube::OwnerReference& owner) { return owner.name == n_.group; });
      if (of_group) members.push_back(snapshot);
    }
    return members;
  }

  // The members that are ready, bound to a ready content with the group's
  // handle.
  int ReadyMembers() const {
    int ready = 0;
    for (const kube::VolumeSnapshot& member : Members()) {
      if (!Ready(member) || !member.status->bound_volume_snapshot_content_name) continue;
      auto content = this->admin_->template Get<kube::VolumeSnapshotContent>(
          "", *member.status->bound_volume_snapshot_content_name);
      ready += content.ok() && content->status && content->status->ready_to_use == true &&
               content->status->volume_group_snapshot_handle == group_handle_;
    }
    return ready;
  }

  // Deletes the group; everything it made goes, members included.
  void DeleteAndExpectEverythingGone(const std::string& content_name) {
    std::vector<std::pair<std::string, std::string>> members;  // snapshot, content
    for (const kube::VolumeSnapshot& member : Members()) {
      members.emplace_back(
          member.metadata.name,
          member.status ? member.status->bound_volume_snapshot_content_name.value_or("") : "");
    }
    EXPECT_EQ(members.size(), 3u);
    ASSERT_TRUE(this->admin_->template Delete<kube::VolumeGroupSnapshot>("default", n_.group).ok());
    EXPECT_TRUE(this->template AwaitGone<kube::VolumeGroupSnapshot>("default", n_.group))
        << "VolumeGroupSnapshot not released";
    EXPECT_TRUE(this->template AwaitGone<kube::VolumeGroupSnapshotContent>("", content_name))
        << "VolumeGroupSnapshotContent not deleted";
    for (const auto& [snapshot, content] : members) {
      EXPECT_TRUE(this->template AwaitGone<kube::VolumeSnapshot>("default", snapshot))
          << "member snapshot " << snapshot;
      EXPECT_TRUE(this->template AwaitGone<kube::VolumeSnapshotContent>("", content))
          << "member content " << content;
    }
  }

 private:
  GroupNames n_;
  std::string group_handle_;
};

using GroupSnapshotPairTest = GroupSteps<SnapshotPairTest>;
using GroupSnapshotOursOnlyTest = GroupSteps<OursOnlyTest>;

// The requests of the driver's OK answers to `method`.
std::vector<nlohmann::json> OkRequests(const nlohmann::json& state, const std::string& method) {
  std::vector<nlohmann::json> requests;
  for (const auto& call : state.value("calls", nlohmann::json::array())) {
    if (call["method"] == method && call["code"] == "OK") requests.push_back(call["request"]);
  }
  return requests;
}

TEST_P(GroupSnapshotPairTest, GroupOfThreeClaimsBecomesReadyThenGoesWithOneGroupDelete) {
  ASSERT_NO_FATAL_FAILURE(StartAndCreateGroup(GroupNamesFor(GetParam().name), "",
                                              [&] { return StartSidecarUnderTest(); }));

  const std::string content_name = ExpectReadyWithThreeReadyMembers();
  ASSERT_FALSE(content_name.empty());
  std::vector<nlohmann::json> creates = OkRequests(DriverState(), "CreateVolumeGroupSnapshot");
  ASSERT_EQ(creates.size(), 1u) << "CreateVolumeGroupSnapshot calls answered OK";
  EXPECT_THAT(creates[0]["source_volume_ids"].get<std::vector<std::string>>(),
              UnorderedElementsAreArray(kGroupVolumes));
  EXPECT_EQ(DriverCalls("CreateSnapshot"), 0) << "members are never created one by one";

  ASSERT_NO_FATAL_FAILURE(DeleteAndExpectEverythingGone(content_name));
  EXPECT_EQ(DriverCallsOk("DeleteVolumeGroupSnapshot"), 1);
  EXPECT_EQ(DriverCalls("DeleteSnapshot"), 0) << "members go with their group only";
}

INSTANTIATE_TEST_SUITE_P(Sidecars, GroupSnapshotPairTest,
                         ::testing::Values(UpstreamSidecar(), OurSidecar()),
                         [](const ::testing::TestParamInfo<SidecarUnderTest>& info) {
                           return info.param.name;
                         });

// §9.11: the group is ready only from its third answer; our sidecar polls it
// with CreateVolumeGroupSnapshot and keeps the info list current, so every
// member ends ready (upstream keeps the first answer's unready entries).
TEST_F(GroupSnapshotOursOnlyTest, GroupReadyAfterPollsLeavesNoMemberUnready) {
  ASSERT_NO_FATAL_FAILURE(StartAndCreateGroup(
      GroupNamesFor("polled"), R"({"CreateVolumeGroupSnapshot": [{"ready_after": 3}]})",
      [&] { return StartOurSidecar(); }));

  const std::string content_name = ExpectReadyWithThreeReadyMembers();
  ASSERT_FALSE(content_name.empty());
  EXPECT_EQ(DriverCallsOk("CreateVolumeGroupSnapshot"), 3) << "one create, then two polls";
  ASSERT_NO_FATAL_FAILURE(DeleteAndExpectEverythingGone(content_name));
  EXPECT_EQ(DriverCallsOk("DeleteVolumeGroupSnapshot"), 1);
}

}  // namespace
}  // namespace snapshot_it
