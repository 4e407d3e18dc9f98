// docs/attacher.md §5.3 step 7 / §5.4: Publish and Unpublish under a deadline;
// §5.7 and §7 (last row): ListVolumes paged with max_entries and
// starting_token until next_token is empty, each page under its own
// deadline, entries without volume or status skipped; gRPC's default 4 MiB
// receive limit (§2).
#include "csi/controller_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>

#include "csi/errors.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using namespace std::chrono_literals;

class ControllerClientTest : public ::testing::Test {
 protected:
  void Connect() {
    driver_.Start();
    ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    auto connection = csi::Connect(driver_.socket_path(), options);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    connection_ = std::move(connection).value();
    client_ = std::make_unique<ControllerClient>(*connection_);
  }

  std::mutex mu_;
  std::vector<std::string> tokens_;  // starting_token of each ListVolumes page
  testing::FakeDriver driver_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<ControllerClient> client_;
};

TEST_F(ControllerClientTest, PublishSendsRequestAndReturnsPublishContext) {
  v1::ControllerPublishVolumeRequest seen;
  driver_.publish = [&](auto*, const v1::ControllerPublishVolumeRequest& request,
                        v1::ControllerPublishVolumeResponse* response) {
    seen = request;
    (*response->mutable_publish_context())["devicePath"] = "/dev/sdb";
    (*response->mutable_publish_context())["lun"] = "3";
    return grpc::Status::OK;
  };
  Connect();
  v1::ControllerPublishVolumeRequest request;
  request.set_volume_id("vol-1");
  request.set_node_id("node-1");
  request.set_readonly(true);
  request.mutable_volume_capability()->mutable_mount()->set_fs_type("ext4");
  request.mutable_volume_capability()->mutable_access_mode()->set_mode(
      v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
  (*request.mutable_secrets())["password"] = "hunter2";
  (*request.mutable_volume_context())["pool"] = "gold";

  auto context = client_->ControllerPublishVolume(request, {.timeout = 5s});
  ASSERT_TRUE(context.ok()) << context.error().message;
  EXPECT_THAT(*context, ElementsAre(Pair("devicePath", "/dev/sdb"), Pair("lun", "3")));
  EXPECT_EQ(seen.SerializeAsString(), request.SerializeAsString());
}

TEST_F(ControllerClientTest, PublishDeadlineExpiryIsDeadlineExceeded) {
  driver_.publish = [](grpc::ServerContext* context, auto&, auto*) {
    testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  Connect();
  auto start = std::chrono::steady_clock::now();
  auto context = client_->ControllerPublishVolume({}, {.timeout = 100ms});
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
  EXPECT_EQ(context.error().message,
            "rpc error: code = DeadlineExceeded desc = context deadline exceeded");
  // gRPC turns the wall-clock deadline into its own monotonic one; the
  // conversion may land a fraction of a millisecond early (99.75 ms seen).
  EXPECT_GE(elapsed, 99ms);
  EXPECT_LT(elapsed, 2s);
}

TEST_F(ControllerClientTest, PublishDriverErrorKeepsCodeAndMessage) {
  driver_.publish = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "volume is attached elsewhere");
  };
  Connect();
  auto context = client_->ControllerPublishVolume({}, {.timeout = 5s});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().code, grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(context.error().message,
            "rpc error: code = FailedPrecondition desc = volume is attached elsewhere");
}

TEST_F(ControllerClientTest, UnpublishSendsRequest) {
  v1::ControllerUnpublishVolumeRequest seen;
  driver_.unpublish = [&](auto*, const v1::ControllerUnpublishVolumeRequest& request, auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  v1::ControllerUnpublishVolumeRequest request;
  request.set_volume_id("vol-1");
  request.set_node_id("node-1");
  (*request.mutable_secrets())["password"] = "hunter2";
  ASSERT_TRUE(client_->ControllerUnpublishVolume(request, {.timeout = 5s}).ok());
  EXPECT_EQ(seen.SerializeAsString(), request.SerializeAsString());
}

TEST_F(ControllerClientTest, UnpublishDeadlineExpiryIsDeadlineExceeded) {
  driver_.unpublish = [](grpc::ServerContext* context, auto&, auto*) {
    testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  Connect();
  auto status = client_->ControllerUnpublishVolume({}, {.timeout = 100ms});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

v1::ListVolumesResponse::Entry Entry(std::string volume_id, std::vector<std::string> nodes) {
  v1::ListVolumesResponse::Entry entry;
  entry.mutable_volume()->set_volume_id(std::move(volume_id));
  for (auto& node : nodes) entry.mutable_status()->add_published_node_ids(std::move(node));
  if (entry.status().published_node_ids().empty()) entry.mutable_status();
  return entry;
}

// Three pages ("" -> "p2" -> "p3" -> end), each taking `page_delay`.
void ScriptThreePages(testing::FakeDriver& driver, std::mutex& mu, std::vector<std::string>& tokens,
                      std::chrono::milliseconds page_delay) {
  driver.list_volumes = [&, page_delay](auto*, const v1::ListVolumesRequest& request,
                                        v1::ListVolumesResponse* response) {
    {
      std::lock_guard lock(mu);
      tokens.push_back(request.starting_token());
    }
    if (request.max_entries() != 2) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "");
    std::this_thread::sleep_for(page_delay);
    const std::string& token = request.starting_token();
    if (token.empty()) {
      *response->add_entries() = Entry("vol-1", {"node-a"});
      *response->add_entries() = Entry("vol-2", {"node-a", "node-b"});
      response->set_next_token("p2");
    } else if (token == "p2") {
      *response->add_entries() = Entry("vol-3", {});
      response->add_entries()->mutable_status()->add_published_node_ids("no-volume");
      response->set_next_token("p3");
    } else if (token == "p3") {
      response->add_entries()->mutable_volume()->set_volume_id("no-status");
      *response->add_entries() = Entry("vol-4", {"node-c"});
    } else {
      return grpc::Status(grpc::StatusCode::ABORTED, "invalid starting_token");
    }
    return grpc::Status::OK;
  };
}

TEST_F(ControllerClientTest, ListVolumesFollowsTokensAcrossPages) {
  ScriptThreePages(driver_, mu_, tokens_, 0ms);
  Connect();
  auto published = client_->ListVolumes(2, 5s);
  ASSERT_TRUE(published.ok()) << published.error().message;
  EXPECT_THAT(*published, UnorderedElementsAre(Pair("vol-1", ElementsAre("node-a")),
                                               Pair("vol-2", ElementsAre("node-a", "node-b")),
                                               Pair("vol-3", ElementsAre()),
                                               Pair("vol-4", ElementsAre("node-c"))));
  std::lock_guard lock(mu_);
  EXPECT_THAT(tokens_, ElementsAre("", "p2", "p3"));
}

TEST_F(ControllerClientTest, ListVolumesDeadlineIsPerPage) {
  // 3 pages x 150 ms exceed one 300 ms deadline, but each page fits its own.
  ScriptThreePages(driver_, mu_, tokens_, 150ms);
  Connect();
  auto published = client_->ListVolumes(2, 300ms);
  ASSERT_TRUE(published.ok()) << published.error().message;
  EXPECT_EQ(published->size(), 4u);
}

TEST_F(ControllerClientTest, ListVolumesPageTimeoutFailsThePass) {
  ScriptThreePages(driver_, mu_, tokens_, 150ms);
  Connect();
  auto published = client_->ListVolumes(2, 50ms);
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().message,
            "failed to list volumes: rpc error: code = DeadlineExceeded desc = context deadline "
            "exceeded");
  EXPECT_EQ(published.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(ControllerClientTest, ListVolumesDriverErrorIsWrapped) {
  ScriptThreePages(driver_, mu_, tokens_, 0ms);
  Connect();
  auto published = client_->ListVolumes(3, 5s);  // the script wants max_entries 2
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().message,
            "failed to list volumes: rpc error: code = InvalidArgument desc = ");
}

TEST_F(ControllerClientTest, PagesAboveFourMebibytesAreRefused) {
  driver_.list_volumes = [](auto*, auto&, v1::ListVolumesResponse* response) {
    *response->add_entries() = Entry(std::string(4 << 20, 'v'), {"node-a"});
    return grpc::Status::OK;
  };
  Connect();
  auto published = client_->ListVolumes(0, 5s);
  ASSERT_FALSE(published.ok());
  EXPECT_EQ(published.error().code, grpc::StatusCode::RESOURCE_EXHAUSTED);
}

}  // namespace
}  // namespace csi
