// Faults of CreateVolume and DeleteVolume through faults.json: codes,
// counts, hangs and delays past the caller's deadline (volumes the caller
// never heard of), smaller capacities, and the volume filters.
#include "tests/unit/fault_csi_driver/volume_fixture.h"

namespace faultdriver {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

class FaultDriverVolumeFaultsTest : public VolumeFixture {};

class CreateVolumeCodeTest : public VolumeFixture,
                             public ::testing::WithParamInterface<std::string> {};

TEST_P(CreateVolumeCodeTest, InjectedCodeFailsTheCallBeforeAnyVolumeExists) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"code": ")" + GetParam() + R"(", "message": "no disk"}]})");
  grpc::Status status = CreateVolume("pvc-1");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.error_message(), "no disk");

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["calls"][0]["code"], GetParam());
  EXPECT_EQ(state["calls"][0]["injected"], true);
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_calls"], 1);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 0);
}

INSTANTIATE_TEST_SUITE_P(NonFinalAndFinalCodes, CreateVolumeCodeTest,
                         ::testing::Values("DEADLINE_EXCEEDED", "UNAVAILABLE", "RESOURCE_EXHAUSTED",
                                           "ABORTED", "INVALID_ARGUMENT", "OUT_OF_RANGE",
                                           "INTERNAL"));

TEST_F(FaultDriverVolumeFaultsTest, FirstNCallsFailThenTheVolumeIsCreated) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"code": "RESOURCE_EXHAUSTED", "times": 2}]})");
  EXPECT_EQ(CreateVolume("pvc-1").error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(CreateVolume("pvc-1").error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_TRUE(CreateVolume("pvc-1").ok());
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_calls"], 3);
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 1);
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{"vol-pvc-1"}));
}

TEST_F(FaultDriverVolumeFaultsTest, HangLastsUntilTheCallersDeadlineAndCreatesNothing) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"hang": true, "times": 1}]})");
  EXPECT_EQ(CreateVolume(CreateRequest("pvc-1"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
}

// The leak a provisioner must clean up: the back end made the volume after
// the caller had given up, so only a retry under the same name finds it.
TEST_F(FaultDriverVolumeFaultsTest, HangAfterSuccessCreatesAVolumeTheCallerNeverSaw) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"hang": true, "after_success": true, "times": 1}]})");
  EXPECT_EQ(CreateVolume(CreateRequest("pvc-1"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "DEADLINE_EXCEEDED");
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{"vol-pvc-1"}));
  const nlohmann::json& entry = state["volumes_by_name"]["pvc-1"];
  EXPECT_EQ(entry["exists"], true);
  EXPECT_EQ(entry["create_ok"], 0);
  EXPECT_EQ(entry["created_after_caller_gave_up"], true);

  EXPECT_EQ(CreateVolumeId("pvc-1"), "vol-pvc-1");  // the retry finds it
  ASSERT_TRUE(DeleteVolume("vol-pvc-1").ok());
  state = ReadState();
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["create_ok"], 1);
  EXPECT_EQ(state["volumes"]["vol-pvc-1"]["delete_ok"], 1);
}

// A slow back end: it answers OK, but the caller has already given up.
TEST_F(FaultDriverVolumeFaultsTest, DelayPastTheDeadlineStillCreatesTheVolume) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"delay": "1s", "times": 1}]})");
  EXPECT_EQ(CreateVolume(CreateRequest("pvc-1"), nullptr, kShortDeadline).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);

  nlohmann::json state = WaitForRecordedCalls(1);
  EXPECT_EQ(state["calls"][0]["code"], "OK");
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{"vol-pvc-1"}));
  EXPECT_EQ(state["volumes_by_name"]["pvc-1"]["created_after_caller_gave_up"], true);
}

TEST_F(FaultDriverVolumeFaultsTest, CapacityBytesFaultAnswersLessThanRequested) {
  StartDriver();
  WriteFaults(
      R"({"CreateVolume": [{"volume_name": "pvc-small", "capacity_bytes": 1048576, "times": 1}]})");
  csi::v1::CreateVolumeResponse small, other, again;
  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-other", 2 * kGiB), &other).ok());
  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-small", 2 * kGiB), &small).ok());
  ASSERT_TRUE(CreateVolume(CreateRequest("pvc-small", 2 * kGiB), &again).ok());
  EXPECT_EQ(other.volume().capacity_bytes(), 2 * kGiB);
  EXPECT_EQ(small.volume().capacity_bytes(), 1048576);
  EXPECT_EQ(again.volume().capacity_bytes(), 1048576);  // the volume's own size

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes_by_name"]["pvc-small"]["capacity_bytes"], 1048576);
  EXPECT_EQ(state["volumes"]["vol-pvc-small"]["capacity_bytes"], 1048576);
}

TEST_F(FaultDriverVolumeFaultsTest, DeleteFaultKeepsTheVolume) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  WriteFaults(R"({"DeleteVolume": [{"volume_name": "pvc-1", "code": "NOT_FOUND", "times": 1}]})");
  EXPECT_EQ(DeleteVolume(id).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ReadState()["existing_volumes"], (nlohmann::json{id}));
  EXPECT_TRUE(DeleteVolume(id).ok());

  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes"][id]["delete_calls"], 2);
  EXPECT_EQ(state["volumes"][id]["delete_ok"], 1);
}

TEST_F(FaultDriverVolumeFaultsTest, DeleteAfterSuccessDeletesButReportsFailure) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  WriteFaults(R"({"DeleteVolume": [{"volume_id": ")" + id +
              R"(", "code": "DEADLINE_EXCEEDED", "after_success": true}]})");
  EXPECT_EQ(DeleteVolume(id).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  nlohmann::json state = ReadState();
  EXPECT_THAT(state["existing_volumes"], IsEmpty());
  EXPECT_EQ(state["volumes"][id]["delete_ok"], 0);
}

TEST_F(FaultDriverVolumeFaultsTest, DeleteHangKeepsTheVolume) {
  StartDriver();
  const std::string id = CreateVolumeId("pvc-1");
  WriteFaults(R"({"DeleteVolume": [{"hang": true, "times": 1}]})");
  EXPECT_EQ(DeleteVolume(id, kShortDeadline).error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  nlohmann::json state = WaitForRecordedCalls(2);
  EXPECT_EQ(state["existing_volumes"], (nlohmann::json{id}));
  EXPECT_EQ(state["volumes"][id]["delete_calls"], 1);
}

// A rule that cannot do what it says is refused as a whole file: the previous
// faults stay and the log names the mistake.
TEST_F(FaultDriverVolumeFaultsTest, MisplacedVolumeRulesAreRejected) {
  StartDriver();
  WriteFaults(R"({"CreateVolume": [{"code": "ABORTED"}]})");
  ASSERT_EQ(CreateVolume("pvc-1").error_code(), grpc::StatusCode::ABORTED);

  const std::vector<std::pair<std::string, std::string>> rejected = {
      {R"({"CreateVolume": [{"capacity_bytes": -1}]})", "want an integer >= 0"},
      {R"({"DeleteVolume": [{"capacity_bytes": 1}]})", "DeleteVolume[0].capacity_bytes"},
      {R"({"ControllerPublishVolume": [{"volume_name": "v"}]})", "[0].volume_name"}};
  for (const auto& [faults, error] : rejected) {
    WriteFaults(faults);
    EXPECT_EQ(CreateVolume("pvc-1").error_code(), grpc::StatusCode::ABORTED) << faults;
  }
  driver_->Stop();
  const std::string log = ReadText(LogPath());
  for (const auto& [faults, error] : rejected) EXPECT_THAT(log, HasSubstr(error)) << faults;
}

}  // namespace
}  // namespace faultdriver
