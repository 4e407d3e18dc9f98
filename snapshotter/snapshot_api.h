// SnapshotApi: the only API calls the content handler makes (content patches,
// a content read after a write conflict, the direct Secret reads), behind an
// interface so handler tests assert the exact verb, subresource, patch type
// and body against a recording fake, while production goes through
// kube::Client (SnapshotApiClient). Errors are kube::Client's (api_error.h).
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/client.h"

namespace snapshotter {

class SnapshotApi {
 public:
  virtual ~SnapshotApi() = default;
  // `status` selects the status subresource. Returns the content as written.
  virtual base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                                 kube::PatchType type,
                                                                 const std::string& patch,
                                                                 bool status) = 0;
  virtual base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) = 0;
  virtual base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) = 0;
};

class SnapshotApiClient final : public SnapshotApi {
 public:
  explicit SnapshotApiClient(kube::Client& client) : client_(client) {}

  base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                         kube::PatchType type,
                                                         const std::string& patch,
                                                         bool status) override {
    if (status) return client_.PatchStatus<kube::VolumeSnapshotContent>("", name, type, patch);
    return client_.Patch<kube::VolumeSnapshotContent>("", name, type, patch);
  }
  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    return client_.Get<kube::VolumeSnapshotContent>("", name);
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    return client_.Get<kube::Secret>(ns, name);
  }

 private:
  kube::Client& client_;
};

}  // namespace snapshotter
