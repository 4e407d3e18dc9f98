#include "provisioner/provisioner_api.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/resource.h"
#include "kube/client/api_error.h"

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

}  // namespace

base::Status ProvisionerApiClient::SetClaimFinalizer(const std::string& ns, const std::string& name,
                                                     std::string_view finalizer, bool add) {
  return SetFinalizer(kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name),
                      "PersistentVolumeClaim " + ns + "/" + name, finalizer, add);
}

base::Status ProvisionerApiClient::SetSnapshotFinalizer(const std::string& ns,
                                                        const std::string& name,
                                                        std::string_view finalizer, bool add) {
  return SetFinalizer(kube::ResourcePath<kube::VolumeSnapshot>(ns, name),
                      "VolumeSnapshot " + ns + "/" + name, finalizer, add);
}

base::Status ProvisionerApiClient::SetFinalizer(const std::string& path, const std::string& kind,
                                                std::string_view finalizer, bool add) {
  constexpr int kConflictRetries = 5;
  base::Status result = base::Status::Ok();
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    base::Result<std::string> body = client_.Request("GET", path);
    if (!body.ok()) return body.error();
    nlohmann::json object = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object()) return base::Error("unreadable " + kind);
    if (!ApplyFinalizer(object, finalizer, add)) return base::Status::Ok();
    // The body carries the resourceVersion read: a write in between is a 409.
    base::Result<std::string> written =
        client_.Request("PUT", path, object.dump(), "application/json");
    if (written.ok()) return base::Status::Ok();
    result = written.error();
    if (!kube::IsConflict(written.error())) return result;
  }
  return result;
}

}  // namespace provisioner
