// VolumeSource: the data a new volume starts from (docs/provisioner.md §3.3
// steps 1 and 8, §3.7) - a VolumeSnapshot to restore or a claim to clone.
// ContentSourceOf runs upstream's checks in upstream's order, each failure
// with upstream's text, and answers the CreateVolume content source: the
// snapshot's handle (VolumeSnapshot and VolumeSnapshotContent read live
// from the API) or the source volume's handle (the source claim from the
// claim cache, its PV read live). ProtectSource puts the source's finalizer
// on it before CreateVolume; ReleaseSnapshot takes the snapshot's off again.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "csi/proto/csi.pb.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/gateway/v1beta1/reference_grant.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/store.h"
#include "provisioner/provisioner_api.h"

namespace provisioner {

inline constexpr std::string_view kSnapshotGroup = "snapshot.storage.k8s.io";

// The claim's data source (§3.3 step 1): spec.dataSource in the claim's
// namespace, else spec.dataSourceRef.
struct DataSource {
  std::string kind;
  std::string name;
  std::string api_group;
  std::string namespace_;

  bool IsSnapshot() const { return kind == "VolumeSnapshot"; }
  bool IsClaim() const { return kind == "PersistentVolumeClaim"; }
};

// The data source, none, or why the claim may not use it. A dataSourceRef
// naming another namespace needs the CrossNamespaceVolumeDataSource gate
// (`reference_grants` set: the cache of ReferenceGrants) and a grant there
// (IsGranted).
base::Result<std::optional<DataSource>> DataSourceOf(
    const kube::PersistentVolumeClaim& claim,
    const kube::Store<kube::ReferenceGrant>* reference_grants = nullptr);

// §3.7: whether one of `grants` (those of the source's namespace) lets the
// claim's namespace refer to its dataSourceRef - from {group "", kind
// PersistentVolumeClaim, the claim's namespace} to {the ref's group, kind,
// and its name or every name}; upstream's error when none does.
base::Status IsGranted(const kube::PersistentVolumeClaim& claim,
                       const std::vector<std::shared_ptr<const kube::ReferenceGrant>>& grants);

// What the checks of a source read.
struct SourceReads {
  ProvisionerApi& api;
  // The claim cache: a clone source is looked up there, as upstream's lister.
  const kube::Store<kube::PersistentVolumeClaim>& claims;
  bool prevent_volume_mode_conversion;  // --prevent-volume-mode-conversion
};

// §3.7: the content source of a snapshot or clone source, or upstream's
// error (the caller wraps it, §3.3 step 8).
base::Result<csi::v1::VolumeContentSource> ContentSourceOf(const SourceReads& reads,
                                                           const kube::PersistentVolumeClaim& claim,
                                                           const kube::StorageClass& storage_class,
                                                           const DataSource& source);

// §3.3 step 8: the clone source claim gets provisioner.storage.kubernetes.io/
// cloning-protection, the VolumeSnapshot provisioner.storage.kubernetes.io/
// volumesnapshot-as-source-protection (an RBAC refusal of the latter is
// only logged, as upstream). Both by read and update.
base::Status ProtectSource(const SourceReads& reads, const DataSource& source);

// Takes the snapshot-as-source finalizer off the VolumeSnapshot ns/name; a
// snapshot gone or an RBAC refusal is no error (upstream's
// removeSnapshotFinalizer).
base::Status ReleaseSnapshot(ProvisionerApi& api, const std::string& ns, const std::string& name);

}  // namespace provisioner
