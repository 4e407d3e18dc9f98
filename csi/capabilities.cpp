#include "csi/capabilities.h"

#include <type_traits>
#include <utility>

#include "csi/controller_client.h"
#include "csi/group_controller_client.h"
#include "csi/identity_client.h"

namespace csi {
namespace {

// The RPC types of a Controller or GroupController capabilities response.
template <class Response>
auto RpcTypesOf(const Response& response) {
  std::set<typename std::remove_cvref_t<decltype(response.capabilities(0).rpc())>::Type> types;
  for (const auto& cap : response.capabilities()) {
    if (cap.has_rpc()) types.insert(cap.rpc().type());
  }
  return types;
}

}  // namespace

base::Result<std::set<PluginService::Type>> GetPluginServices(Connection& connection,
                                                              std::chrono::nanoseconds timeout) {
  auto response = IdentityClient(connection).GetPluginCapabilities(timeout);
  if (!response.ok()) return response.error();
  std::set<PluginService::Type> services;
  for (const auto& cap : response->capabilities()) {
    if (cap.has_service()) services.insert(cap.service().type());
  }
  return services;
}

base::Result<std::set<ControllerRpc::Type>> GetControllerRpcs(Connection& connection,
                                                              std::chrono::nanoseconds timeout) {
  auto response = ControllerClient(connection).ControllerGetCapabilities(timeout);
  if (!response.ok()) return response.error();
  return RpcTypesOf(*response);
}

base::Result<std::set<GroupControllerRpc::Type>> GetGroupControllerRpcs(
    Connection& connection, std::chrono::nanoseconds timeout) {
  auto response = GroupControllerClient(connection).GroupControllerGetCapabilities(timeout);
  if (!response.ok()) return response.error();
  return RpcTypesOf(*response);
}

base::Result<Capabilities> GetCapabilities(Connection& connection, std::chrono::nanoseconds timeout,
                                           CapabilityQuery query) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto remaining = [deadline] { return deadline - std::chrono::steady_clock::now(); };
  Capabilities caps;

  auto plugin = GetPluginServices(connection, timeout);
  if (!plugin.ok()) return plugin.error();
  caps.plugin_services = std::move(*plugin);

  if (caps.Has(PluginService::CONTROLLER_SERVICE)) {
    auto controller = GetControllerRpcs(connection, remaining());
    if (!controller.ok()) return controller.error();
    caps.controller_rpcs = std::move(*controller);
  }
  if (query.group_controller && caps.Has(PluginService::GROUP_CONTROLLER_SERVICE)) {
    auto group = GetGroupControllerRpcs(connection, remaining());
    if (!group.ok()) return group.error();
    caps.group_controller_rpcs = std::move(*group);
  }
  return caps;
}

}  // namespace csi
