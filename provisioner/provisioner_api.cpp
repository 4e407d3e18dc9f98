#include "provisioner/provisioner_api.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/proto/decode.h"
#include "kube/api/resource.h"
#include "kube/client/api_error.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

// Whether `object` (its JSON) had to change to carry (or not) `finalizer`.
bool ApplyFinalizer(nlohmann::json& object, std::string_view finalizer, bool add) {
  nlohmann::json& finalizers = object["metadata"]["finalizers"];
  if (!finalizers.is_array()) finalizers = nlohmann::json::array();
  auto it = std::find(finalizers.begin(), finalizers.end(), finalizer);
  if (add == (it != finalizers.end())) return false;
  if (add) {
    finalizers.push_back(finalizer);
  } else {
    finalizers.erase(it);
  }
  return true;
}

// Whether `object` (its JSON) had to change so its annotation `key` is
// `value` (nullopt: absent).
bool ApplyAnnotation(nlohmann::json& object, std::string_view key,
                     const std::optional<std::string>& value) {
  nlohmann::json& annotations = object["metadata"]["annotations"];
  if (!annotations.is_object()) annotations = nlohmann::json::object();
  const std::string k(key);
  if (!value) return annotations.erase(k) > 0;
  if (annotations.value(k, nlohmann::json()) == *value) return false;
  annotations[k] = *value;
  return true;
}

}  // namespace

base::Status ProvisionerApiClient::SetClaimFinalizer(const std::string& ns, const std::string& name,
                                                     std::string_view finalizer, bool add) {
  return SetFinalizer(kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name),
                      "PersistentVolumeClaim " + ns + "/" + name, finalizer, add);
}

base::Status ProvisionerApiClient::SetClaimAnnotation(const std::string& ns,
                                                      const std::string& name, std::string_view key,
                                                      const std::optional<std::string>& value) {
  auto written =
      UpdateStored(kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name),
                   "PersistentVolumeClaim " + ns + "/" + name,
                   [&](nlohmann::json& object) { return ApplyAnnotation(object, key, value); });
  if (!written.ok()) return written.error();
  return base::Status::Ok();
}

base::Status ProvisionerApiClient::SetSnapshotFinalizer(const std::string& ns,
                                                        const std::string& name,
                                                        std::string_view finalizer, bool add) {
  return SetFinalizer(kube::ResourcePath<kube::VolumeSnapshot>(ns, name),
                      "VolumeSnapshot " + ns + "/" + name, finalizer, add);
}

base::Result<std::optional<kube::PersistentVolumeClaim>> ProvisionerApiClient::RemoveSelectedNode(
    const std::string& ns, const std::string& name) {
  auto written =
      UpdateStored(kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name),
                   "PersistentVolumeClaim " + ns + "/" + name, [](nlohmann::json& object) {
                     return ApplyAnnotation(object, kSelectedNodeAnnotation, std::nullopt);
                   });
  if (!written.ok()) return written.error();
  if (!*written) return std::optional<kube::PersistentVolumeClaim>();
  auto claim = kube::DecodeAnswer<kube::PersistentVolumeClaim>(**written);
  if (!claim.ok()) return claim.error();
  return std::optional<kube::PersistentVolumeClaim>(std::move(*claim));
}

base::Status ProvisionerApiClient::SelectNode(const std::string& ns, const std::string& name,
                                              const std::string& resource_version,
                                              const std::string& node) {
  const std::string path = kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name);
  base::Result<std::string> body = client_.Request("GET", path);
  if (!body.ok()) return body.error();
  nlohmann::json object = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object())
    return base::Error("unreadable PersistentVolumeClaim " + ns + "/" + name);
  // The claim the caller decided on is no longer the stored one: as the
  // server answers an update of a stale version.
  if (object["metadata"].value("resourceVersion", "") != resource_version) {
    return base::Error::Http(409, "Operation cannot be fulfilled on persistentvolumeclaims \"" +
                                      name +
                                      "\": the object has been modified; please apply your "
                                      "changes to the latest version and try again");
  }
  ApplyAnnotation(object, kSelectedNodeAnnotation, node);
  base::Result<std::string> written =
      client_.Request("PUT", path, object.dump(), "application/json");
  if (!written.ok()) return written.error();
  return base::Status::Ok();
}

base::Status ProvisionerApiClient::SetFinalizer(const std::string& path, const std::string& kind,
                                                std::string_view finalizer, bool add) {
  auto written = UpdateStored(
      path, kind, [&](nlohmann::json& object) { return ApplyFinalizer(object, finalizer, add); });
  if (!written.ok()) return written.error();
  return base::Status::Ok();
}

base::Result<std::optional<std::string>> ProvisionerApiClient::UpdateStored(
    const std::string& path, const std::string& kind,
    const std::function<bool(nlohmann::json&)>& change) {
  constexpr int kConflictRetries = 5;
  base::Error last_conflict;
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    base::Result<std::string> body = client_.Request("GET", path);
    if (!body.ok()) return body.error();
    nlohmann::json object = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object()) return base::Error("unreadable " + kind);
    if (!change(object)) return std::optional<std::string>();
    // The body carries the resourceVersion read: a write in between is a 409.
    base::Result<std::string> written =
        client_.Request("PUT", path, object.dump(), "application/json");
    if (written.ok()) return std::optional<std::string>(std::move(*written));
    if (!kube::IsConflict(written.error())) return written.error();
    last_conflict = written.error();
  }
  return last_conflict;
}

}  // namespace provisioner
