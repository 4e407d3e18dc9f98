#include "provisioner/provisioner_api.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/resource.h"
#include "kube/client/api_error.h"

namespace provisioner {
namespace {

// Whether `claim` (its JSON) had to change to carry (or not) `finalizer`.
bool ApplyFinalizer(nlohmann::json& claim, std::string_view finalizer, bool add) {
  nlohmann::json& finalizers = claim["metadata"]["finalizers"];
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
  constexpr int kConflictRetries = 5;
  const std::string path = kube::ResourcePath<kube::PersistentVolumeClaim>(ns, name);
  base::Status result = base::Status::Ok();
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    base::Result<std::string> body = client_.Request("GET", path);
    if (!body.ok()) return body.error();
    nlohmann::json claim = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
    if (!claim.is_object())
      return base::Error("unreadable PersistentVolumeClaim " + ns + "/" + name);
    if (!ApplyFinalizer(claim, finalizer, add)) return base::Status::Ok();
    // The body carries the resourceVersion read: a write in between is a 409.
    base::Result<std::string> written =
        client_.Request("PUT", path, claim.dump(), "application/json");
    if (written.ok()) return base::Status::Ok();
    result = written.error();
    if (!kube::IsConflict(written.error())) return result;
  }
  return result;
}

}  // namespace provisioner
