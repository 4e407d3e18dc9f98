// BEHAVIOR.md §2 and §1.4: which plugin and controller capabilities the
// attacher acts on; ControllerGetCapabilities only with CONTROLLER_SERVICE;
// reconcile needs both LIST_VOLUMES and LIST_VOLUMES_PUBLISHED_NODES.
#include "csi/capabilities.h"

#include <gtest/gtest.h>

#include "csi/errors.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using namespace std::chrono_literals;
using PluginType = v1::PluginCapability::Service;
using Rpc = v1::ControllerServiceCapability::RPC;

class CapabilitiesTest : public ::testing::Test {
 protected:
  void Script(std::vector<PluginType::Type> plugin, std::vector<Rpc::Type> controller) {
    driver_.get_plugin_capabilities = [plugin](auto*, auto&,
                                               v1::GetPluginCapabilitiesResponse* response) {
      response->add_capabilities()->mutable_volume_expansion()->set_type(
          v1::PluginCapability::VolumeExpansion::ONLINE);
      for (auto type : plugin) response->add_capabilities()->mutable_service()->set_type(type);
      return grpc::Status::OK;
    };
    driver_.controller_get_capabilities =
        [this, controller](auto*, auto&, v1::ControllerGetCapabilitiesResponse* response) {
          ++controller_calls_;
          response->add_capabilities();  // no rpc set: ignored
          for (auto type : controller) response->add_capabilities()->mutable_rpc()->set_type(type);
          return grpc::Status::OK;
        };
  }

  base::Result<Capabilities> Get() {
    driver_.Start();
    ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    auto connection = Connect(driver_.socket_path(), options);
    if (!connection.ok()) return connection.error();
    return GetCapabilities(**connection, 1s);
  }

  std::atomic<int> controller_calls_{0};
  testing::FakeDriver driver_;
};

TEST_F(CapabilitiesTest, FullAttachAndReconcileDriver) {
  Script({PluginType::CONTROLLER_SERVICE},
         {Rpc::CREATE_DELETE_VOLUME, Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::PUBLISH_READONLY,
          Rpc::LIST_VOLUMES, Rpc::LIST_VOLUMES_PUBLISHED_NODES, Rpc::SINGLE_NODE_MULTI_WRITER});
  auto caps = Get();
  ASSERT_TRUE(caps.ok()) << caps.error().message;
  EXPECT_EQ(*caps, (Capabilities{.controller_service = true,
                                 .publish_unpublish = true,
                                 .publish_readonly = true,
                                 .list_volumes = true,
                                 .list_volumes_published_nodes = true,
                                 .single_node_multi_writer = true}));
  EXPECT_TRUE(caps->CanAttach());
  EXPECT_TRUE(caps->CanReconcile());
}

TEST_F(CapabilitiesTest, ReconcileNeedsBothListCapabilities) {
  Script({PluginType::CONTROLLER_SERVICE}, {Rpc::PUBLISH_UNPUBLISH_VOLUME, Rpc::LIST_VOLUMES});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_TRUE(caps->CanAttach());
  EXPECT_FALSE(caps->CanReconcile());
  EXPECT_FALSE(caps->publish_readonly);
  EXPECT_FALSE(caps->single_node_multi_writer);
}

TEST_F(CapabilitiesTest, NoControllerServiceSkipsControllerCall) {
  Script({PluginType::VOLUME_ACCESSIBILITY_CONSTRAINTS}, {Rpc::PUBLISH_UNPUBLISH_VOLUME});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_EQ(*caps, Capabilities{});
  EXPECT_FALSE(caps->CanAttach());
  EXPECT_EQ(controller_calls_, 0);
}

TEST_F(CapabilitiesTest, NoPublishMeansTrivialHandler) {
  Script({PluginType::CONTROLLER_SERVICE}, {Rpc::CREATE_DELETE_VOLUME});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_TRUE(caps->controller_service);
  EXPECT_FALSE(caps->CanAttach());
}

TEST_F(CapabilitiesTest, ErrorsAreReturned) {
  Script({PluginType::CONTROLLER_SERVICE}, {});
  driver_.controller_get_capabilities = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "");
  };
  auto caps = Get();
  ASSERT_FALSE(caps.ok());
  EXPECT_EQ(caps.error().code, grpc::StatusCode::UNIMPLEMENTED);
}

TEST_F(CapabilitiesTest, BothCallsShareOneDeadline) {
  Script({PluginType::CONTROLLER_SERVICE}, {});
  driver_.get_plugin_capabilities = [](auto*, auto&, v1::GetPluginCapabilitiesResponse* response) {
    std::this_thread::sleep_for(600ms);
    response->add_capabilities()->mutable_service()->set_type(PluginType::CONTROLLER_SERVICE);
    return grpc::Status::OK;
  };
  driver_.controller_get_capabilities = [](grpc::ServerContext*, auto&, auto*) {
    std::this_thread::sleep_for(600ms);  // 1.2 s in total > the 1 s deadline
    return grpc::Status::OK;
  };
  auto caps = Get();
  ASSERT_FALSE(caps.ok());
  EXPECT_EQ(caps.error().code, grpc::StatusCode::DEADLINE_EXCEEDED);
}

}  // namespace
}  // namespace csi
