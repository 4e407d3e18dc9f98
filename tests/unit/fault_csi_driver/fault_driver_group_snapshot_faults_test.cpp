// Faults of the GroupController RPCs through faults.json: codes, counts,
// hangs past the caller's deadline, delays, filters by group name, and the
// readiness rules of group snapshots and their members.
#include "tests/unit/fault_csi_driver/group_snapshot_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Clock = std::chrono::steady_clock;

// Short enough to keep the hang tests quick; what the caller sees does not
// depend on it.
constexpr auto kShortGroupDeadline = std::chrono::milliseconds(300);

class FaultDriverGroupSnapshotFaultsTest : public GroupSnapshotFixture {};

TEST_F(FaultDriverGroupSnapshotFaultsTest, InjectedCodeFailsCreateBeforeAnyGroupIsCut) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"code": "RESOURCE_EXHAUSTED",
                                                 "message": "backend full"}]})");
  grpc::Status status = CreateGroup("group-a");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(status.error_message(), "backend full");

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["group_snapshots"]["group-a"]["create_calls"], 1);
  EXPECT_EQ(state["calls"][0]["code"], "RESOURCE_EXHAUSTED");
  EXPECT_EQ(state["calls"][0]["injected"], true);
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, FirstNCreateCallsFailThenTheGroupIsCut) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"code": "UNAVAILABLE", "times": 2}]})");
  EXPECT_EQ(CreateGroup("group-a").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(CreateGroup("group-a").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(CreateGroup("group-a").ok());
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["group_snapshots"]["group-a"]["create_calls"], 3);
  EXPECT_EQ(state["existing_group_snapshots"].size(), 1u);
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, HangLastsUntilTheCallersDeadlineAndCutsNothing) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"hang": true, "times": 1}]})");
  EXPECT_EQ(CreateGroup(CreateGroupRequest("group-a"), nullptr, kShortGroupDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  EXPECT_EQ(state["calls"][0]["injected"], true);
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
}

// A group cut while the caller timed out: only a retry with the same name
// and sources finds it.
TEST_F(FaultDriverGroupSnapshotFaultsTest, HangAfterSuccessCutsTheGroupTheCallerNeverSaw) {
  StartGroupDriver();
  WriteFaults(
      R"({"CreateVolumeGroupSnapshot": [{"hang": true, "after_success": true, "times": 1}]})");
  EXPECT_EQ(CreateGroup(CreateGroupRequest("group-a"), nullptr, kShortGroupDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  ASSERT_EQ(state["existing_group_snapshots"].size(), 1u);
  EXPECT_EQ(CreatedGroup("group-a").group_snapshot_id(), state["existing_group_snapshots"][0]);
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, DelayIsSleptBeforeTheGroupIsCut) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"delay": "300ms", "times": 1}]})");
  const auto start = Clock::now();
  EXPECT_TRUE(CreateGroup("group-a").ok());
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(300));
}

// never_ready holds for the group and every member, wherever they are reported.
TEST_F(FaultDriverGroupSnapshotFaultsTest, NeverReadyGroupAndMembersAreUnreadyInCreateGetAndList) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"never_ready": true, "times": 1}]})");
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  EXPECT_THAT(Readiness(group), ElementsAre(false, false, false));
  for (int i = 0; i < 3; ++i) {
    EXPECT_THAT(Readiness(CreatedGroup("group-a")), ElementsAre(false, false, false));
    EXPECT_THAT(Readiness(GotGroup(group)), ElementsAre(false, false, false));
    EXPECT_FALSE(ListAnswersReady(MemberIds(group)[0]));
  }
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["group_snapshots"]["group-a"]["ready"], false);
  EXPECT_EQ(state["snapshots"]["group-a/" + std::string(kVolume)]["ready"], false);
}

// The group's answers are its create and get calls; its members follow it,
// and a member's ListSnapshots entry reports the group's readiness without
// bringing it closer. Another group's answers do not count.
TEST_F(FaultDriverGroupSnapshotFaultsTest, ReadyAfterKCountsCreateAndGetAndMembersFollowTheGroup) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"snapshot_name": "group-a", "ready_after": 3}]})");
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a", {kVolume, kSizelessVolume});
  EXPECT_THAT(Readiness(group), ElementsAre(false, false, false));  // answer 1
  const std::string member = MemberIds(group)[0];
  EXPECT_FALSE(ListAnswersReady(member));
  EXPECT_FALSE(ListAnswersReady(member));
  EXPECT_FALSE(ListAnswersReady(member));
  EXPECT_THAT(Readiness(CreatedGroup("group-b", {kVolume})), ElementsAre(true, true));
  EXPECT_THAT(Readiness(GotGroup(group)), ElementsAre(false, false, false));  // answer 2
  EXPECT_FALSE(ListAnswersReady(member));
  EXPECT_THAT(Readiness(CreatedGroup("group-a")), ElementsAre(true, true, true));  // answer 3
  EXPECT_TRUE(ListAnswersReady(member));
  EXPECT_THAT(Readiness(GotGroup(group)), ElementsAre(true, true, true));

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["group_snapshots"]["group-a"]["ready"], true);
  EXPECT_EQ(state["group_snapshots"]["group-a"]["answers"], 4);
  EXPECT_EQ(state["snapshots"]["group-a/" + std::string(kVolume)]["ready"], true);
}

// A failed call answers nothing, so it does not bring readiness closer.
TEST_F(FaultDriverGroupSnapshotFaultsTest, FailedGetCallsAreNoReadinessAnswers) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"ready_after": 2}],
                  "GetVolumeGroupSnapshot": [{"code": "UNAVAILABLE", "times": 2}]})");
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  EXPECT_FALSE(group.ready_to_use());
  EXPECT_EQ(GetGroup(group.group_snapshot_id(), MemberIds(group)).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(GetGroup(group.group_snapshot_id(), MemberIds(group)).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(GotGroup(group).ready_to_use());  // answer 2, the 4th call
  EXPECT_EQ(ReadState()["group_snapshots"]["group-a"]["get_calls"], 3);
}

// snapshot_name filters group calls by the group's name, which Get and
// Delete find from the group_snapshot_id they are given.
TEST_F(FaultDriverGroupSnapshotFaultsTest, GetFaultForOneGroupLeavesTheOthers) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot a = CreatedGroup("group-a", {kVolume});
  const csi::v1::VolumeGroupSnapshot b = CreatedGroup("group-b", {kVolume});
  WriteFaults(
      R"({"GetVolumeGroupSnapshot": [{"snapshot_name": "group-a", "code": "ABORTED", "times": 1}]})");
  EXPECT_TRUE(GetGroup(b.group_snapshot_id(), MemberIds(b)).ok());
  EXPECT_EQ(GetGroup(a.group_snapshot_id(), MemberIds(a)).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_TRUE(GetGroup(a.group_snapshot_id(), MemberIds(a)).ok());
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, DeleteFaultKeepsTheGroupAndItsMembers) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  WriteFaults(R"({"DeleteVolumeGroupSnapshot": [{"snapshot_name": "group-a", "code": "INTERNAL",
                                                 "times": 1}]})");
  EXPECT_EQ(DeleteGroup(group).error_code(), grpc::StatusCode::INTERNAL);
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["existing_group_snapshots"], (nlohmann::json{group.group_snapshot_id()}));
  EXPECT_EQ(state["existing_snapshots"].size(), 2u);
  EXPECT_TRUE(DeleteGroup(group).ok());
  state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["group_snapshots"]["group-a"]["delete_calls"], 2);
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, DeleteAfterSuccessDeletesButReportsFailure) {
  StartGroupDriver();
  const csi::v1::VolumeGroupSnapshot group = CreatedGroup("group-a");
  WriteFaults(
      R"({"DeleteVolumeGroupSnapshot": [{"code": "DEADLINE_EXCEEDED", "after_success": true}]})");
  EXPECT_EQ(DeleteGroup(group).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_group_snapshots"], IsEmpty());
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
}

TEST_F(FaultDriverGroupSnapshotFaultsTest, GroupControllerGetCapabilitiesFault) {
  StartGroupDriver();
  WriteFaults(R"({"GroupControllerGetCapabilities": [{"code": "UNAVAILABLE", "times": 1}]})");
  csi::v1::GroupControllerGetCapabilitiesResponse response;
  EXPECT_EQ(group_controller_->GroupControllerGetCapabilities(Context().get(), {}, &response)
                .error_code(),
            grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(
      group_controller_->GroupControllerGetCapabilities(Context().get(), {}, &response).ok());
}

// Readiness rules belong to create calls; elsewhere they would do nothing.
TEST_F(FaultDriverGroupSnapshotFaultsTest, ReadinessRulesOnGetOrDeleteAreRejected) {
  StartGroupDriver();
  WriteFaults(R"({"CreateVolumeGroupSnapshot": [{"code": "ABORTED"}]})");
  ASSERT_EQ(CreateGroup("group-a").error_code(), grpc::StatusCode::ABORTED);

  const std::vector<std::pair<std::string, std::string>> rejected = {
      {R"({"GetVolumeGroupSnapshot": [{"ready_after": 2}]})",
       "GetVolumeGroupSnapshot[0].ready_after"},
      {R"({"DeleteVolumeGroupSnapshot": [{"never_ready": true}]})",
       "DeleteVolumeGroupSnapshot[0].never_ready"},
      {R"({"CreateVolumeGroupSnapshot": [{"never_ready": true, "ready_after": 2}]})",
       "exclude each other"}};
  for (const auto& [faults, error] : rejected) {
    WriteFaults(faults);
    EXPECT_EQ(CreateGroup("group-a").error_code(), grpc::StatusCode::ABORTED) << faults;
  }
  driver_->Stop();
  const std::string log = ReadText(LogPath());
  for (const auto& [faults, error] : rejected) EXPECT_THAT(log, HasSubstr(error)) << faults;
}

}  // namespace
}  // namespace faultdriver
