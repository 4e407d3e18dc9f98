// The fault driver as a plain group-snapshot-capable driver: the CSI spec's
// CreateVolumeGroupSnapshot idempotency, GetVolumeGroupSnapshot and
// DeleteVolumeGroupSnapshot semantics, members as ordinary snapshots, and what
// the state file records about groups.
#include <google/protobuf/util/time_util.h>

#include "tests/unit/fault_csi_driver/group_snapshot_fixture.h"

namespace faultdriver {
namespace {

using google::protobuf::util::TimeUtil;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

class FaultDriverGroupSnapshotsTest : public GroupSnapshotFixture {};

Ids ListedIds(const csi::v1::ListSnapshotsResponse& response) {
  Ids ids;
  for (const auto& entry : response.entries()) ids.push_back(entry.snapshot().snapshot_id());
  return ids;
}

TEST_F(FaultDriverGroupSnapshotsTest, CreateCutsOneReadyMemberPerSourceAtTheGroupsCreationTime) {
  StartGroupDriver({"--snapshot-size-bytes=12345"});
  const auto before = TimeUtil::GetCurrentTime();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a", {kVolume, kSizelessVolume});
  const auto after = TimeUtil::GetCurrentTime();

  EXPECT_THAT(group.group_snapshot_id(), StartsWith("group-"));
  EXPECT_TRUE(group.ready_to_use());
  EXPECT_GE(group.creation_time(), before);
  EXPECT_LE(group.creation_time(), after);
  ASSERT_EQ(group.snapshots_size(), 2);
  const csi::v1::Snapshot& first = group.snapshots(0);
  const csi::v1::Snapshot& second = group.snapshots(1);
  EXPECT_THAT(first.snapshot_id(), StartsWith("handle-"));
  EXPECT_NE(first.snapshot_id(), second.snapshot_id());
  EXPECT_EQ(first.source_volume_id(), kVolume);
  EXPECT_EQ(second.source_volume_id(), kSizelessVolume);
  EXPECT_EQ(first.size_bytes(), kVolumeBytes);
  EXPECT_EQ(second.size_bytes(), 12345);
  for (const csi::v1::Snapshot& member : group.snapshots()) {
    EXPECT_EQ(member.group_snapshot_id(), group.group_snapshot_id());
    EXPECT_EQ(member.creation_time(), group.creation_time());
    EXPECT_TRUE(member.ready_to_use());
  }

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"], (nlohmann::json{group.group_snapshot_id()}));
  EXPECT_EQ(state["existing_snapshots"],
            (nlohmann::json{first.snapshot_id(), second.snapshot_id()}));
  const nlohmann::json& entry = state["group_snapshots"]["group-a"];
  EXPECT_EQ(entry["group_snapshot_id"], group.group_snapshot_id());
  EXPECT_EQ(entry["exists"], true);
  EXPECT_EQ(entry["ready"], true);
  EXPECT_EQ(entry["source_volume_ids"], (nlohmann::json{kVolume, kSizelessVolume}));
  EXPECT_EQ(entry["snapshot_ids"], (nlohmann::json{first.snapshot_id(), second.snapshot_id()}));
  EXPECT_EQ(entry["creation_time"], TimeUtil::ToString(group.creation_time()));
  EXPECT_EQ(entry["create_calls"], 1);
  const nlohmann::json& member = state["snapshots"]["group-a/" + std::string(kVolume)];
  EXPECT_EQ(member["snapshot_id"], first.snapshot_id());
  EXPECT_EQ(member["group_snapshot_id"], group.group_snapshot_id());
  EXPECT_EQ(member["size_bytes"], kVolumeBytes);
}

TEST_F(FaultDriverGroupSnapshotsTest, SameNameAndSourcesInAnyOrderAnswersTheSameGroup) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot first = CreatedGroup("group-a", {kVolume, kSizelessVolume});
  const csi::v1::VolumeGroupSnapshot second = CreatedGroup("group-a", {kSizelessVolume, kVolume});
  EXPECT_EQ(second.group_snapshot_id(), first.group_snapshot_id());
  EXPECT_EQ(second.creation_time(), first.creation_time());
  EXPECT_EQ(MemberIds(second), MemberIds(first));

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"].size(), 1u);
  EXPECT_EQ(state["existing_snapshots"].size(), 2u);
  EXPECT_EQ(state["group_snapshots"]["group-a"]["create_calls"], 2);
}

TEST_F(FaultDriverGroupSnapshotsTest, SameNameWithOtherSourcesIsAlreadyExists) {
  StartGroupDriver();
  ASSERT_TRUE(Publish("vol-3").ok());  // a third known volume
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a", {kVolume, kSizelessVolume});
  for (const Ids& other : {Ids{kVolume}, Ids{kVolume, kSizelessVolume, "vol-3"}}) {
    grpc::Status status = CreateGroup("group-a", other);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS) << other.size();
    EXPECT_THAT(status.error_message(), HasSubstr(kSizelessVolume));
  }
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"], (nlohmann::json{group.group_snapshot_id()}));
  EXPECT_EQ(state["existing_snapshots"].size(), 2u);
}

TEST_F(FaultDriverGroupSnapshotsTest, MissingNameOrEmptyOrRepeatedSourcesAreInvalidArgument) {
  StartGroupDriver();
  EXPECT_EQ(CreateGroup("", {kVolume}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateGroup("group-a", {}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateGroup("group-a", {kVolume, ""}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(CreateGroup("group-a", {kVolume, kVolume}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
}

// One unknown source fails the whole group: no member of it is left behind.
TEST_F(FaultDriverGroupSnapshotsTest, UnknownSourceVolumeIsNotFoundAndCutsNothing) {
  StartGroupDriver();
  grpc::Status status = CreateGroup("group-a", {kVolume, "no-such-volume"});
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("no-such-volume"));
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["group_snapshots"]["group-a"]["exists"], false);
  EXPECT_EQ(state["group_snapshots"]["group-a"]["create_calls"], 1);
}

TEST_F(FaultDriverGroupSnapshotsTest, MembersAreListedAsSnapshotsWithTheirGroupId) {
  StartGroupDriver();
  const std::string single = CreateSnapshotId("snap-a", kVolume);
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a", {kVolume, kSizelessVolume});
  const Ids members = MemberIds(group);

  csi::v1::ListSnapshotsResponse all;
  ASSERT_TRUE(ListSnapshots({}, &all).ok());
  EXPECT_THAT(ListedIds(all), ElementsAre(single, members[0], members[1]));
  EXPECT_EQ(all.entries(0).snapshot().group_snapshot_id(), "");
  EXPECT_EQ(all.entries(1).snapshot().group_snapshot_id(), group.group_snapshot_id());

  csi::v1::ListSnapshotsRequest by_source;
  by_source.set_source_volume_id(kVolume);
  csi::v1::ListSnapshotsResponse of_volume;
  ASSERT_TRUE(ListSnapshots(by_source, &of_volume).ok());
  EXPECT_THAT(ListedIds(of_volume), ElementsAre(single, members[0]));

  const std::vector<csi::v1::Snapshot> by_id = ListById(members[1]);
  ASSERT_EQ(by_id.size(), 1u);
  EXPECT_EQ(by_id[0].source_volume_id(), kSizelessVolume);
  EXPECT_EQ(by_id[0].group_snapshot_id(), group.group_snapshot_id());
  EXPECT_EQ(by_id[0].creation_time(), group.creation_time());
  EXPECT_TRUE(by_id[0].ready_to_use());
}

TEST_F(FaultDriverGroupSnapshotsTest, GetReportsTheGroupItsMembersAndTheirReadiness) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot created = CreatedGroup("group-a");
  csi::v1::GetVolumeGroupSnapshotResponse response;
  // snapshot_ids in another order than the create answered them.
  ASSERT_TRUE(GetGroup(created.group_snapshot_id(), {MemberIds(created)[1], MemberIds(created)[0]},
                       &response)
                  .ok());
  const csi::v1::VolumeGroupSnapshot& got = response.group_snapshot();
  EXPECT_EQ(got.group_snapshot_id(), created.group_snapshot_id());
  EXPECT_EQ(got.creation_time(), created.creation_time());
  EXPECT_EQ(MemberIds(got), MemberIds(created));
  EXPECT_THAT(Readiness(got), ElementsAre(true, true, true));
  EXPECT_EQ(got.snapshots(0).group_snapshot_id(), created.group_snapshot_id());
  EXPECT_EQ(ReadState()["group_snapshots"]["group-a"]["get_calls"], 1);
}

TEST_F(FaultDriverGroupSnapshotsTest, GetOfAnUnknownOrDeletedGroupIsNotFound) {
  StartGroupDriver();
  EXPECT_EQ(GetGroup("group-99", {"handle-1"}).error_code(), grpc::StatusCode::NOT_FOUND);
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  ASSERT_TRUE(DeleteGroup(group).ok());
  EXPECT_EQ(GetGroup(group.group_snapshot_id(), MemberIds(group)).error_code(),
            grpc::StatusCode::NOT_FOUND);
}

// The spec's "snapshot list mismatch" and its two REQUIRED fields.
TEST_F(FaultDriverGroupSnapshotsTest, GetWithoutIdsOrWithOtherSnapshotIdsIsInvalidArgument) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  const std::string other = CreateSnapshotId("snap-a");
  const Ids members = MemberIds(group);
  for (const Ids& wrong :
       {Ids{}, Ids{members[0]}, Ids{members[0], members[1], other}, Ids{members[0], members[0]}}) {
    EXPECT_EQ(GetGroup(group.group_snapshot_id(), wrong).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT)
        << wrong.size();
  }
  EXPECT_EQ(GetGroup("", members).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(FaultDriverGroupSnapshotsTest, DeleteRemovesTheGroupAndItsMembersAndUnknownIdIsOk) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  const std::string single = CreateSnapshotId("snap-a");
  EXPECT_TRUE(DeleteGroup(group).ok());
  EXPECT_TRUE(DeleteGroup(group).ok());
  EXPECT_TRUE(DeleteGroup("never-handed-out", {"handle-1"}).ok());

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_EQ(state["existing_snapshots"], (nlohmann::json{single}));
  EXPECT_EQ(state["group_snapshots"]["group-a"]["exists"], false);
  EXPECT_EQ(state["group_snapshots"]["group-a"]["delete_calls"], 2);
  EXPECT_EQ(state["snapshots"]["group-a/" + std::string(kVolume)]["exists"], false);
  EXPECT_EQ(state["calls"][2]["response"]["deleted"], true);
  EXPECT_EQ(state["calls"][3]["response"]["deleted"], false);
  for (const std::string& member : MemberIds(group)) EXPECT_THAT(ListById(member), IsEmpty());
}

TEST_F(FaultDriverGroupSnapshotsTest, DeleteWithoutIdsOrWithOtherSnapshotIdsIsInvalidArgument) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  const Ids members = MemberIds(group);
  for (const Ids& wrong : {Ids{}, Ids{members[1]}, Ids{members[0], members[1], "handle-99"}}) {
    EXPECT_EQ(DeleteGroup(group.group_snapshot_id(), wrong).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT)
        << wrong.size();
  }
  EXPECT_EQ(DeleteGroup("", members).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"], (nlohmann::json{group.group_snapshot_id()}));
  EXPECT_EQ(state["existing_snapshots"], (nlohmann::json{members[0], members[1]}));
}

// docs: README.md "Group snapshots" — the spec lets a plugin refuse to delete
// a member stand alone, with INVALID_ARGUMENT; once its group is gone the ID
// is unknown, which DeleteSnapshot answers OK.
TEST_F(FaultDriverGroupSnapshotsTest, DeleteSnapshotOfALiveMemberIsInvalidArgument) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  const std::string member = MemberIds(group)[0];
  grpc::Status status = DeleteSnapshot(member);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("group"));
  EXPECT_EQ(ReadState()["existing_snapshots"].size(), 2u);

  ASSERT_TRUE(DeleteGroup(group).ok());
  EXPECT_TRUE(DeleteSnapshot(member).ok());
}

TEST_F(FaultDriverGroupSnapshotsTest, NameCreatedAgainAfterDeleteGetsNewIds) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot first = CreatedGroup("group-a");
  ASSERT_TRUE(DeleteGroup(first).ok());
  const csi::v1::VolumeGroupSnapshot second = CreatedGroup("group-a", {kVolume});
  EXPECT_NE(second.group_snapshot_id(), first.group_snapshot_id());
  EXPECT_NE(MemberIds(second)[0], MemberIds(first)[0]);
  EXPECT_TRUE(DeleteGroup(first).ok());  // the old ID is gone; the new group stays
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"], (nlohmann::json{second.group_snapshot_id()}));
  EXPECT_EQ(state["existing_snapshots"], (nlohmann::json{MemberIds(second)[0]}));
}

// Members are named "<group>/<volume>"; neither kind takes the other's name.
TEST_F(FaultDriverGroupSnapshotsTest, MemberNamesAndSnapshotNamesDoNotTakeEachOther) {
  StartGroupDriver();
  const std::string taken = "group-a/" + std::string(kVolume);
  const std::string single = CreateSnapshotId(taken, kVolume);
  EXPECT_EQ(CreateGroup("group-a", {kVolume}).error_code(), grpc::StatusCode::ALREADY_EXISTS);

  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-b", {kVolume});
  grpc::Status status = CreateSnapshot("group-b/" + std::string(kVolume), kVolume);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(status.error_message(), HasSubstr(group.group_snapshot_id()));
  EXPECT_EQ(ReadState()["existing_snapshots"], (nlohmann::json{single, MemberIds(group)[0]}));
}

TEST_F(FaultDriverGroupSnapshotsTest, StateFileRecordsGroupCallsWithoutSecretValues) {
  StartGroupDriver();
  csi::v1::CreateVolumeGroupSnapshotRequest request = CreateGroupRequest("group-a");
  (*request.mutable_parameters())["tier"] = "gold";
  (*request.mutable_secrets())["password"] = "s3cr3t-value";
  csi::v1::CreateVolumeGroupSnapshotResponse response;
  ASSERT_TRUE(CreateGroup(request, &response).ok());
  const csi::v1::VolumeGroupSnapshot& group = response.group_snapshot();
  csi::v1::DeleteVolumeGroupSnapshotRequest delete_request;
  delete_request.set_group_snapshot_id(group.group_snapshot_id());
  for (const std::string& id : MemberIds(group)) delete_request.add_snapshot_ids(id);
  (*delete_request.mutable_secrets())["token"] = "d3lete-value";
  csi::v1::DeleteVolumeGroupSnapshotResponse deleted;
  ASSERT_TRUE(
      group_controller_->DeleteVolumeGroupSnapshot(Context().get(), delete_request, &deleted).ok());

  nlohmann::json state = ReadState();
  const nlohmann::json& entry = state["group_snapshots"]["group-a"];
  EXPECT_EQ(entry["parameters"], (nlohmann::json{{"tier", "gold"}}));
  EXPECT_EQ(entry["secrets"], (nlohmann::json{"password"}));
  const nlohmann::json& create = state["calls"][0];
  EXPECT_EQ(create["method"], "CreateVolumeGroupSnapshot");
  EXPECT_EQ(create["request"]["name"], "group-a");
  EXPECT_EQ(create["request"]["source_volume_ids"], (nlohmann::json{kVolume, kSizelessVolume}));
  EXPECT_EQ(create["request"]["parameters"], (nlohmann::json{{"tier", "gold"}}));
  EXPECT_EQ(create["request"]["secrets"], (nlohmann::json{"password"}));
  const nlohmann::json& answered = create["response"]["group_snapshot"];
  EXPECT_EQ(answered["group_snapshot_id"], group.group_snapshot_id());
  EXPECT_EQ(answered["ready_to_use"], true);
  ASSERT_EQ(answered["snapshots"].size(), 2u);
  EXPECT_EQ(answered["snapshots"][1]["snapshot_id"], group.snapshots(1).snapshot_id());
  EXPECT_EQ(answered["snapshots"][1]["source_volume_id"], kSizelessVolume);
  EXPECT_EQ(answered["snapshots"][1]["group_snapshot_id"], group.group_snapshot_id());
  const nlohmann::json& removal = state["calls"][1];
  EXPECT_EQ(removal["method"], "DeleteVolumeGroupSnapshot");
  EXPECT_EQ(removal["request"]["group_snapshot_id"], group.group_snapshot_id());
  EXPECT_EQ(removal["request"]["snapshot_ids"], (nlohmann::json(MemberIds(group))));
  EXPECT_EQ(removal["request"]["secrets"], (nlohmann::json{"token"}));

  for (const char* secret : {"s3cr3t-value", "d3lete-value"}) {
    EXPECT_THAT(ReadText(StatePath()), Not(HasSubstr(secret)));
  }
  driver_->Stop();  // the log is complete once the driver is gone
  EXPECT_THAT(ReadText(LogPath()), HasSubstr("CreateVolumeGroupSnapshot"));
  for (const char* secret : {"s3cr3t-value", "d3lete-value"}) {
    EXPECT_THAT(ReadText(LogPath()), Not(HasSubstr(secret)));
  }
}

}  // namespace
}  // namespace faultdriver
