// SnapshotApi: the only API calls the content handlers make (patches of
// VolumeSnapshotContents and VolumeGroupSnapshotContents, a read of one after
// a write conflict, the direct Secret reads), behind an
// interface so handler tests assert the exact verb, subresource, patch type
// and body against a recording fake, while production goes through
// kube::Client (SnapshotApiClient: Secrets on the core client, the rest on
// the snapshot client, snapshot_clients.h). Errors are kube::Client's
// (api_error.h).
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/client.h"
#include "snapshot/snapshot_clients.h"

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
  virtual base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(const std::string& name,
                                                                           kube::PatchType type,
                                                                           const std::string& patch,
                                                                           bool status) = 0;
  virtual base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(
      const std::string& name) = 0;
  virtual base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) = 0;
};

class SnapshotApiClient final : public SnapshotApi {
 public:
  explicit SnapshotApiClient(const snapshot::SnapshotClients& clients)
      : snapshots_(*clients.snapshots), core_(*clients.core) {}

  base::Result<kube::VolumeSnapshotContent> PatchContent(const std::string& name,
                                                         kube::PatchType type,
                                                         const std::string& patch,
                                                         bool status) override {
    return PatchCluster<kube::VolumeSnapshotContent>(name, type, patch, status);
  }
  base::Result<kube::VolumeSnapshotContent> GetContent(const std::string& name) override {
    return snapshots_.Get<kube::VolumeSnapshotContent>("", name);
  }
  base::Result<kube::VolumeGroupSnapshotContent> PatchGroupContent(const std::string& name,
                                                                   kube::PatchType type,
                                                                   const std::string& patch,
                                                                   bool status) override {
    return PatchCluster<kube::VolumeGroupSnapshotContent>(name, type, patch, status);
  }
  base::Result<kube::VolumeGroupSnapshotContent> GetGroupContent(const std::string& name) override {
    return snapshots_.Get<kube::VolumeGroupSnapshotContent>("", name);
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    return core_.Get<kube::Secret>(ns, name);
  }

 private:
  template <class Content>
  base::Result<Content> PatchCluster(const std::string& name, kube::PatchType type,
                                     const std::string& patch, bool status) {
    if (status) return snapshots_.PatchStatus<Content>("", name, type, patch);
    return snapshots_.Patch<Content>("", name, type, patch);
  }

  kube::Client& snapshots_;
  kube::Client& core_;
};

}  // namespace snapshotter
