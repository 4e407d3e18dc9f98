#include "provisioner/volume_source.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "base/log.h"
#include "base/quantity.h"
#include "base/strconv.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

using kube::PersistentVolumeClaim;

csi::v1::VolumeContentSource SnapshotSource(const std::string& snapshot_id) {
  csi::v1::VolumeContentSource source;
  source.mutable_snapshot()->set_snapshot_id(snapshot_id);
  return source;
}

csi::v1::VolumeContentSource VolumeSource(const std::string& volume_id) {
  csi::v1::VolumeContentSource source;
  source.mutable_volume()->set_volume_id(volume_id);
  return source;
}

// §3.7: the content must belong to the snapshot, to the class's driver, and
// the snapshot must be ready with a handle.
base::Status CheckContent(const kube::VolumeSnapshot& snapshot,
                          const kube::VolumeSnapshotContent& content,
                          const kube::StorageClass& storage_class, const std::string& name) {
  const std::string& content_name = content.metadata.name;
  const kube::ObjectReference& ref = content.spec.volume_snapshot_ref;
  if (ref.uid != snapshot.metadata.uid || ref.namespace_ != snapshot.metadata.namespace_ ||
      ref.name != snapshot.metadata.name) {
    return base::Error("snapshotcontent " + content_name + " for snapshot " + name +
                       " is bound to a different snapshot");
  }
  if (content.spec.driver != storage_class.provisioner) {
    return base::Error("snapshotcontent " + content_name + " for snapshot " + name +
                       " is not handled by CSI driver of StorageClass " +
                       storage_class.metadata.name);
  }
  if (!snapshot.status->ready_to_use.value_or(false)) {
    return base::Error("snapshot " + name + " is not Ready");
  }
  if (!content.status || !content.status->snapshot_handle) {
    return base::Error("snapshot handle " + name + " is not available");
  }
  return base::Status::Ok();
}

// §3.7: the claim asks for at least the snapshot's restoreSize.
base::Status CheckRestoreSize(const PersistentVolumeClaim& claim,
                              const kube::VolumeSnapshot& snapshot) {
  const std::optional<std::string>& restore_size = snapshot.status->restore_size;
  if (!restore_size) return base::Status::Ok();
  if (claim.spec.requests_storage.empty()) {
    return base::Error("error getting capacity for PVC " + claim.metadata.name +
                       " when creating snapshot " + snapshot.metadata.name);
  }
  auto requested = base::QuantityAsInt64(claim.spec.requests_storage);
  if (!requested.ok()) return requested.error();
  auto size = base::QuantityAsInt64(*restore_size);
  if (!size.ok()) return size.error();
  if (*requested < *size) {
    return base::Error("requested volume size " + std::to_string(*requested) +
                       " is less than the size " + std::to_string(*size) +
                       " for the source snapshot " + snapshot.metadata.name);
  }
  return base::Status::Ok();
}

// §3.7, --prevent-volume-mode-conversion: a restore into another volume
// mode needs the content's allow-volume-mode-change annotation = true.
base::Status CheckModeConversion(const PersistentVolumeClaim& claim,
                                 const kube::VolumeSnapshotContent& content) {
  const auto& source_mode = content.spec.source_volume_mode;
  // Upstream compares the claim's own field: unset is not "Filesystem".
  if (!source_mode || claim.spec.volume_mode.empty() || *source_mode == claim.spec.volume_mode) {
    return base::Status::Ok();
  }
  const std::string prefix = "requested volume " + claim.metadata.namespace_ + "/" +
                             claim.metadata.name +
                             " modifies the mode of the source volume but does not have "
                             "permission to do so. ";
  const std::string annotation(kAllowVolumeModeChangeAnnotation);
  auto it = content.metadata.annotations.find(annotation);
  if (it == content.metadata.annotations.end()) {
    return base::Error(prefix + annotation + " annotation is not present on snapshotcontent " +
                       content.metadata.name);
  }
  auto allowed = base::ParseBool(it->second);
  if (!allowed.ok()) {
    return base::Error(prefix + "failed to convert " + annotation +
                       " annotation value to boolean with error: " + allowed.error().message);
  }
  if (!*allowed) {
    return base::Error(prefix + annotation + " is set to false on snapshotcontent " +
                       content.metadata.name);
  }
  return base::Status::Ok();
}

// Upstream's getSnapshotSource.
base::Result<csi::v1::VolumeContentSource> SnapshotContentSource(
    const SourceReads& reads, const PersistentVolumeClaim& claim,
    const kube::StorageClass& storage_class, const DataSource& source) {
  const std::string& name = source.name;
  auto snapshot = reads.api.GetSnapshot(source.namespace_, name);
  if (!snapshot.ok()) {
    return base::Error("error getting snapshot " + name +
                       " from api server: " + snapshot.error().message);
  }
  // A snapshot being deleted still serves a restore that began before (it
  // carries our finalizer, #1448), never a new one.
  if (!snapshot->metadata.deletion_timestamp.empty() &&
      !kube::HasFinalizer(snapshot->metadata, kSnapshotSourceFinalizer)) {
    return base::Error("snapshot " + name + " is being deleted");
  }
  if (!snapshot->status || !snapshot->status->bound_volume_snapshot_content_name) {
    return base::Error("snapshot " + name + " not bound");
  }
  const std::string& content_name = *snapshot->status->bound_volume_snapshot_content_name;
  auto content = reads.api.GetSnapshotContent(content_name);
  if (!content.ok()) {
    LOG_WARNING("error getting snapshotcontent for snapshot from api server")
        .With("content", content_name)
        .With("snapshot", source.namespace_ + "/" + name)
        .With("err", content.error().message);
    return base::Error("error getting snapshotcontent " + content_name + " for snapshot " + name);
  }
  if (base::Status s = CheckContent(*snapshot, *content, storage_class, name); !s.ok())
    return s.error();
  if (base::Status s = CheckRestoreSize(claim, *snapshot); !s.ok()) return s.error();
  if (reads.prevent_volume_mode_conversion) {
    if (base::Status s = CheckModeConversion(claim, *content); !s.ok()) return s.error();
  }
  return SnapshotSource(*content->status->snapshot_handle);
}

// Upstream's rendering (Go %v) of a claim status whose other fields are
// empty, as a Pending claim's are.
std::string GoStatusText(const PersistentVolumeClaim& claim) {
  return "{" + claim.status.phase + " [] map[] [] map[] map[] <nil> <nil>}";
}

// §3.7: the source claim itself (upstream's getPVCSource, first half).
base::Status CheckSourceClaim(const PersistentVolumeClaim& claim, const PersistentVolumeClaim& from,
                              const std::string& name) {
  if (from.status.phase != "Bound") {
    return base::Error("the PVC DataSource " + name + " must have a status of Bound.  Got " +
                       GoStatusText(from));
  }
  if (!from.metadata.deletion_timestamp.empty()) {
    return base::Error("the PVC DataSource " + name + " is currently being deleted");
  }
  if (!from.spec.storage_class_name) {
    return base::Error("the source PVC (" + from.metadata.name + ") storageclass cannot be empty");
  }
  if (!claim.spec.storage_class_name) {
    return base::Error("the requested PVC (" + claim.metadata.name +
                       ") storageclass cannot be empty");
  }
  // Both sizes as resource.Quantity.Value(): a missing request is 0.
  auto requested = base::QuantityAsInt64(
      claim.spec.requests_storage.empty() ? "0" : claim.spec.requests_storage);
  auto source_size =
      base::QuantityAsInt64(from.spec.requests_storage.empty() ? "0" : from.spec.requests_storage);
  if (!requested.ok()) return requested.error();
  if (!source_size.ok()) return source_size.error();
  if (*requested < *source_size) {
    return base::Error(
        "error, new PVC request must be greater than or equal in size to the specified PVC data "
        "source, requested " +
        std::to_string(*requested) + " but source is " + std::to_string(*source_size));
  }
  if (from.spec.volume_name.empty()) {
    return base::Error("volume name is empty in source PVC " + from.metadata.name);
  }
  return base::Status::Ok();
}

// §3.7: why the source claim's PV cannot be cloned (for the log), or "".
std::string SourceVolumeProblem(const kube::PersistentVolume& volume,
                                const PersistentVolumeClaim& from,
                                const kube::StorageClass& storage_class) {
  const auto* csi = std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
  if (!csi) return "it is not a CSI volume";
  if (csi->driver != storage_class.provisioner) {
    return "it is handled by a different CSI driver than requested by StorageClass " +
           storage_class.metadata.name;
  }
  if (!volume.spec.claim_ref) return "it is not bound";
  const kube::ClaimReference& ref = *volume.spec.claim_ref;
  if (ref.uid != from.metadata.uid || ref.namespace_ != from.metadata.namespace_ ||
      ref.name != from.metadata.name) {
    return "it is bound to a different PVC than requested";
  }
  if (volume.status.phase != "Bound") {
    return "its status is \"" + volume.status.phase + "\", should instead be \"Bound\"";
  }
  return "";
}

// §3.7: a clone keeps the volume mode; unset is Filesystem on both sides.
base::Status CheckCloneMode(const PersistentVolumeClaim& claim,
                            const kube::PersistentVolume& volume) {
  const bool source_block = volume.spec.volume_mode == "Block";
  const bool claim_block = claim.spec.volume_mode == "Block";
  const bool claim_filesystem =
      claim.spec.volume_mode.empty() || claim.spec.volume_mode == "Filesystem";
  const bool source_filesystem =
      volume.spec.volume_mode.empty() || volume.spec.volume_mode == "Filesystem";
  constexpr std::string_view kPrefix =
      "the source PVC and destination PVCs must have the same volume mode for cloning.  ";
  if (claim_filesystem && !source_filesystem) {
    return base::Error(std::string(kPrefix) + "Source is Block, but new PVC requested Filesystem");
  }
  if (claim_block && !source_block) {
    return base::Error(std::string(kPrefix) + "Source is Filesystem, but new PVC requested Block");
  }
  return base::Status::Ok();
}

// Upstream's getPVCSource.
base::Result<csi::v1::VolumeContentSource> CloneContentSource(
    const SourceReads& reads, const PersistentVolumeClaim& claim,
    const kube::StorageClass& storage_class, const DataSource& source) {
  std::shared_ptr<const PersistentVolumeClaim> from =
      reads.claims.GetByKey(source.namespace_ + "/" + source.name);
  if (!from) {
    return base::Error("error getting PVC " + source.name + " (namespace " +
                       base::GoQuote(claim.metadata.namespace_) +
                       ") from api server: persistentvolumeclaim " + base::GoQuote(source.name) +
                       " not found");
  }
  if (base::Status s = CheckSourceClaim(claim, *from, source.name); !s.ok()) return s.error();
  const base::Error invalid("claim in dataSource not bound or invalid");
  const std::string& volume_name = from->spec.volume_name;
  auto volume = reads.api.GetVolume(volume_name);
  std::string problem = volume.ok() ? SourceVolumeProblem(*volume, *from, storage_class)
                                    : "it cannot be read: " + volume.error().message;
  if (!problem.empty()) {
    LOG_WARNING("The source volume of a clone cannot be used")
        .With("PV", volume_name)
        .With("PVC", source.namespace_ + "/" + source.name)
        .With("reason", problem);
    return invalid;
  }
  if (base::Status s = CheckCloneMode(claim, *volume); !s.ok()) return s.error();
  return VolumeSource(std::get<kube::CSIPersistentVolumeSource>(volume->spec.source).volume_handle);
}

}  // namespace

base::Result<std::optional<DataSource>> DataSourceOf(
    const PersistentVolumeClaim& claim, const kube::Store<kube::ReferenceGrant>* reference_grants) {
  const auto& spec = claim.spec;
  if (spec.data_source) {
    return std::optional(DataSource{spec.data_source->kind, spec.data_source->name,
                                    spec.data_source->api_group.value_or(""),
                                    claim.metadata.namespace_});
  }
  if (!spec.data_source_ref) return std::optional<DataSource>();
  const std::optional<std::string>& ns = spec.data_source_ref->namespace_;
  if (!reference_grants && ns && !ns->empty()) {
    return base::Error(
        "dataSourceRef namespace specified but the CrossNamespaceVolumeDataSource feature is "
        "disabled");
  }
  DataSource source{spec.data_source_ref->kind, spec.data_source_ref->name,
                    spec.data_source_ref->api_group.value_or(""),
                    ns ? *ns : claim.metadata.namespace_};
  if (source.namespace_ != claim.metadata.namespace_) {
    std::vector<std::shared_ptr<const kube::ReferenceGrant>> grants;
    for (auto& grant : reference_grants->List()) {
      if (grant->metadata.namespace_ == source.namespace_) grants.push_back(std::move(grant));
    }
    if (base::Status s = IsGranted(claim, grants); !s.ok()) return s.error();
  }
  return std::optional(std::move(source));
}

base::Status IsGranted(const PersistentVolumeClaim& claim,
                       const std::vector<std::shared_ptr<const kube::ReferenceGrant>>& grants) {
  const kube::TypedObjectReference& ref = *claim.spec.data_source_ref;
  const std::string ref_namespace = ref.namespace_.value_or("");
  for (const auto& grant : grants) {
    if (grant->metadata.namespace_ != ref_namespace) continue;
    const auto& from = grant->spec.from;
    if (std::none_of(from.begin(), from.end(), [&](const kube::ReferenceGrantFrom& f) {
          return f.group.empty() && f.kind == "PersistentVolumeClaim" &&
                 f.namespace_ == claim.metadata.namespace_;
        })) {
      continue;
    }
    for (const kube::ReferenceGrantTo& to : grant->spec.to) {
      if (to.group != ref.api_group.value_or("") || to.kind != ref.kind) continue;
      if (!to.name || to.name->empty() || *to.name == ref.name) return base::Status::Ok();
    }
  }
  return base::Error("accessing " + ref_namespace + "/" + ref.name + " of " + ref.kind +
                     " dataSource from " + claim.metadata.namespace_ + "/" + claim.metadata.name +
                     " isn't allowed");
}

base::Result<csi::v1::VolumeContentSource> ContentSourceOf(const SourceReads& reads,
                                                           const PersistentVolumeClaim& claim,
                                                           const kube::StorageClass& storage_class,
                                                           const DataSource& source) {
  if (source.IsSnapshot()) return SnapshotContentSource(reads, claim, storage_class, source);
  return CloneContentSource(reads, claim, storage_class, source);
}

base::Status ProtectSource(const SourceReads& reads, const DataSource& source) {
  if (source.IsClaim()) {
    // Upstream reads the claim from its cache and updates it only when the
    // cached one lacks the finalizer.
    auto cached = reads.claims.GetByKey(source.namespace_ + "/" + source.name);
    if (cached && kube::HasFinalizer(cached->metadata, kCloneSourceFinalizer)) {
      return base::Status::Ok();
    }
    return reads.api.SetClaimFinalizer(source.namespace_, source.name, kCloneSourceFinalizer,
                                       /*add=*/true);
  }
  base::Status s = reads.api.SetSnapshotFinalizer(source.namespace_, source.name,
                                                  kSnapshotSourceFinalizer, /*add=*/true);
  if (!s.ok() && kube::IsForbidden(s.error())) {
    LOG_V(3,
          "Unable to add finalizer to snapshot due to missing RBAC permissions (needs "
          "'update' on volumesnapshots); provisioning continues without snapshot protection")
        .With("snapshot", source.namespace_ + "/" + source.name)
        .With("err", s.error().message);
    return base::Status::Ok();
  }
  return s;
}

base::Status ReleaseSnapshot(ProvisionerApi& api, const std::string& ns, const std::string& name) {
  base::Status s = api.SetSnapshotFinalizer(ns, name, kSnapshotSourceFinalizer, /*add=*/false);
  if (s.ok() || kube::IsNotFound(s.error())) return base::Status::Ok();
  if (kube::IsForbidden(s.error())) {
    LOG_V(3,
          "Unable to remove finalizer from snapshot due to missing RBAC permissions (needs "
          "'update' on volumesnapshots); the finalizer remains")
        .With("snapshot", ns + "/" + name)
        .With("err", s.error().message);
    return base::Status::Ok();
  }
  return s;
}

}  // namespace provisioner
