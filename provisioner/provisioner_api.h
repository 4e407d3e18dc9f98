// ProvisionerApi: the only API calls the provisioner's controllers make
// (docs/provisioner.md §3.2 step 4, §3.5, §3.7, §4.1, §4.2): the PV it
// creates, its finalizer patches and deletion, the Secret reads, the reads
// of a data source (VolumeSnapshot, its content, a clone source's PV) and
// the finalizers of sources - behind an
// interface so controller tests assert the exact calls against a recording
// fake, while production goes through kube::Client (ProvisionerApiClient).
// Errors are kube::Client's (api_error.h).
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/secret.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/api/storage/v1/volume_attributes_class.h"
#include "kube/client/client.h"

namespace provisioner {

class ProvisionerApi {
 public:
  virtual ~ProvisionerApi() = default;
  virtual base::Result<kube::PersistentVolume> CreateVolume(
      const kube::PersistentVolume& volume) = 0;
  virtual base::Result<kube::PersistentVolume> PatchVolume(const std::string& name,
                                                           kube::PatchType type,
                                                           const std::string& patch) = 0;
  virtual base::Status DeleteVolume(const std::string& name) = 0;
  virtual base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) = 0;
  // Adds (`add`) or removes `finalizer` on the claim ns/name as it is stored
  // now, leaving every other field as the server has it; nothing when it
  // already is as asked. NotFound when the claim is gone.
  virtual base::Status SetClaimFinalizer(const std::string& ns, const std::string& name,
                                         std::string_view finalizer, bool add) = 0;
  // Sets the annotation `key` of the claim ns/name to `value`, or removes it
  // (nullopt), on the claim as it is stored now; nothing when it already is
  // as asked. NotFound when the claim is gone.
  virtual base::Status SetClaimAnnotation(const std::string& ns, const std::string& name,
                                          std::string_view key,
                                          const std::optional<std::string>& value) = 0;
  // §3.7: live reads of a data source (never a cache); §9.2: of a PV that
  // met AlreadyExists and of a claim the cache lost.
  virtual base::Result<kube::PersistentVolume> GetVolume(const std::string& name) = 0;
  virtual base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                             const std::string& name) = 0;
  virtual base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                         const std::string& name) = 0;
  virtual base::Result<kube::VolumeSnapshotContent> GetSnapshotContent(const std::string& name) = 0;
  // §3.3 step 11: the claim's VolumeAttributesClass, read live.
  virtual base::Result<kube::VolumeAttributesClass> GetAttributesClass(const std::string& name) = 0;
  // As SetClaimFinalizer, for the VolumeSnapshot ns/name.
  virtual base::Status SetSnapshotFinalizer(const std::string& ns, const std::string& name,
                                            std::string_view finalizer, bool add) = 0;
  // §3.11: takes the scheduler's selected-node annotation off the claim
  // ns/name as it is stored now, so the scheduler picks again; the claim as
  // written, or nullopt when it had no such annotation.
  virtual base::Result<std::optional<kube::PersistentVolumeClaim>> RemoveSelectedNode(
      const std::string& ns, const std::string& name) = 0;
  // §3.12: sets the claim's selected-node annotation to `node`, only while
  // the stored claim is still at `resource_version` (else a 409 Conflict).
  virtual base::Status SelectNode(const std::string& ns, const std::string& name,
                                  const std::string& resource_version, const std::string& node) = 0;
};

class ProvisionerApiClient final : public ProvisionerApi {
 public:
  explicit ProvisionerApiClient(kube::Client& client) : client_(client) {}

  base::Result<kube::PersistentVolume> CreateVolume(const kube::PersistentVolume& volume) override {
    return client_.Create(volume);
  }
  base::Result<kube::PersistentVolume> PatchVolume(const std::string& name, kube::PatchType type,
                                                   const std::string& patch) override {
    return client_.Patch<kube::PersistentVolume>("", name, type, patch);
  }
  base::Status DeleteVolume(const std::string& name) override {
    return client_.Delete<kube::PersistentVolume>("", name);
  }
  base::Result<kube::Secret> GetSecret(const std::string& ns, const std::string& name) override {
    return client_.Get<kube::Secret>(ns, name);
  }
  // The claim's RBAC grants update, not patch (docs/provisioner.md §6): a
  // read of the whole stored object and an update of it guarded by its
  // resourceVersion, retried on conflict.
  base::Status SetClaimFinalizer(const std::string& ns, const std::string& name,
                                 std::string_view finalizer, bool add) override;
  base::Status SetClaimAnnotation(const std::string& ns, const std::string& name,
                                  std::string_view key,
                                  const std::optional<std::string>& value) override;
  base::Result<kube::PersistentVolume> GetVolume(const std::string& name) override {
    return client_.Get<kube::PersistentVolume>("", name);
  }
  base::Result<kube::PersistentVolumeClaim> GetClaim(const std::string& ns,
                                                     const std::string& name) override {
    return client_.Get<kube::PersistentVolumeClaim>(ns, name);
  }
  base::Result<kube::VolumeSnapshot> GetSnapshot(const std::string& ns,
                                                 const std::string& name) override {
    return client_.Get<kube::VolumeSnapshot>(ns, name);
  }
  base::Result<kube::VolumeSnapshotContent> GetSnapshotContent(const std::string& name) override {
    return client_.Get<kube::VolumeSnapshotContent>("", name);
  }
  base::Result<kube::VolumeAttributesClass> GetAttributesClass(const std::string& name) override {
    return client_.Get<kube::VolumeAttributesClass>("", name);
  }
  // Upstream updates VolumeSnapshots too (RBAC: update, no patch).
  base::Status SetSnapshotFinalizer(const std::string& ns, const std::string& name,
                                    std::string_view finalizer, bool add) override;
  base::Result<std::optional<kube::PersistentVolumeClaim>> RemoveSelectedNode(
      const std::string& ns, const std::string& name) override;
  // A read and an update of the stored claim: the update carries the
  // resourceVersion read, so a write in between is a 409 too.
  base::Status SelectNode(const std::string& ns, const std::string& name,
                          const std::string& resource_version, const std::string& node) override;

 private:
  // Read-modify-update of the object at `path` (its kind named `kind` in
  // errors): `change` edits its JSON and says whether anything changed. The
  // body written, or nullopt when nothing had to change. A conflict reads
  // again, up to five times.
  base::Result<std::optional<std::string>> UpdateStored(
      const std::string& path, const std::string& kind,
      const std::function<bool(nlohmann::json&)>& change);
  base::Status SetFinalizer(const std::string& path, const std::string& kind,
                            std::string_view finalizer, bool add);

  kube::Client& client_;
};

}  // namespace provisioner
