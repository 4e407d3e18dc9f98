#include "snapshot_controller/controller_api.h"

#include <nlohmann/json.hpp>

#include "kube/api/codec.h"
#include "kube/api/resource.h"

namespace snapshot_controller {

base::Result<kube::PersistentVolumeClaim> ControllerApiClient::GetClaim(const std::string& ns,
                                                                        const std::string& name) {
  auto body = core_.Request("GET", kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name));
  if (!body.ok()) return body.error();
  auto decoded = kube::DecodeObject<kube::PersistentVolumeClaim>(*body);
  if (decoded.ok()) written_claims_.RememberRead(*decoded, std::move(*body));
  return decoded;
}

std::optional<kube::PersistentVolumeClaim> ControllerApiClient::WrittenClaimWithFinalizer(
    const std::string& ns, const std::string& name) {
  std::optional<std::string> json = written_claims_.WithFinalizer(ns, name);
  if (!json) return std::nullopt;
  auto decoded = kube::DecodeObject<kube::PersistentVolumeClaim>(*json);
  if (!decoded.ok()) return std::nullopt;
  return std::move(*decoded);
}

base::Result<kube::PersistentVolumeClaim> ControllerApiClient::UpdateClaimFinalizers(
    const kube::PersistentVolumeClaim& claim) {
  const std::string path = kube::ResourcePath<kube::PersistentVolumeClaim>(
      claim.metadata.namespace_, claim.metadata.name);
  std::optional<std::string> body = written_claims_.Take(
      claim.metadata.namespace_, claim.metadata.name, claim.metadata.resource_version);
  if (!body) {
    auto fresh = core_.Request("GET", path);
    if (!fresh.ok()) return fresh.error();
    body = std::move(*fresh);
  }
  nlohmann::json stored = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!stored.is_object() || !stored.value("metadata", nlohmann::json()).is_object()) {
    return base::Error("decoding PersistentVolumeClaim: not an object with metadata");
  }
  nlohmann::json& metadata = stored["metadata"];
  // Already so on the server: a claim cache behind our own last write asks
  // for it again, and a PUT guarded by its old resourceVersion could only
  // conflict.
  const nlohmann::json wanted = claim.metadata.finalizers;
  if (metadata.value("finalizers", nlohmann::json::array()) == wanted) {
    return kube::DecodeObject<kube::PersistentVolumeClaim>(*body);
  }
  if (claim.metadata.finalizers.empty()) {
    metadata.erase("finalizers");
  } else {
    metadata["finalizers"] = claim.metadata.finalizers;
  }
  metadata["resourceVersion"] = claim.metadata.resource_version;
  auto updated = core_.Request("PUT", path, stored.dump(), "application/json");
  if (!updated.ok()) return updated.error();
  auto decoded = kube::DecodeObject<kube::PersistentVolumeClaim>(*updated);
  if (decoded.ok()) written_claims_.Remember(*decoded, std::move(*updated));
  return decoded;
}

base::Result<std::vector<kube::PersistentVolumeClaim>> ControllerApiClient::ListClaims(
    const std::string& ns, const std::string& label_selector) {
  kube::ListOptions options;
  options.label_selector = label_selector;
  auto list = core_.List<kube::PersistentVolumeClaim>(ns, options);
  if (!list.ok()) return list.error();
  return std::move(list->items);
}

}  // namespace snapshot_controller
