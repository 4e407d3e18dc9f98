// CapacityApi: the API writes of capacity tracking (docs/provisioner.md §5):
// create, replace and delete CSIStorageCapacity objects - behind an interface
// so controller tests assert the exact calls against a recording fake, while
// production goes through the capacity client (its own QPS budget,
// --kube-api-capacity-qps) in CapacityApiClient. Errors are kube::Client's
// (api_error.h).
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/storage/v1/csi_storage_capacity.h"
#include "kube/client/client.h"

namespace provisioner {

class CapacityApi {
 public:
  virtual ~CapacityApi() = default;
  // POST with metadata.generateName `generate_name` (the server picks the name).
  virtual base::Result<kube::CSIStorageCapacity> Create(const kube::CSIStorageCapacity& object,
                                                        const std::string& generate_name) = 0;
  virtual base::Result<kube::CSIStorageCapacity> Update(const kube::CSIStorageCapacity& object) = 0;
  virtual base::Status Delete(const std::string& ns, const std::string& name) = 0;
};

class CapacityApiClient final : public CapacityApi {
 public:
  explicit CapacityApiClient(kube::Client& client) : client_(client) {}
  base::Result<kube::CSIStorageCapacity> Create(const kube::CSIStorageCapacity& object,
                                                const std::string& generate_name) override;
  base::Result<kube::CSIStorageCapacity> Update(const kube::CSIStorageCapacity& object) override {
    return client_.Update(object);
  }
  base::Status Delete(const std::string& ns, const std::string& name) override {
    return client_.Delete<kube::CSIStorageCapacity>(ns, name);
  }

 private:
  kube::Client& client_;
};

}  // namespace provisioner
