// Faults of the snapshot RPCs through faults.json: codes, counts, hangs past
// the caller's deadline, delays, readiness rules, and the #1388 sequence.
#include <future>

#include "tests/unit/fault_csi_driver/snapshot_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Clock = std::chrono::steady_clock;

class FaultDriverSnapshotFaultsTest : public SnapshotFixture {};

class CreateSnapshotCodeTest : public SnapshotFixture,
                               public ::testing::WithParamInterface<grpc::StatusCode> {};

std::string CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    default:
      return "unexpected";
  }
}

TEST_P(CreateSnapshotCodeTest, InjectedCodeFailsTheCallBeforeAnySnapshotExists) {
  StartSnapshotDriver();
  const std::string code = CodeName(GetParam());
  WriteFaults(R"({"CreateSnapshot": [{"code": ")" + code + R"(", "message": "backend says no"}]})");
  grpc::Status status = CreateSnapshot("snap-a");
  EXPECT_EQ(status.error_code(), GetParam());
  EXPECT_EQ(status.error_message(), "backend says no");

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["snapshots"]["snap-a"]["create_calls"], 1);
  EXPECT_EQ(state["calls"][0]["code"], code);
  EXPECT_EQ(state["calls"][0]["injected"], true);
}

INSTANTIATE_TEST_SUITE_P(NonFinalAndFinalCodes, CreateSnapshotCodeTest,
                         ::testing::Values(grpc::StatusCode::DEADLINE_EXCEEDED,
                                           grpc::StatusCode::ABORTED, grpc::StatusCode::UNAVAILABLE,
                                           grpc::StatusCode::RESOURCE_EXHAUSTED,
                                           grpc::StatusCode::INVALID_ARGUMENT,
                                           grpc::StatusCode::INTERNAL),
                         [](const auto& info) { return CodeName(info.param); });

TEST_F(FaultDriverSnapshotFaultsTest, FirstNCallsFailThenTheSnapshotIsCreated) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"code": "UNAVAILABLE", "times": 2}]})");
  EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_TRUE(CreateSnapshot("snap-a").ok());
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["snapshots"]["snap-a"]["create_calls"], 3);
  EXPECT_EQ(state["existing_snapshots"].size(), 1u);
}

TEST_F(FaultDriverSnapshotFaultsTest, HangLastsUntilTheCallersDeadlineAndCreatesNothing) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"hang": true, "times": 1}]})");
  EXPECT_EQ(CreateSnapshot(CreateRequest("snap-a"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  EXPECT_EQ(state["calls"][0]["injected"], true);
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
}

// A snapshot cut while the caller timed out: only a retry with the same
// name finds it (the leak the being-created annotation prevents).
TEST_F(FaultDriverSnapshotFaultsTest, HangAfterSuccessCreatesTheSnapshotTheCallerNeverSaw) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"hang": true, "after_success": true, "times": 1}]})");
  EXPECT_EQ(CreateSnapshot(CreateRequest("snap-a"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  ASSERT_EQ(state["existing_snapshots"].size(), 1u);
  EXPECT_EQ(CreateSnapshotId("snap-a"), state["existing_snapshots"][0]);
}

// docs/snapshots.md §9.1: create times out twice, then answers with a handle,
// which the sidecar deletes.
TEST_F(FaultDriverSnapshotFaultsTest, Issue1388SequenceTimesOutTwiceThenAnswers) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [
      {"hang": true, "times": 1},
      {"code": "DEADLINE_EXCEEDED", "times": 1}]})");
  EXPECT_EQ(CreateSnapshot(CreateRequest("snap-a"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  WaitForRecordedCalls(1);  // the hung call is over before the retry
  EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  const std::string id = CreateSnapshotId("snap-a");
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(DeleteSnapshot(id).ok());

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["snapshots"]["snap-a"]["create_calls"], 3);
  EXPECT_EQ(state["snapshots"]["snap-a"]["delete_calls"], 1);
}

TEST_F(FaultDriverSnapshotFaultsTest, SigtermEndsAHangAndExitsCleanly) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"hang": true}]})");
  auto stuck = std::async(std::launch::async, [this] { return CreateSnapshot("snap-a"); });
  WaitForLog("Faults loaded");  // logged as the call takes its fault, right before the hang

  driver_->Stop(std::chrono::seconds(20));
  EXPECT_EQ(driver_->exit_status(), 0) << driver_->LogTail(20);
  EXPECT_FALSE(stuck.get().ok());
}

TEST_F(FaultDriverSnapshotFaultsTest, DelayIsSleptBeforeTheSnapshotIsCreated) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"delay": "300ms", "times": 1}]})");
  const auto start = Clock::now();
  EXPECT_TRUE(CreateSnapshot("snap-a").ok());
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(300));
}

TEST_F(FaultDriverSnapshotFaultsTest, NeverReadySnapshotIsUnreadyInCreateAndList) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"never_ready": true, "times": 1}]})");
  std::vector<bool> answers;
  for (int i = 0; i < 3; ++i) answers.push_back(CreateAnswersReady("snap-a"));
  const auto id = ReadState()["existing_snapshots"][0].get<std::string>();
  for (int i = 0; i < 3; ++i) answers.push_back(ListAnswersReady(id));
  EXPECT_THAT(answers, ElementsAre(false, false, false, false, false, false));
  EXPECT_EQ(ReadState()["snapshots"]["snap-a"]["ready"], false);
}

// Readiness counts answers per snapshot, from CreateSnapshot and
// ListSnapshots alike; another snapshot's answers do not advance it.
TEST_F(FaultDriverSnapshotFaultsTest, ReadyAfterKAnswersCountsCreateAndListPerSnapshot) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"snapshot_name": "snap-a", "ready_after": 3}]})");
  std::vector<bool> answers;
  answers.push_back(CreateAnswersReady("snap-a"));
  const auto id = ReadState()["existing_snapshots"][0].get<std::string>();
  EXPECT_TRUE(CreateAnswersReady("snap-b"));  // not filtered: ready at once
  EXPECT_TRUE(CreateAnswersReady("snap-b"));
  answers.push_back(ListAnswersReady(id));
  answers.push_back(CreateAnswersReady("snap-a"));
  answers.push_back(ListAnswersReady(id));
  EXPECT_THAT(answers, ElementsAre(false, false, true, true));

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["snapshots"]["snap-a"]["ready"], true);
  EXPECT_EQ(state["snapshots"]["snap-a"]["answers"], 4);
  EXPECT_EQ(state["snapshots"]["snap-a"]["list_calls"], 2);
}

// A failed call answers nothing, so it does not bring readiness closer.
TEST_F(FaultDriverSnapshotFaultsTest, FailedCallsAreNoReadinessAnswers) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"ready_after": 3, "times": 1},
                                     {"code": "ABORTED", "times": 2}]})");
  EXPECT_FALSE(CreateAnswersReady("snap-a"));  // answer 1
  EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::ABORTED);
  EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::ABORTED);
  EXPECT_FALSE(CreateAnswersReady("snap-a"));  // answer 2, the 4th call
  EXPECT_TRUE(CreateAnswersReady("snap-a"));   // answer 3
}

TEST_F(FaultDriverSnapshotFaultsTest, DeleteFaultKeepsTheSnapshot) {
  StartSnapshotDriver();
  const std::string id = CreateSnapshotId("snap-a");
  WriteFaults(
      R"({"DeleteSnapshot": [{"snapshot_name": "snap-a", "code": "INTERNAL", "times": 1}]})");
  EXPECT_EQ(DeleteSnapshot(id).error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(ReadState()["existing_snapshots"], (nlohmann::json{id}));
  EXPECT_TRUE(DeleteSnapshot(id).ok());
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_snapshots"], IsEmpty());
  EXPECT_EQ(state["snapshots"]["snap-a"]["delete_calls"], 2);
}

TEST_F(FaultDriverSnapshotFaultsTest, DeleteAfterSuccessDeletesButReportsFailure) {
  StartSnapshotDriver();
  const std::string id = CreateSnapshotId("snap-a");
  WriteFaults(R"({"DeleteSnapshot": [{"code": "DEADLINE_EXCEEDED", "after_success": true}]})");
  EXPECT_EQ(DeleteSnapshot(id).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_THAT(ReadState()["existing_snapshots"], IsEmpty());
}

TEST_F(FaultDriverSnapshotFaultsTest, ListSnapshotsFaultForOneSnapshot) {
  StartSnapshotDriver();
  const std::string a = CreateSnapshotId("snap-a");
  const std::string b = CreateSnapshotId("snap-b");
  WriteFaults(R"({"ListSnapshots": [{"snapshot_name": "snap-a", "code": "ABORTED", "times": 1}]})");
  csi::v1::ListSnapshotsRequest request;
  request.set_snapshot_id(b);
  csi::v1::ListSnapshotsResponse response;
  EXPECT_TRUE(ListSnapshots(request, &response).ok());
  request.set_snapshot_id(a);
  EXPECT_EQ(ListSnapshots(request, &response).error_code(), grpc::StatusCode::ABORTED);
  EXPECT_TRUE(ListSnapshots(request, &response).ok());
  EXPECT_EQ(ReadState()["snapshots"]["snap-a"]["list_calls"], 2);
}

TEST_F(FaultDriverSnapshotFaultsTest, VolumeIdFilterMatchesTheSourceVolume) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"volume_id": "vol-2", "code": "RESOURCE_EXHAUSTED"}]})");
  EXPECT_TRUE(CreateSnapshot("snap-a", kVolume).ok());
  EXPECT_EQ(CreateSnapshot("snap-b", kSizelessVolume).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

// A rule that cannot do what it says is refused as a whole file: the previous
// faults stay and the log names the mistake.
TEST_F(FaultDriverSnapshotFaultsTest, ContradictoryOrMisplacedSnapshotRulesAreRejected) {
  StartSnapshotDriver();
  WriteFaults(R"({"CreateSnapshot": [{"code": "ABORTED"}]})");
  ASSERT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::ABORTED);

  const std::vector<std::pair<std::string, std::string>> rejected = {
      {R"({"CreateSnapshot": [{"hang": true, "code": "INTERNAL"}]})", "leave out code"},
      {R"({"CreateSnapshot": [{"never_ready": true, "ready_after": 2}]})", "exclude each other"},
      {R"({"CreateSnapshot": [{"ready_after": 0}]})", "want an integer >= 1"},
      {R"({"ListSnapshots": [{"ready_after": 2}]})", "ListSnapshots[0].ready_after"},
      {R"({"ControllerPublishVolume": [{"snapshot_name": "s"}]})", "[0].snapshot_name"}};
  for (const auto& [faults, error] : rejected) {
    WriteFaults(faults);
    EXPECT_EQ(CreateSnapshot("snap-a").error_code(), grpc::StatusCode::ABORTED) << faults;
  }
  driver_->Stop();
  const std::string log = ReadText(LogPath());
  for (const auto& [faults, error] : rejected) EXPECT_THAT(log, HasSubstr(error)) << faults;
}

}  // namespace
}  // namespace faultdriver
