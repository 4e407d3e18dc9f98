#include "provisioner/volume_provisioning.h"

#include <grpcpp/support/status_code_enum.h>

#include <optional>
#include <string_view>
#include <utility>

#include "base/log.h"
#include "csi/errors.h"
#include "csi/final_error.h"
#include "migration/to_in_tree.h"
#include "provisioner/names.h"
#include "provisioner/provisioned_volume.h"

namespace provisioner {
namespace {

base::Result<Secrets> ReadProvisionerSecret(ProvisionerApi& api,
                                            const std::optional<kube::SecretReference>& ref) {
  if (!ref) return Secrets();
  auto secret = api.GetSecret(ref->namespace_, ref->name);
  if (!secret.ok()) {
    return base::Error("error getting secret " + ref->name + " in namespace " + ref->namespace_ +
                       ": " + secret.error().message);
  }
  return Secrets(secret->data.begin(), secret->data.end());
}

// §3.8: a volume the claim cannot use is deleted again (up to five tries);
// the attempt stays in background so a failed cleanup is retried.
// `cleanup_failed` is upstream's text after the failed DeleteVolume.
ProvisionFailure Unusable(const ProvisioningContext& context, const csi::v1::Volume& volume,
                          std::string message, std::string_view cleanup_failed,
                          const Secrets& secrets, bool migrated) {
  constexpr int kCleanupTries = 5;
  base::Status cleanup = base::Status::Ok();
  for (int attempt = 0; attempt < kCleanupTries; ++attempt) {
    cleanup = context.driver.DeleteVolume(volume.volume_id(), secrets, migrated);
    if (cleanup.ok()) break;
  }
  if (!cleanup.ok()) message += std::string(cleanup_failed) + cleanup.error().message;
  return {base::Error(message), ProvisioningState::kInBackground};
}

ProvisionFailure TooSmall(const ProvisioningContext& context, const csi::v1::Volume& volume,
                          const std::string& volume_name, int64_t requested, const Secrets& secrets,
                          bool migrated) {
  return Unusable(context, volume,
                  "created volume capacity " + std::to_string(volume.capacity_bytes()) +
                      " less than requested capacity " + std::to_string(requested),
                  ". Cleanup of volume " + volume_name + " failed, volume is orphaned: ", secrets,
                  migrated);
}

// §3.7: a claim with a data source needs a volume made from it.
ProvisionFailure SourceMissing(const ProvisioningContext& context, const csi::v1::Volume& volume,
                               const std::string& volume_name, const Secrets& secrets,
                               bool migrated) {
  return Unusable(context, volume, "volume content source missing",
                  ". cleanup of volume " + volume_name + " failed, volume is orphaned: ", secrets,
                  migrated);
}

// §3.3 step 8: the source checked, its handle in the request, its finalizer
// on it - every failure NoChange.
std::optional<ProvisionFailure> PrepareSource(const ProvisioningContext& context,
                                              const kube::PersistentVolumeClaim& claim,
                                              const kube::StorageClass& storage_class,
                                              VolumeRequest& request) {
  const DataSource& source = *request.data_source;
  const SourceReads reads{
      .api = context.api,
      .claims = context.claims,
      .prevent_volume_mode_conversion = context.request_options.prevent_volume_mode_conversion};
  auto content = ContentSourceOf(reads, claim, storage_class, source);
  if (!content.ok()) {
    return ProvisionFailure{content.error().Wrap("error getting handle for DataSource Type " +
                                                 source.kind + " by Name " + source.name),
                            ProvisioningState::kNoChange};
  }
  *request.request.mutable_volume_content_source() = std::move(*content);
  if (base::Status s = ProtectSource(reads, source); !s.ok()) {
    return ProvisionFailure{s.error(), ProvisioningState::kNoChange};
  }
  if (context.on_protected) context.on_protected(source);
  return std::nullopt;
}

// §3.6, §9.8: the requirements a CreateVolume of this claim carried before a
// restart, as its record annotation keeps them, else the ones the caches
// give now.
AccessibilityResult PlaceOf(const TopologyView& topology, const kube::PersistentVolumeClaim& claim,
                            const kube::StorageClass& storage_class) {
  if (auto it = claim.metadata.annotations.find(kAccessibilityRecordAnnotation);
      it != claim.metadata.annotations.end()) {
    if (auto recorded = ParseTopologyRecord(it->second)) {
      LOG_V(4, "Asking for the place the claim's last unfinished CreateVolume asked for")
          .With("PVC", claim.metadata.namespace_ + "/" + claim.metadata.name);
      return std::optional(std::move(*recorded));
    }
    LOG_WARNING("Ignoring an unreadable accessibility record")
        .With("PVC", claim.metadata.namespace_ + "/" + claim.metadata.name);
  }
  return AccessibilityRequirements(topology, claim, storage_class, SelectedNodeOf(claim));
}

// §3.13: the PV of a migrated class goes to the API server in in-tree form;
// one that cannot be translated has its volume deleted again (an unknown
// outcome while that fails, final once it succeeded).
ProvisionResult InTreeFormOf(const ProvisioningContext& context, kube::PersistentVolume pv,
                             const Secrets& secrets) {
  auto in_tree = migration::TranslateCsiPvToInTree(pv);
  if (in_tree.ok()) return std::move(*in_tree);
  LOG_WARNING("Failed to translate CSI PV to in-tree, deleting the provisioned volume")
      .With("PV", pv.metadata.name)
      .With("err", in_tree.error().message);
  const std::string& handle =
      std::get<kube::CSIPersistentVolumeSource>(pv.spec.source).volume_handle;
  if (base::Status s = context.driver.DeleteVolume(handle, secrets, /*migrated=*/true); !s.ok()) {
    LOG_WARNING("Failed to delete partly provisioned PV").With("err", s.error().message);
    return ProvisionFailure{in_tree.error(), ProvisioningState::kInBackground};
  }
  return ProvisionFailure{in_tree.error(), ProvisioningState::kFinished};
}

}  // namespace

ProvisioningState StateOfCreateError(const base::Error& error, bool may_reschedule) {
  // Upstream's provisioner takes no room on the driver as final.
  if (csi::IsGrpcCode(error, grpc::RESOURCE_EXHAUSTED)) {
    return may_reschedule ? ProvisioningState::kReschedule : ProvisioningState::kFinished;
  }
  return csi::IsFinalError(error) ? ProvisioningState::kFinished : ProvisioningState::kInBackground;
}

namespace {

// §3.3 step 11: the claim's VolumeAttributesClass, read live, gives
// CreateVolume its mutable_parameters; a class of another driver is final.
std::optional<ProvisionFailure> ApplyAttributesClass(const ProvisioningContext& context,
                                                     const std::string& name,
                                                     csi::v1::CreateVolumeRequest& request) {
  base::Result<kube::VolumeAttributesClass> vac = context.api.GetAttributesClass(name);
  if (!vac.ok()) return ProvisionFailure{vac.error(), ProvisioningState::kNoChange};
  if (vac->driver_name != context.known.driver()) {
    return ProvisionFailure{
        base::Error("VAC " + name + " referenced in PVC is for driver " + vac->driver_name +
                    " which does not match driver name " + context.known.driver()),
        ProvisioningState::kFinished};
  }
  for (const auto& [key, value] : vac->parameters) {
    (*request.mutable_mutable_parameters())[key] = value;
  }
  return std::nullopt;
}

// PrepareVolume for the class as the driver reads it.
PrepareResult PrepareForDriver(const ProvisioningContext& context,
                               const kube::PersistentVolumeClaim& claim,
                               const kube::StorageClass& storage_class, bool migrated) {
  VolumeRequestResult prepared =
      BeginVolumeRequest(claim, storage_class, context.capabilities, context.request_options,
                         context.reference_grants);
  if (auto* failure = std::get_if<ProvisionFailure>(&prepared)) return std::move(*failure);
  if (std::holds_alternative<LeftToPopulator>(prepared)) return LeftToPopulator{};
  VolumeRequest& request = std::get<VolumeRequest>(prepared);
  if (request.data_source) {
    if (auto failure = PrepareSource(context, claim, storage_class, request)) return *failure;
  }
  if (context.topology) {
    AccessibilityResult where = PlaceOf(*context.topology, claim, storage_class);
    if (auto* failure = std::get_if<ProvisionFailure>(&where)) return std::move(*failure);
    if (auto& requirement = std::get<0>(where)) {
      *request.request.mutable_accessibility_requirements() = std::move(*requirement);
    }
  }
  if (auto failure = AddProvisionerSecret(request, claim, storage_class)) return *failure;
  auto secrets = ReadProvisionerSecret(context.api, request.provisioner_secret);
  if (!secrets.ok()) return ProvisionFailure{secrets.error(), ProvisioningState::kNoChange};
  if (auto failure =
          CompleteVolumeRequest(request, claim, storage_class, context.request_options)) {
    return *failure;
  }
  if (request.attributes_class) {
    if (auto failure = ApplyAttributesClass(context, *request.attributes_class, request.request)) {
      return *failure;
    }
  }
  return PreparedVolume{std::move(request), std::move(*secrets), migrated};
}

}  // namespace

PrepareResult PrepareVolume(const ProvisioningContext& context,
                            const kube::PersistentVolumeClaim& claim,
                            const kube::StorageClass& storage_class) {
  if (!context.known.IsInTree(storage_class.provisioner)) {
    return PrepareForDriver(context, claim, storage_class, /*migrated=*/false);
  }
  LOG_V(2, "Translating storage class for in-tree plugin to CSI")
      .With("plugin", storage_class.provisioner);
  auto translated = context.known.ForDriver(storage_class);
  if (!translated.ok()) return ProvisionFailure{translated.error(), ProvisioningState::kFinished};
  return PrepareForDriver(context, claim, *translated, /*migrated=*/true);
}

ProvisionResult ProvisionVolume(const ProvisioningContext& context,
                                const kube::PersistentVolumeClaim& claim,
                                const kube::StorageClass& storage_class) {
  PrepareResult prepared = PrepareVolume(context, claim, storage_class);
  if (auto* failure = std::get_if<ProvisionFailure>(&prepared)) return std::move(*failure);
  if (std::holds_alternative<LeftToPopulator>(prepared)) return LeftToPopulator{};
  const VolumeRequest& request = std::get<PreparedVolume>(prepared).request;
  const Secrets& secrets = std::get<PreparedVolume>(prepared).secrets;
  const bool migrated = std::get<PreparedVolume>(prepared).migrated;
  csi::v1::CreateVolumeRequest with_secrets = request.request;
  with_secrets.mutable_secrets()->insert(secrets.begin(), secrets.end());

  auto volume = context.driver.CreateVolume(with_secrets, migrated);
  if (!volume.ok()) {
    // Another node may do (§3.11) only when the scheduler picked this one.
    const bool may_reschedule = context.topology && !SelectedNodeOf(claim).empty();
    ProvisionFailure failure{volume.error(), StateOfCreateError(volume.error(), may_reschedule)};
    failure.infeasible = csi::IsGrpcCode(volume.error(), grpc::INVALID_ARGUMENT);
    if (request.request.has_accessibility_requirements()) {
      failure.sent_topology = request.request.accessibility_requirements();
    }
    if (context.topology && (failure.state == ProvisioningState::kFinished ||
                             failure.state == ProvisioningState::kReschedule)) {
      context.topology->memo.Forget(claim.metadata.uid.str());
    }
    return failure;
  }
  const int64_t requested = request.request.capacity_range().required_bytes();
  int64_t capacity = volume->capacity_bytes();
  // CSI allows 0 for "unknown"; the API server does not.
  if (capacity == 0) capacity = requested;
  if (capacity < requested) {
    return TooSmall(context, *volume, request.request.name(), requested, secrets, migrated);
  }
  // Upstream checks spec.dataSource, or a cross-namespace dataSourceRef
  // (populated claims never get here).
  if ((claim.spec.data_source ||
       (request.data_source && request.data_source->namespace_ != claim.metadata.namespace_)) &&
      !volume->has_content_source()) {
    return SourceMissing(context, *volume, request.request.name(), secrets, migrated);
  }
  if (context.topology) context.topology->memo.Forget(claim.metadata.uid.str());
  kube::PersistentVolume pv =
      MakeProvisionedVolume({.claim = claim,
                             .storage_class = storage_class,
                             .request = request,
                             .volume = *volume,
                             .capacity_bytes = capacity,
                             .driver_name = context.known.driver(),
                             .identity = context.identity,
                             .controller_publish_readonly = context.controller_publish_readonly,
                             .topology = context.topology != nullptr});
  if (!migrated) return pv;
  return InTreeFormOf(context, std::move(pv), secrets);
}

}  // namespace provisioner
