#include "csi/capabilities.h"

#include "csi/controller_client.h"
#include "csi/group_controller_client.h"
#include "csi/identity_client.h"

namespace csi {

base::Result<Capabilities> GetCapabilities(Connection& connection, std::chrono::nanoseconds timeout,
                                           CapabilityQuery query) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining = [deadline] { return deadline - std::chrono::steady_clock::now(); };
  Capabilities caps;

  auto plugin = IdentityClient(connection).GetPluginCapabilities(timeout);
  if (!plugin.ok()) return plugin.error();
  for (const auto& cap : plugin->capabilities()) {
    if (cap.has_service()) caps.plugin_services.insert(cap.service().type());
  }

  if (caps.Has(PluginService::CONTROLLER_SERVICE)) {
    auto controller = ControllerClient(connection).ControllerGetCapabilities(remaining());
    if (!controller.ok()) return controller.error();
    for (const auto& cap : controller->capabilities()) {
      if (cap.has_rpc()) caps.controller_rpcs.insert(cap.rpc().type());
    }
  }

  if (query.group_controller && caps.Has(PluginService::GROUP_CONTROLLER_SERVICE)) {
    auto group = GroupControllerClient(connection).GroupControllerGetCapabilities(remaining());
    if (!group.ok()) return group.error();
    for (const auto& cap : group->capabilities()) {
      if (cap.has_rpc()) caps.group_controller_rpcs.insert(cap.rpc().type());
    }
  }
  return caps;
}

}  // namespace csi
