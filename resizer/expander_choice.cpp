#include "resizer/expander_choice.h"

#include <grpcpp/channel.h>

#include "base/log.h"
#include "csi/capabilities.h"
#include "csi/proto/csi.grpc.pb.h"
#include "migration/drivers.h"

namespace resizer {
namespace {

constexpr std::string_view kNodeGetCapabilitiesMethod = "/csi.v1.Node/NodeGetCapabilities";

base::Result<bool> NodeExpands(csi::Connection& connection, std::chrono::nanoseconds timeout) {
  auto stub = csi::v1::Node::NewStub(connection.channel());
  auto response =
      connection.Call(*stub, &csi::v1::Node::Stub::NodeGetCapabilities, kNodeGetCapabilitiesMethod,
                      csi::v1::NodeGetCapabilitiesRequest(), {.timeout = timeout});
  if (!response.ok()) return response.error();
  for (const auto& capability : response->capabilities()) {
    if (capability.rpc().type() == csi::v1::NodeServiceCapability::RPC::EXPAND_VOLUME) return true;
  }
  return false;
}

}  // namespace

base::Result<std::unique_ptr<VolumeExpander>> ExpanderFor(const component::CsiDriver& driver,
                                                          std::chrono::nanoseconds timeout,
                                                          bool ask_again) {
  if (!driver.capabilities.Has(csi::PluginService::CONTROLLER_SERVICE)) {
    return base::Error("CSI driver does not support controller service");
  }
  if (driver.capabilities.Has(csi::ControllerRpc::EXPAND_VOLUME)) {
    if (ask_again) {
      if (auto rpcs = csi::GetControllerRpcs(driver.connection, timeout); !rpcs.ok()) {
        return base::Error(
            "failed to check if plugin supports the SINGLE_NODE_MULTI_WRITER capability: " +
            rpcs.error().message);
      }
    }
    return std::unique_ptr<VolumeExpander>(std::make_unique<CsiVolumeExpander>(
        driver.connection, timeout, migration::IsMigratedCsiDriverByName(driver.name)));
  }
  base::Result<bool> node_expands = NodeExpands(driver.connection, timeout);
  if (!node_expands.ok()) {
    return base::Error("failed to check if plugin supports node resize: " +
                       node_expands.error().message);
  }
  if (!*node_expands) return std::unique_ptr<VolumeExpander>();
  LOG_INFO(
      "The CSI driver supports node resize only, using trivial resizer to handle resize requests");
  return std::unique_ptr<VolumeExpander>(std::make_unique<NodeOnlyExpander>());
}

base::Result<std::unique_ptr<VolumeModifier>> ModifierFor(const component::CsiDriver& driver,
                                                          std::chrono::nanoseconds timeout,
                                                          bool ask_again) {
  bool modifies = driver.capabilities.Has(csi::ControllerRpc::MODIFY_VOLUME);
  if (ask_again) {
    base::Result<std::set<csi::ControllerRpc::Type>> rpcs =
        csi::GetControllerRpcs(driver.connection, timeout);
    if (!rpcs.ok()) {
      return base::Error("failed to check if plugin supports controller modify: " +
                         rpcs.error().message);
    }
    modifies = rpcs->contains(csi::ControllerRpc::MODIFY_VOLUME);
  }
  if (!modifies) return std::unique_ptr<VolumeModifier>();
  return std::unique_ptr<VolumeModifier>(
      std::make_unique<CsiVolumeModifier>(driver.connection, timeout));
}

}  // namespace resizer
