// Faults injected through <control-dir>/faults.json while the driver runs.
#include <future>

#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using Clock = std::chrono::steady_clock;

class FaultDriverFaultsTest : public DriverFixture {};

TEST_F(FaultDriverFaultsTest, FaultWithTimesOneAppliesOnceToMatchingVolume) {
  StartDriver();
  WriteFaults(R"({"ControllerPublishVolume": [
      {"volume_id": "v1", "code": "INTERNAL", "message": "disk on fire", "times": 1}]})");

  ASSERT_TRUE(Publish("v2").ok());  // filtered out by volume_id
  grpc::Status failed = Publish("v1");
  EXPECT_EQ(failed.error_code(), grpc::StatusCode::INTERNAL);
  EXPECT_EQ(failed.error_message(), "disk on fire");
  EXPECT_THAT(ListAll()["v1"], IsEmpty());  // failed before the state change
  EXPECT_TRUE(Publish("v1").ok());
  EXPECT_EQ(ListAll()["v1"], Nodes{kNode});

  nlohmann::json calls = ReadState()["calls"];
  EXPECT_EQ(calls[1]["code"], "INTERNAL");
  EXPECT_EQ(calls[1]["injected"], true);
}

TEST_F(FaultDriverFaultsTest, AfterSuccessAttachesButReportsFailure) {
  StartDriver();
  WriteFaults(R"({"ControllerPublishVolume": [
      {"code": "DEADLINE_EXCEEDED", "after_success": true, "times": 1}]})");
  EXPECT_EQ(Publish("v1").error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(ListAll()["v1"], Nodes{kNode});
  EXPECT_TRUE(Publish("v1").ok());  // the retry finds it attached

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes"]["v1"]["publish_calls"], 2);
  EXPECT_EQ(state["volumes"]["v1"]["attaches"], 1);
}

TEST_F(FaultDriverFaultsTest, UnpublishFaultKeepsVolumeAttached) {
  StartDriver();
  ASSERT_TRUE(Publish("v1").ok());
  WriteFaults(R"({"ControllerUnpublishVolume": [{"code": "UNAVAILABLE", "times": -1}]})");
  EXPECT_EQ(Unpublish("v1").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Unpublish("v1").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(ListAll()["v1"], Nodes{kNode});

  std::filesystem::remove(ControlDir() / "faults.json");  // no file, no faults
  EXPECT_TRUE(Unpublish("v1").ok());
  EXPECT_THAT(ListAll()["v1"], IsEmpty());
}

TEST_F(FaultDriverFaultsTest, DelayIsSleptBeforeAnswering) {
  StartDriver();
  WriteFaults(R"({"ControllerPublishVolume": [{"delay": "300ms", "times": 1}]})");
  const auto start = Clock::now();
  EXPECT_TRUE(Publish("v1").ok());
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(300));
}

TEST_F(FaultDriverFaultsTest, DetachBehindBackDropsAttachmentOnce) {
  StartDriver();
  ASSERT_TRUE(Publish("v1").ok());
  ASSERT_TRUE(Publish("v2").ok());
  WriteFaults(R"({"detach_behind_back": ["v1"]})");
  EXPECT_THAT(ListAll(), ElementsAre(Pair("v1", IsEmpty()), Pair("v2", Nodes{kNode})));

  ASSERT_TRUE(Publish("v1").ok());  // the reconciler's re-attach sticks
  EXPECT_EQ(ListAll()["v1"], Nodes{kNode});
  EXPECT_EQ(ReadState()["volumes"]["v1"]["detached_behind_back"], 1);
}

TEST_F(FaultDriverFaultsTest, ProbeNotReadyForTimesCalls) {
  StartDriver();
  WriteFaults(R"({"Probe": [{"ready": false, "times": 2}]})");
  std::vector<bool> answers;
  for (int i = 0; i < 3; ++i) {
    csi::v1::ProbeResponse response;
    ASSERT_TRUE(identity_->Probe(Context().get(), {}, &response).ok());
    ASSERT_TRUE(response.has_ready());
    answers.push_back(response.ready().value());
  }
  EXPECT_THAT(answers, ElementsAre(false, false, true));
}

TEST_F(FaultDriverFaultsTest, ListVolumesFault) {
  StartDriver();
  WriteFaults(R"({"ListVolumes": [{"code": "DEADLINE_EXCEEDED", "times": 1}]})");
  csi::v1::ListVolumesResponse response;
  EXPECT_EQ(controller_->ListVolumes(Context().get(), {}, &response).error_code(),
            grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_TRUE(controller_->ListVolumes(Context().get(), {}, &response).ok());
}

TEST_F(FaultDriverFaultsTest, UnparsableFaultsFileKeepsPreviousFaults) {
  StartDriver();
  WriteFaults(R"({"ControllerPublishVolume": [{"code": "ABORTED"}]})");
  EXPECT_EQ(Publish("v1").error_code(), grpc::StatusCode::ABORTED);
  WriteFaults(R"({"ControllerPublishVolume": [{"code": "NO_SUCH_CODE"}]})");
  EXPECT_EQ(Publish("v1").error_code(), grpc::StatusCode::ABORTED);
  WriteFaults(R"({})");
  EXPECT_TRUE(Publish("v1").ok());
}

// SIGTERM must not wait for an injected delay to run out.
TEST_F(FaultDriverFaultsTest, SigtermEndsLongDelayAndExitsCleanly) {
  StartDriver();
  WriteFaults(R"({"ControllerPublishVolume": [{"delay": "10m"}]})");
  auto stuck = std::async(std::launch::async, [this] { return Publish("v1"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let the call start

  const auto start = Clock::now();
  driver_->Stop(std::chrono::seconds(20));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(driver_->exit_status(), 0) << driver_->LogTail(20);
  EXPECT_FALSE(stuck.get().ok());
  EXPECT_FALSE(std::filesystem::exists(SocketPath()));
}

}  // namespace
}  // namespace faultdriver
