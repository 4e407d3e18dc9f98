#include "csi/capabilities.h"

#include "csi/controller_client.h"
#include "csi/identity_client.h"

namespace csi {

base::Result<Capabilities> GetCapabilities(Connection& connection,
                                           std::chrono::nanoseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  Capabilities caps;

  auto plugin = IdentityClient(connection).GetPluginCapabilities(timeout);
  if (!plugin.ok()) return plugin.error();
  for (const auto& cap : plugin->capabilities()) {
    if (cap.has_service() &&
        cap.service().type() == v1::PluginCapability::Service::CONTROLLER_SERVICE) {
      caps.controller_service = true;
    }
  }
  if (!caps.controller_service) return caps;

  auto remaining = deadline - std::chrono::steady_clock::now();
  auto controller = ControllerClient(connection).ControllerGetCapabilities(remaining);
  if (!controller.ok()) return controller.error();
  for (const auto& cap : controller->capabilities()) {
    if (!cap.has_rpc()) continue;
    using Rpc = v1::ControllerServiceCapability::RPC;
    switch (cap.rpc().type()) {
      case Rpc::PUBLISH_UNPUBLISH_VOLUME:
        caps.publish_unpublish = true;
        break;
      case Rpc::PUBLISH_READONLY:
        caps.publish_readonly = true;
        break;
      case Rpc::LIST_VOLUMES:
        caps.list_volumes = true;
        break;
      case Rpc::LIST_VOLUMES_PUBLISHED_NODES:
        caps.list_volumes_published_nodes = true;
        break;
      case Rpc::SINGLE_NODE_MULTI_WRITER:
        caps.single_node_multi_writer = true;
        break;
      default:
        break;
    }
  }
  return caps;
}

}  // namespace csi
