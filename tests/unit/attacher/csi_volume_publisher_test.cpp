// docs/attacher.md §5.3 steps 4 and 7, §5.4: the Publish/Unpublish requests as the
// driver receives them, each under --timeout, with `migrated` reported to
// the metrics hook.
#include "attacher/csi_volume_publisher.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <mutex>

#include "tests/unit/csi/fake_driver.h"

namespace attacher {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::Pair;
namespace v1 = csi::v1;

class CsiVolumePublisherTest : public ::testing::Test {
 protected:
  void Connect(std::chrono::nanoseconds timeout = 5s) {
    driver_.Start();
    csi::ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    options.metrics = [this](const csi::CallRecord& record) {
      std::lock_guard lock(mu_);
      migrated_.push_back(record.migrated);
    };
    auto connection = csi::Connect(driver_.socket_path(), options);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    connection_ = std::move(connection).value();
    client_ = std::make_unique<csi::ControllerClient>(*connection_);
    publisher_ = std::make_unique<CsiVolumePublisher>(*client_, timeout);
  }

  std::mutex mu_;
  std::vector<bool> migrated_;  // of each call; guarded by mu_
  csi::testing::FakeDriver driver_;
  std::unique_ptr<csi::Connection> connection_;
  std::unique_ptr<csi::ControllerClient> client_;
  std::unique_ptr<CsiVolumePublisher> publisher_;
};

TEST_F(CsiVolumePublisherTest, PublishSendsMountRequestAndReturnsPublishContext) {
  v1::ControllerPublishVolumeRequest seen;
  driver_.publish = [&](auto*, const v1::ControllerPublishVolumeRequest& request,
                        v1::ControllerPublishVolumeResponse* response) {
    seen = request;
    (*response->mutable_publish_context())["devicePath"] = "/dev/sdb";
    return grpc::Status::OK;
  };
  Connect();
  PublishRequest request;
  request.volume_id = "vol-1";
  request.node_id = "node-id-1";
  request.readonly = true;
  request.capability.fs_type = "ext4";
  request.capability.mount_flags = {"noatime", "discard"};
  request.capability.access_mode = AccessMode::kSingleNodeMultiWriter;
  request.secrets = {{"password", "hunter2"}};
  request.volume_context = {{"pool", "gold"}};

  auto context = publisher_->Publish(request);

  ASSERT_TRUE(context.ok()) << context.error().message;
  EXPECT_THAT(*context, ElementsAre(Pair("devicePath", "/dev/sdb")));
  EXPECT_EQ(seen.volume_id(), "vol-1");
  EXPECT_EQ(seen.node_id(), "node-id-1");
  EXPECT_TRUE(seen.readonly());
  ASSERT_TRUE(seen.volume_capability().has_mount());
  EXPECT_EQ(seen.volume_capability().mount().fs_type(), "ext4");
  EXPECT_THAT(seen.volume_capability().mount().mount_flags(), ElementsAre("noatime", "discard"));
  EXPECT_EQ(seen.volume_capability().access_mode().mode(),
            v1::VolumeCapability::AccessMode::SINGLE_NODE_MULTI_WRITER);
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("password", "hunter2")));
  EXPECT_THAT(seen.volume_context(), ElementsAre(Pair("pool", "gold")));
}

TEST_F(CsiVolumePublisherTest, PublishSendsBlockCapability) {
  v1::ControllerPublishVolumeRequest seen;
  driver_.publish = [&](auto*, const v1::ControllerPublishVolumeRequest& request, auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  PublishRequest request;
  request.capability.block = true;
  request.capability.access_mode = AccessMode::kMultiNodeMultiWriter;

  ASSERT_TRUE(publisher_->Publish(request).ok());
  EXPECT_TRUE(seen.volume_capability().has_block());
  EXPECT_FALSE(seen.volume_capability().has_mount());
  EXPECT_FALSE(seen.readonly());
  EXPECT_EQ(seen.volume_capability().access_mode().mode(),
            v1::VolumeCapability::AccessMode::MULTI_NODE_MULTI_WRITER);
}

TEST_F(CsiVolumePublisherTest, UnpublishSendsVolumeNodeAndSecrets) {
  v1::ControllerUnpublishVolumeRequest seen;
  driver_.unpublish = [&](auto*, const v1::ControllerUnpublishVolumeRequest& request, auto*) {
    seen = request;
    return grpc::Status::OK;
  };
  Connect();
  UnpublishRequest request;
  request.volume_id = "vol-1";
  request.node_id = "node-id-1";
  request.secrets = {{"token", "t"}};

  auto status = publisher_->Unpublish(request);

  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_EQ(seen.volume_id(), "vol-1");
  EXPECT_EQ(seen.node_id(), "node-id-1");
  EXPECT_THAT(seen.secrets(), ElementsAre(Pair("token", "t")));
}

TEST_F(CsiVolumePublisherTest, EachCallRunsUnderTheTimeout) {
  driver_.publish = [](grpc::ServerContext* context, auto&, auto*) {
    csi::testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  driver_.unpublish = [](grpc::ServerContext* context, auto&, auto*) {
    csi::testing::WaitForCancel(context);
    return grpc::Status::OK;
  };
  Connect(100ms);

  auto context = publisher_->Publish({});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
  auto status = publisher_->Unpublish({});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

TEST_F(CsiVolumePublisherTest, DriverErrorKeepsItsGrpcCode) {
  driver_.publish = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such volume");
  };
  Connect();

  auto context = publisher_->Publish({});
  ASSERT_FALSE(context.ok());
  EXPECT_EQ(context.error().code, grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(context.error().message, "rpc error: code = NotFound desc = no such volume");
}

TEST_F(CsiVolumePublisherTest, MigratedIsReportedToMetrics) {
  Connect();
  PublishRequest publish;
  publish.migrated = true;
  UnpublishRequest unpublish;

  ASSERT_TRUE(publisher_->Publish(publish).ok());
  ASSERT_TRUE(publisher_->Unpublish(unpublish).ok());
  std::lock_guard lock(mu_);
  EXPECT_THAT(migrated_, ElementsAre(true, false));
}

}  // namespace
}  // namespace attacher
