// The attacher's reading of the driver's capabilities: the CSI handler needs
// CONTROLLER_SERVICE with PUBLISH_UNPUBLISH_VOLUME (else the trivial handler
// runs); the reconciler needs both LIST_VOLUMES and
// LIST_VOLUMES_PUBLISHED_NODES.
#include "attacher/capability_policy.h"

#include <gtest/gtest.h>

namespace attacher {
namespace {

using csi::ControllerRpc;
using csi::PluginService;

csi::Capabilities ControllerCapabilities(std::set<ControllerRpc::Type> rpcs) {
  return {.plugin_services = {PluginService::CONTROLLER_SERVICE},
          .controller_rpcs = std::move(rpcs)};
}

TEST(CapabilityPolicyTest, FullAttachAndReconcileDriver) {
  csi::Capabilities caps = ControllerCapabilities(
      {ControllerRpc::CREATE_DELETE_VOLUME, ControllerRpc::PUBLISH_UNPUBLISH_VOLUME,
       ControllerRpc::PUBLISH_READONLY, ControllerRpc::LIST_VOLUMES,
       ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES, ControllerRpc::SINGLE_NODE_MULTI_WRITER});
  EXPECT_TRUE(CanAttach(caps));
  EXPECT_TRUE(CanReconcile(caps));
}

TEST(CapabilityPolicyTest, ReconcileNeedsBothListCapabilities) {
  csi::Capabilities caps = ControllerCapabilities(
      {ControllerRpc::PUBLISH_UNPUBLISH_VOLUME, ControllerRpc::LIST_VOLUMES});
  EXPECT_TRUE(CanAttach(caps));
  EXPECT_FALSE(CanReconcile(caps));
  caps.controller_rpcs = {ControllerRpc::PUBLISH_UNPUBLISH_VOLUME,
                          ControllerRpc::LIST_VOLUMES_PUBLISHED_NODES};
  EXPECT_FALSE(CanReconcile(caps));
}

TEST(CapabilityPolicyTest, NoControllerServiceMeansTrivialHandler) {
  csi::Capabilities caps{.plugin_services = {PluginService::VOLUME_ACCESSIBILITY_CONSTRAINTS},
                         .controller_rpcs = {ControllerRpc::PUBLISH_UNPUBLISH_VOLUME}};
  EXPECT_FALSE(CanAttach(caps));
  EXPECT_FALSE(CanAttach(csi::Capabilities{}));
}

TEST(CapabilityPolicyTest, NoPublishMeansTrivialHandler) {
  EXPECT_FALSE(CanAttach(ControllerCapabilities({ControllerRpc::CREATE_DELETE_VOLUME})));
}

TEST(CapabilityPolicyTest, SnapshotOnlyDriverIsNotAttached) {
  csi::Capabilities caps{
      .plugin_services = {PluginService::CONTROLLER_SERVICE,
                          PluginService::GROUP_CONTROLLER_SERVICE},
      .controller_rpcs = {ControllerRpc::CREATE_DELETE_SNAPSHOT, ControllerRpc::LIST_SNAPSHOTS},
      .group_controller_rpcs = {csi::GroupControllerRpc::CREATE_DELETE_GET_VOLUME_GROUP_SNAPSHOT}};
  EXPECT_FALSE(CanAttach(caps));
  EXPECT_FALSE(CanReconcile(caps));
}

}  // namespace
}  // namespace attacher
