// KubernetesApi: the only API calls the handlers make (writes and the direct
// Secret read), behind an interface so handler tests assert the exact verb, subresource, patch
// type and body against a recording fake, while production goes through kube::Client
// (KubernetesApiClient).
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/client/client.h"

namespace attacher {

class KubernetesApi {
 public:
  virtual ~KubernetesApi() = default;
  // `status` selects the status subresource.
  virtual base::Result<kube::VolumeAttachment> PatchVolumeAttachment(const std::string& name,
                                                                     kube::PatchType type,
                                                                     const std::string& patch,
                                                                     bool status) = 0;
  virtual base::Result<kube::PersistentVolume> PatchPersistentVolume(const std::string& name,
                                                                     kube::PatchType type,
                                                                     const std::string& patch) = 0;
  virtual base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) = 0;
};

class KubernetesApiClient final : public KubernetesApi {
 public:
  explicit KubernetesApiClient(kube::Client& client) : client_(client) {}

  base::Result<kube::VolumeAttachment> PatchVolumeAttachment(const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch,
                                                             bool status) override {
    if (status) return client_.PatchStatus<kube::VolumeAttachment>("", name, type, patch);
    return client_.Patch<kube::VolumeAttachment>("", name, type, patch);
  }
  base::Result<kube::PersistentVolume> PatchPersistentVolume(const std::string& name,
                                                             kube::PatchType type,
                                                             const std::string& patch) override {
    return client_.Patch<kube::PersistentVolume>("", name, type, patch);
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    return client_.Get<kube::Secret>(ns, name);
  }

 private:
  kube::Client& client_;
};

}  // namespace attacher
