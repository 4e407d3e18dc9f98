#include "component/volume_attributes_class_gate.h"

#include <nlohmann/json.hpp>

#include "base/log.h"
#include "kube/client/api_error.h"

namespace component {

base::Result<bool> ServesKind(kube::Client& client, std::string_view group_version,
                              std::string_view kind) {
  const std::string path =
      group_version == "v1" ? std::string("/api/v1") : "/apis/" + std::string(group_version);
  base::Result<std::string> body = client.Request("GET", path);
  if (!body.ok()) {
    if (kube::IsNotFound(body.error())) return false;
    return body.error();
  }
  const nlohmann::json list = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!list.is_object() || !list.contains("resources") || !list["resources"].is_array()) {
    return base::Error("discovery of " + std::string(group_version) +
                       " answered no APIResourceList");
  }
  for (const nlohmann::json& resource : list["resources"]) {
    if (resource.is_object() && resource.value("kind", "") == kind) return true;
  }
  return false;
}

bool SettleVolumeAttributesClassGate(kube::Client& client, bool enabled, bool set_on_command_line) {
  if (set_on_command_line || !enabled) return enabled;
  base::Result<bool> served = ServesKind(client, "storage.k8s.io/v1", "VolumeAttributesClass");
  if (!served.ok()) {
    LOG_ERROR("Failed to check VolumeAttributesClass V1 API availability")
        .With("err", served.error().message);
    return true;
  }
  if (*served) {
    LOG_INFO("VolumeAttributesClass v1 API is available");
    return true;
  }
  LOG_INFO(
      "Disabling VolumeAttributesClass feature gate because the VolumeAttributesClass v1 API is "
      "not available");
  return false;
}

bool VolumeAttributesClassGateOnce::Settle(kube::Client& client, bool enabled,
                                           bool set_on_command_line) {
  std::lock_guard lock(mu_);
  if (!settled_) settled_ = SettleVolumeAttributesClassGate(client, enabled, set_on_command_line);
  return *settled_;
}

}  // namespace component
