// Capability sets as a driver advertises them: plugin services always,
// ControllerGetCapabilities only with CONTROLLER_SERVICE,
// GroupControllerGetCapabilities only when asked for and with
// GROUP_CONTROLLER_SERVICE; all calls under one deadline.
#include "csi/capabilities.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "csi/errors.h"
#include "tests/unit/csi/fake_driver.h"

namespace csi {
namespace {

using namespace std::chrono_literals;

class CapabilitiesTest : public ::testing::Test {
 protected:
  void Script(std::vector<PluginService::Type> plugin, std::vector<ControllerRpc::Type> controller,
              std::vector<GroupControllerRpc::Type> group_controller = {}) {
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
    driver_.group_controller_get_capabilities =
        [this, group_controller](auto*, auto&,
                                 v1::GroupControllerGetCapabilitiesResponse* response) {
          ++group_controller_calls_;
          response->add_capabilities();  // no rpc set: ignored
          for (auto type : group_controller) {
            response->add_capabilities()->mutable_rpc()->set_type(type);
          }
          return grpc::Status::OK;
        };
  }

  base::Result<std::unique_ptr<Connection>> StartAndConnect() {
    driver_.Start();
    ConnectOptions options;
    options.on_connection_loss = [] { ADD_FAILURE() << "connection lost"; };
    return Connect(driver_.socket_path(), options);
  }

  base::Result<Capabilities> Get(CapabilityQuery query = {}) {
    auto connection = StartAndConnect();
    if (!connection.ok()) return connection.error();
    return GetCapabilities(**connection, 1s, query);
  }

  std::atomic<int> controller_calls_{0};
  std::atomic<int> group_controller_calls_{0};
  testing::FakeDriver driver_;
};

TEST_F(CapabilitiesTest, AttachAndReconcileDriver) {
  Script({PluginService::CONTROLLER_SERVICE},
         {ControllerRpc::CREATE_DELETE_VOLUME, ControllerRpc::PUBLISH_UNPUBLISH_VOLUME,
          ControllerRpc::PUBLISH_READONLY, ControllerRpc::LIST_VOLUMES,
          ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES, ControllerRpc::SINGLE_NODE_MULTI_WRITER});
  auto caps = Get();
  ASSERT_TRUE(caps.ok()) << caps.error().message;
  EXPECT_EQ(*caps,
            (Capabilities{
                .plugin_services = {PluginService::CONTROLLER_SERVICE},
                .controller_rpcs = {ControllerRpc::CREATE_DELETE_VOLUME,
                                    ControllerRpc::PUBLISH_UNPUBLISH_VOLUME,
                                    ControllerRpc::PUBLISH_READONLY, ControllerRpc::LIST_VOLUMES,
                                    ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES,
                                    ControllerRpc::SINGLE_NODE_MULTI_WRITER},
            }));
  EXPECT_TRUE(caps->Has(ControllerRpc::PUBLISH_READONLY));
  EXPECT_FALSE(caps->Has(ControllerRpc::CREATE_DELETE_SNAPSHOT));
}

TEST_F(CapabilitiesTest, OnlyAdvertisedRpcsAreHeld) {
  Script({PluginService::CONTROLLER_SERVICE},
         {ControllerRpc::PUBLISH_UNPUBLISH_VOLUME, ControllerRpc::LIST_VOLUMES});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_TRUE(caps->Has(ControllerRpc::LIST_VOLUMES));
  EXPECT_FALSE(caps->Has(ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES));
  EXPECT_FALSE(caps->Has(ControllerRpc::PUBLISH_READONLY));
  EXPECT_FALSE(caps->Has(ControllerRpc::SINGLE_NODE_MULTI_WRITER));
}

TEST_F(CapabilitiesTest, NoControllerServiceSkipsControllerCall) {
  Script({PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS},
         {ControllerRpc::PUBLISH_UNPUBLISH_VOLUME});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_EQ(*caps,
            Capabilities{.plugin_services = {PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS}});
  EXPECT_FALSE(caps->Has(PluginService::CONTROLLER_SERVICE));
  EXPECT_EQ(controller_calls_, 0);
}

TEST_F(CapabilitiesTest, SnapshotDriverWithGroupController) {
  Script({PluginService::CONTROLLER_SERVICE, PluginService::GROUP_CONTROLLER_SERVICE},
         {ControllerRpc::CREATE_DELETE_SNAPSHOT, ControllerRpc::LIST_SNAPSHOTS},
         {GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT});
  auto caps = Get({.group_controller = true});
  ASSERT_TRUE(caps.ok()) << caps.error().message;
  EXPECT_TRUE(caps->Has(PluginService::GROUP_CONTROLLER_SERVICE));
  EXPECT_TRUE(caps->Has(ControllerRpc::CREATE_DELETE_SNAPSHOT));
  EXPECT_TRUE(caps->Has(ControllerRpc::LIST_SNAPSHOTS));
  EXPECT_FALSE(caps->Has(ControllerRpc::PUBLISH_UNPUBLISH_VOLUME));
  EXPECT_TRUE(caps->Has(GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT));
  EXPECT_EQ(caps->group_controller_rpcs.size(), 1u) << "an entry without rpc is ignored";
  EXPECT_EQ(group_controller_calls_, 1);
}

TEST_F(CapabilitiesTest, GroupControllerIsReadOnlyWhenAskedFor) {
  Script({PluginService::CONTROLLER_SERVICE, PluginService::GROUP_CONTROLLER_SERVICE},
         {ControllerRpc::CREATE_DELETE_SNAPSHOT},
         {GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT});
  auto caps = Get();
  ASSERT_TRUE(caps.ok());
  EXPECT_TRUE(caps->Has(PluginService::GROUP_CONTROLLER_SERVICE));
  EXPECT_FALSE(caps->Has(GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT));
  EXPECT_EQ(group_controller_calls_, 0);
}

TEST_F(CapabilitiesTest, GroupControllerNeedsItsPluginService) {
  Script({PluginService::CONTROLLER_SERVICE}, {ControllerRpc::CREATE_DELETE_SNAPSHOT},
         {GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT});
  auto caps = Get({.group_controller = true});
  ASSERT_TRUE(caps.ok());
  EXPECT_TRUE(caps->group_controller_rpcs.empty());
  EXPECT_EQ(group_controller_calls_, 0);
}

// A sidecar may read one service on its own, as upstream's snapshotter does.
TEST_F(CapabilitiesTest, OneServiceIsReadOnItsOwn) {
  Script({}, {ControllerRpc::CREATE_DELETE_SNAPSHOT},
         {GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT});
  auto connection = StartAndConnect();
  ASSERT_TRUE(connection.ok()) << connection.error().message;
  auto group = GetGroupControllerRpcs(**connection, 1s);
  ASSERT_TRUE(group.ok()) << group.error().message;
  EXPECT_EQ(*group, std::set{GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT});
  auto controller = GetControllerRpcs(**connection, 1s);
  ASSERT_TRUE(controller.ok()) << controller.error().message;
  EXPECT_EQ(*controller, std::set{ControllerRpc::CREATE_DELETE_SNAPSHOT});
}

TEST_F(CapabilitiesTest, ErrorsAreReturned) {
  Script({PluginService::CONTROLLER_SERVICE}, {});
  driver_.controller_get_capabilities = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::UNIMPLEMENTED, "");
  };
  auto caps = Get();
  ASSERT_FALSE(caps.ok());
  EXPECT_TRUE(IsGrpcCode(caps.error(), grpc::StatusCode::UNIMPLEMENTED));
}

TEST_F(CapabilitiesTest, GroupControllerErrorsAreReturned) {
  Script({PluginService::CONTROLLER_SERVICE, PluginService::GROUP_CONTROLLER_SERVICE}, {});
  driver_.group_controller_get_capabilities = [](auto*, auto&, auto*) {
    return grpc::Status(grpc::StatusCode::INTERNAL, "boom");
  };
  auto caps = Get({.group_controller = true});
  ASSERT_FALSE(caps.ok());
  EXPECT_TRUE(IsGrpcCode(caps.error(), grpc::StatusCode::INTERNAL));
}

TEST_F(CapabilitiesTest, BothCallsShareOneDeadline) {
  Script({PluginService::CONTROLLER_SERVICE}, {});
  driver_.get_plugin_capabilities = [](auto*, auto&, v1::GetPluginCapabilitiesResponse* response) {
    std::this_thread::sleep_for(600ms);
    response->add_capabilities()->mutable_service()->set_type(PluginService::CONTROLLER_SERVICE);
    return grpc::Status::OK;
  };
  driver_.controller_get_capabilities = [](grpc::ServerContext*, auto&, auto*) {
    std::this_thread::sleep_for(600ms);  // 1.2 s in total > the 1 s deadline
    return grpc::Status::OK;
  };
  auto caps = Get();
  ASSERT_FALSE(caps.ok());
  EXPECT_TRUE(IsGrpcCode(caps.error(), grpc::StatusCode::DEADLINE_EXCEEDED));
}

}  // namespace
}  // namespace csi
