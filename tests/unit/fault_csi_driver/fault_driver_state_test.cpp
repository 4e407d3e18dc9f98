// The fault driver as a plain attach-capable driver: attachments, ListVolumes
// paging, node checks, the state file, and that slow calls run in parallel.
#include <future>

#include "tests/unit/fault_csi_driver/driver_fixture.h"

namespace faultdriver {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;
using Clock = std::chrono::steady_clock;

class FaultDriverStateTest : public DriverFixture {};

TEST_F(FaultDriverStateTest, PublishIsIdempotentPerNodeAndListShowsAttachments) {
  StartDriver();
  csi::v1::ControllerPublishVolumeResponse first, second;
  ASSERT_TRUE(Publish(PublishRequest("v1"), &first).ok());
  ASSERT_TRUE(Publish(PublishRequest("v1"), &second).ok());
  EXPECT_THAT(first.publish_context(), ElementsAre(Pair("devicePath", "/dev/fault/v1")));
  EXPECT_THAT(second.publish_context(), ElementsAre(Pair("devicePath", "/dev/fault/v1")));
  ASSERT_TRUE(Publish("v2").ok());

  EXPECT_THAT(ListAll(), ElementsAre(Pair("v1", Nodes{kNode}), Pair("v2", Nodes{kNode})));
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes"]["v1"]["publish_calls"], 2);
  EXPECT_EQ(state["volumes"]["v1"]["attaches"], 1);
}

TEST_F(FaultDriverStateTest, UnpublishDetachesAndUnknownVolumeSucceeds) {
  StartDriver();
  ASSERT_TRUE(Publish("v1").ok());
  ASSERT_TRUE(Unpublish("v1").ok());
  ASSERT_TRUE(Unpublish("v1").ok());
  ASSERT_TRUE(Unpublish("never-seen").ok());
  ASSERT_TRUE(Unpublish("v1", "unknown-node").ok());

  EXPECT_THAT(ListAll(), ElementsAre(Pair("never-seen", IsEmpty()), Pair("v1", IsEmpty())));
  nlohmann::json state = ReadState();
  EXPECT_EQ(state["volumes"]["v1"]["unpublish_calls"], 3);
  EXPECT_EQ(state["volumes"]["v1"]["detaches"], 1);
  EXPECT_EQ(state["attachments"], nlohmann::json::object());
}

TEST_F(FaultDriverStateTest, ListVolumesPagesWithMaxEntriesAndStartingToken) {
  StartDriver();
  for (const char* volume : {"v1", "v2", "v3", "v4", "v5"}) ASSERT_TRUE(Publish(volume).ok());

  std::vector<std::string> seen;
  std::vector<int> page_sizes;
  csi::v1::ListVolumesRequest request;
  request.set_max_entries(2);
  do {
    csi::v1::ListVolumesResponse response;
    ASSERT_TRUE(controller_->ListVolumes(Context().get(), request, &response).ok());
    page_sizes.push_back(response.entries_size());
    for (const auto& entry : response.entries()) {
      seen.push_back(entry.volume().volume_id());
      EXPECT_THAT(entry.status().published_node_ids(), ElementsAre(kNode));
    }
    request.set_starting_token(response.next_token());
  } while (!request.starting_token().empty());
  EXPECT_THAT(page_sizes, ElementsAre(2, 2, 1));
  EXPECT_THAT(seen, ElementsAre("v1", "v2", "v3", "v4", "v5"));

  request.set_starting_token("no-such-token");
  csi::v1::ListVolumesResponse response;
  EXPECT_EQ(controller_->ListVolumes(Context().get(), request, &response).error_code(),
            grpc::StatusCode::ABORTED);
}

TEST_F(FaultDriverStateTest, DeclaredVolumesAreListedWithTheirCapacity) {
  StartDriver({"--volumes=vol-1:5368709120,vol-2:0"});
  ASSERT_TRUE(Publish("v3").ok());
  csi::v1::ListVolumesResponse response;
  ASSERT_TRUE(controller_->ListVolumes(Context().get(), {}, &response).ok());
  std::vector<std::pair<std::string, int64_t>> volumes;
  for (const auto& entry : response.entries()) {
    volumes.emplace_back(entry.volume().volume_id(), entry.volume().capacity_bytes());
  }
  EXPECT_THAT(volumes, ElementsAre(Pair("v3", 0), Pair("vol-1", 5368709120), Pair("vol-2", 0)));
  EXPECT_EQ(ReadState()["volumes"]["vol-1"]["capacity_bytes"], 5368709120);
}

TEST_F(FaultDriverStateTest, PublishForAnotherNodeIsNotFound) {
  StartDriver();
  grpc::Status status = Publish("v1", "node-2");
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(ReadState()["attachments"], IsEmpty());
}

TEST_F(FaultDriverStateTest, SingleNodeVolumeOnSecondNodeIsFailedPrecondition) {
  StartDriver({"--node-id=node-1,node-2"});
  ASSERT_TRUE(Publish("v1", "node-1").ok());
  EXPECT_EQ(Publish("v1", "node-2").error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  csi::v1::ControllerPublishVolumeRequest shared = PublishRequest("v2", "node-1");
  shared.mutable_volume_capability()->mutable_access_mode()->set_mode(
      csi::v1::VolumeCapability::AccessMode::MULTI_NODE_MULTI_WRITER);
  ASSERT_TRUE(Publish(shared).ok());
  shared.set_node_id("node-2");
  ASSERT_TRUE(Publish(shared).ok());
  EXPECT_EQ(ListAll()["v2"], (Nodes{"node-1", "node-2"}));
}

TEST_F(FaultDriverStateTest, StateFileRecordsWhatTheDriverSawWithoutSecretValues) {
  StartDriver();
  csi::v1::ControllerPublishVolumeRequest request = PublishRequest("v1");
  request.set_readonly(true);
  (*request.mutable_secrets())["password"] = "s3cr3t-value";
  (*request.mutable_volume_context())["zone"] = "a";
  ASSERT_TRUE(Publish(request).ok());

  nlohmann::json state = ReadState();
  EXPECT_EQ(state["driver"], "fault.csi.test");
  ASSERT_EQ(state["calls"].size(), 1u);
  const nlohmann::json& call = state["calls"][0];
  EXPECT_EQ(call["method"], "ControllerPublishVolume");
  EXPECT_EQ(call["code"], "OK");
  EXPECT_EQ(call["injected"], false);
  EXPECT_EQ(call["request"]["volume_id"], "v1");
  EXPECT_EQ(call["request"]["node_id"], kNode);
  EXPECT_EQ(call["request"]["readonly"], true);
  EXPECT_EQ(call["request"]["volume_capability"]["access_mode"]["mode"], "SINGLE_NODE_WRITER");
  EXPECT_EQ(call["request"]["volume_capability"]["mount"]["fs_type"], "ext4");
  EXPECT_EQ(call["request"]["volume_context"], (nlohmann::json{{"zone", "a"}}));
  EXPECT_EQ(call["request"]["secrets"], (nlohmann::json{"password"}));
  EXPECT_EQ(call["response"]["publish_context"]["devicePath"], "/dev/fault/v1");
  EXPECT_EQ(state["attachments"], (nlohmann::json{{"v1", {kNode}}}));
  EXPECT_EQ(state["volumes"]["v1"]["publish_calls"], 1);

  EXPECT_THAT(ReadText(StatePath()), Not(HasSubstr("s3cr3t-value")));
  driver_->Stop();  // the log is complete once the driver is gone
  EXPECT_THAT(ReadText(LogPath()), HasSubstr("ControllerPublishVolume"));
  EXPECT_THAT(ReadText(LogPath()), Not(HasSubstr("s3cr3t-value")));
}

TEST_F(FaultDriverStateTest, PublishAndUnpublishLatencyIsApplied) {
  StartDriver({"--publish-latency=300ms", "--unpublish-latency=200ms"});
  auto start = Clock::now();
  ASSERT_TRUE(Publish("v1").ok());
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(300));
  start = Clock::now();
  ASSERT_TRUE(Unpublish("v1").ok());
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(200));
}

// Benchmarks need many slow calls in flight at once, like a real cloud API.
TEST_F(FaultDriverStateTest, ConcurrentPublishesAreNotSerialized) {
  StartDriver({"--publish-latency=200ms"});
  const auto start = Clock::now();
  std::vector<std::future<grpc::Status>> calls;
  for (int i = 0; i < 20; ++i) {
    calls.push_back(
        std::async(std::launch::async, [this, i] { return Publish("v" + std::to_string(i)); }));
  }
  for (auto& call : calls) EXPECT_TRUE(call.get().ok());
  const auto elapsed = Clock::now() - start;
  EXPECT_GE(elapsed, std::chrono::milliseconds(200));
  EXPECT_LT(elapsed, std::chrono::seconds(2));  // serialized would be 4 s
  EXPECT_EQ(ListAll().size(), 20u);
}

}  // namespace
}  // namespace faultdriver
