// docs/snapshots.md §3.8: CsiGroupSnapshotDriver on a real gRPC connection
// to an in-process driver - GetPluginInfo before CreateVolumeGroupSnapshot,
// the requests as sent (name, volume IDs, parameters, secrets; the group
// and member snapshot IDs of Get and Delete), the answer read as upstream
// reads it (member creation time nil when absent, restore size nil for 0),
// a driver's code kept so that csi::IsFinalError can judge it.
#include "snapshotter/group_snapshot_driver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "csi/final_error.h"
#include "tests/unit/snapshotter/csi_driver_fixture.h"

namespace snapshotter {
namespace {

namespace v1 = csi::v1;
using ::testing::ElementsAre;
using ::testing::Pair;

using CsiGroupSnapshotDriverTest = testing::CsiDriverTest<CsiGroupSnapshotDriver>;

void AddMember(v1::VolumeGroupSnapshot* group, const std::string& id, const std::string& volume,
               int64_t size, bool with_time) {
  v1::Snapshot* member = group->add_snapshots();
  member->set_snapshot_id(id);
  member->set_source_volume_id(volume);
  member->set_size_bytes(size);
  member->set_ready_to_use(true);
  member->set_group_snapshot_id(group->group_snapshot_id());
  if (with_time) member->mutable_creation_time()->set_seconds(1690000000);
}

TEST_F(CsiGroupSnapshotDriverTest, CreateSendsTheRequestAndReadsEveryMember) {
  NameDriver();
  v1::CreateVolumeGroupSnapshotRequest seen;
  fake_.create_group_snapshot = [&](auto*, const v1::CreateVolumeGroupSnapshotRequest& request,
                                    v1::CreateVolumeGroupSnapshotResponse* response) {
    seen = request;
    v1::VolumeGroupSnapshot* group = response->mutable_group_snapshot();
    group->set_group_snapshot_id("group-1");
    group->set_ready_to_use(false);
    group->mutable_creation_time()->set_seconds(1700000000);
    AddMember(group, "snap-1", "vol-1", 2048, true);
    AddMember(group, "snap-2", "vol-2", 0, false);
    return grpc::Status::OK;
  };
  Connect();
  auto group = driver_->CreateGroupSnapshot({.name = "groupsnapshot-uid",
                                             .source_volume_ids = {"vol-1", "vol-2"},
                                             .parameters = {{"tier", "gold"}},
                                             .secrets = {{"password", "hunter2"}}});
  ASSERT_TRUE(group.ok()) << group.error().message;
  EXPECT_EQ(seen.name(), "groupsnapshot-uid");
  EXPECT_THAT(seen.source_volume_ids(), ElementsAre("vol-1", "vol-2"));
  EXPECT_THAT(seen.parameters(), ElementsAre(Pair("tier", "gold")));
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("password", "hunter2")));
  EXPECT_EQ(group->group_snapshot_id, "group-1");
  EXPECT_FALSE(group->ready_to_use);
  EXPECT_EQ(group->creation_time, 1700000000'000000000);
  EXPECT_THAT(group->members,
              ElementsAre(kube::VolumeSnapshotInfo{.volume_handle = "vol-1",
                                                   .snapshot_handle = "snap-1",
                                                   .creation_time = 1690000000'000000000,
                                                   .ready_to_use = true,
                                                   .restore_size = 2048},
                          kube::VolumeSnapshotInfo{.volume_handle = "vol-2",
                                                   .snapshot_handle = "snap-2",
                                                   .ready_to_use = true}));
}

TEST_F(CsiGroupSnapshotDriverTest, GroupWithoutCreationTimeIsAtTheEpoch) {
  NameDriver();
  fake_.create_group_snapshot = [](auto*, auto&, v1::CreateVolumeGroupSnapshotResponse* response) {
    response->mutable_group_snapshot()->set_group_snapshot_id("group-1");
    return grpc::Status::OK;
  };
  Connect();
  auto group = driver_->CreateGroupSnapshot({});
  ASSERT_TRUE(group.ok()) << group.error().message;
  EXPECT_EQ(group->creation_time, 0);
}

TEST_F(CsiGroupSnapshotDriverTest, AnswerWithoutGroupIsAnErrorThatIsNotFinal) {
  NameDriver();
  fake_.create_group_snapshot = [](auto*, auto&, auto*) { return grpc::Status::OK; };
  Connect();
  auto group = driver_->CreateGroupSnapshot({});
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.error().message, "CreateVolumeGroupSnapshot returned no group snapshot");
  EXPECT_FALSE(csi::IsFinalError(group.error()));
}

TEST_F(CsiGroupSnapshotDriverTest, DriverErrorKeepsItsCode) {
  NameDriver();
  fake_.create_group_snapshot = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "bad volumes");
  };
  Connect();
  auto group = driver_->CreateGroupSnapshot({});
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.error().code, grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(csi::IsFinalError(group.error()));
}

// Upstream asks the driver's name first; a create never goes out without it.
TEST_F(CsiGroupSnapshotDriverTest, CreateFollowsGetPluginInfoOnly) {
  std::vector<std::string> calls;
  grpc::Status name_status(grpc::StatusCode::UNAVAILABLE, "starting");
  fake_.get_plugin_info = [&](auto*, auto&, v1::GetPluginInfoResponse* response) {
    calls.push_back("GetPluginInfo");
    response->set_name("csi.example.com");
    return name_status;
  };
  fake_.create_group_snapshot = [&](auto*, auto&, v1::CreateVolumeGroupSnapshotResponse* r) {
    calls.push_back("CreateVolumeGroupSnapshot");
    r->mutable_group_snapshot()->set_group_snapshot_id("group-1");
    return grpc::Status::OK;
  };
  Connect();
  EXPECT_EQ(driver_->CreateGroupSnapshot({}).error().code, grpc::StatusCode::UNAVAILABLE);
  name_status = grpc::Status::OK;
  EXPECT_TRUE(driver_->CreateGroupSnapshot({}).ok());
  EXPECT_THAT(calls, ElementsAre("GetPluginInfo", "GetPluginInfo", "CreateVolumeGroupSnapshot"));
}

TEST_F(CsiGroupSnapshotDriverTest, GetSendsGroupAndMemberIdsAndReadsTheGroup) {
  v1::GetVolumeGroupSnapshotRequest seen;
  fake_.get_group_snapshot = [&](auto*, const v1::GetVolumeGroupSnapshotRequest& request,
                                 v1::GetVolumeGroupSnapshotResponse* response) {
    seen = request;
    response->mutable_group_snapshot()->set_group_snapshot_id("group-1");
    response->mutable_group_snapshot()->set_ready_to_use(true);
    return grpc::Status::OK;
  };
  Connect();
  auto group = driver_->GetGroupSnapshot("group-1", {"snap-1", "snap-2"}, {{"token", "t"}});
  ASSERT_TRUE(group.ok()) << group.error().message;
  EXPECT_TRUE(group->ready_to_use);
  EXPECT_EQ(seen.group_snapshot_id(), "group-1");
  EXPECT_THAT(seen.snapshot_ids(), ElementsAre("snap-1", "snap-2"));
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("token", "t")));
}

TEST_F(CsiGroupSnapshotDriverTest, DeleteSendsGroupAndMemberIds) {
  v1::DeleteVolumeGroupSnapshotRequest seen;
  fake_.delete_group_snapshot = [&](auto*, const v1::DeleteVolumeGroupSnapshotRequest& request,
                                    auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  ASSERT_TRUE(driver_->DeleteGroupSnapshot("group-1", {"snap-1"}, {{"password", "p"}}).ok());
  EXPECT_EQ(seen.group_snapshot_id(), "group-1");
  EXPECT_THAT(seen.snapshot_ids(), ElementsAre("snap-1"));
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("password", "p")));
}

}  // namespace
}  // namespace snapshotter
