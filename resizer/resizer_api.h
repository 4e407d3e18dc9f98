// ResizerApi: the only API calls the resize controller makes
// (docs/resizer.md §4.4): strategic merge patches of a claim's /status and
// of a PV, and the direct GET of a controller-expand Secret - behind an
// interface so controller tests assert the exact writes against a
// recording fake, while production goes through kube::Client
// (ResizerApiClient). Errors are kube::Client's (api_error.h).
#pragma once

#include <string>
#include <utility>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/secret.h"
#include "kube/client/client.h"

namespace resizer {

class ResizerApi {
 public:
  virtual ~ResizerApi() = default;
  // The claim as written.
  virtual base::Result<kube::PersistentVolumeClaim> PatchClaimStatus(const std::string& ns,
                                                                     const std::string& name,
                                                                     const std::string& patch) = 0;
  virtual base::Result<kube::PersistentVolume> PatchVolume(const std::string& name,
                                                           const std::string& patch) = 0;
  virtual base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) = 0;
};

// The data of the Secret `ns`/`name`; on failure upstream's "error getting
// secret <name> in namespace <ns>: <error>".
inline base::Result<kube::StringMap> SecretData(ResizerApi& api, const std::string& ns,
                                                const std::string& name) {
  base::Result<kube::Secret> secret = api.GetSecret(ns, name);
  if (!secret.ok()) {
    return base::Error("error getting secret " + name + " in namespace " + ns + ": " +
                       secret.error().message);
  }
  return std::move(secret->data);
}

class ResizerApiClient final : public ResizerApi {
 public:
  explicit ResizerApiClient(kube::Client& client) : client_(client) {}

  base::Result<kube::PersistentVolumeClaim> PatchClaimStatus(const std::string& ns,
                                                             const std::string& name,
                                                             const std::string& patch) override {
    return client_.PatchStatus<kube::PersistentVolumeClaim>(
        ns, name, kube::PatchType::kStrategicMerge, patch);
  }
  base::Result<kube::PersistentVolume> PatchVolume(const std::string& name,
                                                   const std::string& patch) override {
    return client_.Patch<kube::PersistentVolume>("", name, kube::PatchType::kStrategicMerge, patch);
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    return client_.Get<kube::Secret>(ns, name);
  }

 private:
  kube::Client& client_;
};

}  // namespace resizer
