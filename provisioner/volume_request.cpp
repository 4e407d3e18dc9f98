#include "provisioner/volume_request.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

#include "base/log.h"
#include "base/quantity.h"
#include "csi_params/access_modes.h"
#include "csi_params/reserved_parameters.h"
#include "provisioner/names.h"

namespace provisioner {
namespace {

using csi::ControllerRpc;
using csi::PluginService;

constexpr std::string_view kFsTypeKey = "csi.storage.k8s.io/fstype";

ProvisionFailure Finished(std::string message) {
  return {base::Error(std::move(message)), ProvisioningState::kFinished};
}
ProvisionFailure NoChange(base::Error error) {
  return {std::move(error), ProvisioningState::kNoChange};
}

// What the claim needs beyond dynamic provisioning (§3.3 step 4).
struct RequiredCapabilities {
  bool snapshot = false;
  bool clone = false;
  bool modify = false;
};

std::optional<std::string> MissingCapability(const csi::Capabilities& capabilities,
                                             const RequiredCapabilities& required) {
  if (!capabilities.Has(PluginService::CONTROLLER_SERVICE)) {
    return "CSI driver does not support dynamic provisioning: plugin CONTROLLER_SERVICE "
           "capability is not reported";
  }
  if (!capabilities.Has(ControllerRpc::CREATE_DELETE_VOLUME)) {
    return "CSI driver does not support dynamic provisioning: controller CREATE_DELETE_VOLUME "
           "capability is not reported";
  }
  if (required.snapshot && !capabilities.Has(ControllerRpc::CREATE_DELETE_SNAPSHOT)) {
    return "CSI driver does not support snapshot restore: controller CREATE_DELETE_SNAPSHOT "
           "capability is not reported";
  }
  if (required.clone && !capabilities.Has(ControllerRpc::CLONE_VOLUME)) {
    return "CSI driver does not support clone operations: controller CLONE_VOLUME capability is "
           "not reported";
  }
  if (required.modify && !capabilities.Has(ControllerRpc::MODIFY_VOLUME)) {
    return "CSI driver does not support VolumeAttributesClass: controller MODIFY_VOLUME "
           "capability is not reported";
  }
  return std::nullopt;
}

bool IsFsTypeKey(std::string_view key) {
  if (key == kFsTypeKey) return true;
  std::string lower(key);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return lower == "fstype";
}

// §3.3 step 6: the class's fstype (either key, not both), else the default.
base::Result<std::string> FsTypeOf(const kube::StringMap& parameters,
                                   const std::string& default_fstype) {
  std::string fs_type;
  int found = 0;
  for (const auto& [key, value] : parameters) {
    if (!IsFsTypeKey(key)) continue;
    fs_type = value;
    ++found;
  }
  if (found > 1) {
    return base::Error(
        "fstype specified in parameters with both \"fstype\" and \"csi.storage.k8s.io/fstype\" "
        "keys");
  }
  return fs_type.empty() ? default_fstype : fs_type;
}

// §3.3 step 7: one capability per access mode of the claim.
base::Status AddVolumeCapabilities(const kube::PersistentVolumeClaim& claim,
                                   const kube::StorageClass& storage_class,
                                   const std::string& fs_type, bool single_node_multi_writer,
                                   csi::v1::CreateVolumeRequest& request) {
  const bool block = claim.spec.volume_mode == "Block";
  for (const std::string& mode : claim.spec.access_modes) {
    auto access_mode = csi_params::ToCsiAccessMode({mode}, single_node_multi_writer);
    if (!access_mode.ok()) return access_mode.error();
    csi::v1::VolumeCapability& capability = *request.add_volume_capabilities();
    capability.mutable_access_mode()->set_mode(
        static_cast<csi::v1::VolumeCapability::AccessMode::Mode>(*access_mode));
    if (block) {
      capability.mutable_block();
      continue;
    }
    auto* mount = capability.mutable_mount();
    mount->set_fs_type(fs_type);
    for (const std::string& flag : storage_class.mount_options) mount->add_mount_flags(flag);
  }
  return base::Status::Ok();
}

}  // namespace

VolumeRequestResult BeginVolumeRequest(const kube::PersistentVolumeClaim& claim,
                                       const kube::StorageClass& storage_class,
                                       const csi::Capabilities& capabilities,
                                       const VolumeRequestOptions& options,
                                       const kube::Store<kube::ReferenceGrant>* reference_grants) {
  auto source =
      DataSourceOf(claim, options.cross_namespace_data_sources ? reference_grants : nullptr);
  if (!source.ok()) return ProvisionFailure{source.error(), ProvisioningState::kFinished};
  RequiredCapabilities required;
  if (*source) {
    const DataSource& data_source = **source;
    if (data_source.name.empty()) {
      return Finished("the PVC source not found for PVC " + claim.metadata.name);
    }
    if (data_source.kind == "VolumeSnapshot") {
      if (data_source.api_group != kSnapshotGroup) {
        return Finished(
            "the PVC source does not belong to the right APIGroup. Expected "
            "snapshot.storage.k8s.io, Got " +
            data_source.api_group);
      }
      required.snapshot = true;
    } else if (data_source.kind == "PersistentVolumeClaim") {
      required.clone = true;
    } else {
      return LeftToPopulator{};
    }
  }
  VolumeRequest out;
  if (options.volume_attributes_class && claim.spec.volume_attributes_class_name &&
      !claim.spec.volume_attributes_class_name->empty()) {
    out.attributes_class = claim.spec.volume_attributes_class_name;
    required.modify = true;
  }
  if (auto missing = MissingCapability(capabilities, required)) return Finished(*missing);
  // The source itself is checked against the API after this (§3.7).
  if (required.snapshot || required.clone) out.data_source = **source;
  if (claim.spec.selector) return Finished("claim Selector is not supported");

  const std::string uid = claim.metadata.uid.str();
  if (options.volume_name_prefix.empty())
    return Finished("volume name prefix cannot be of length 0");
  if (uid.empty()) return Finished("corrupted PVC object, it is missing UID");
  const std::string volume_name =
      VolumeName(options.volume_name_prefix, uid, options.volume_name_uuid_length);
  auto fs_type = FsTypeOf(storage_class.parameters, options.default_fstype);
  if (!fs_type.ok()) return ProvisionFailure{fs_type.error(), ProvisioningState::kFinished};
  out.fs_type = *fs_type;

  csi::v1::CreateVolumeRequest& request = out.request;
  request.set_name(volume_name);
  auto size = base::QuantityAsInt64(claim.spec.requests_storage);
  if (!size.ok()) return ProvisionFailure{size.error(), ProvisioningState::kFinished};
  request.mutable_capacity_range()->set_required_bytes(*size);
  if (base::Status s =
          AddVolumeCapabilities(claim, storage_class, out.fs_type,
                                capabilities.Has(ControllerRpc::SINGLE_NODE_MULTI_WRITER), request);
      !s.ok()) {
    return ProvisionFailure{s.error(), ProvisioningState::kFinished};
  }

  return out;
}

std::optional<ProvisionFailure> AddProvisionerSecret(VolumeRequest& request,
                                                     const kube::PersistentVolumeClaim& claim,
                                                     const kube::StorageClass& storage_class) {
  auto ref = SecretReferenceFor(SecretKind::kProvisioner, storage_class.parameters,
                                request.request.name(), &claim);
  if (!ref.ok()) return NoChange(ref.error());
  request.provisioner_secret = *ref;
  request.secrets[static_cast<size_t>(SecretKind::kProvisioner)] = *ref;
  return std::nullopt;
}

std::optional<ProvisionFailure> CompleteVolumeRequest(VolumeRequest& request,
                                                      const kube::PersistentVolumeClaim& claim,
                                                      const kube::StorageClass& storage_class,
                                                      const VolumeRequestOptions& options) {
  const std::string& volume_name = request.request.name();
  for (SecretKind kind : kAllSecretKinds) {
    if (kind == SecretKind::kProvisioner) continue;
    auto ref = SecretReferenceFor(kind, storage_class.parameters, volume_name, &claim);
    if (!ref.ok()) return NoChange(ref.error());
    request.secrets[static_cast<size_t>(kind)] = *ref;
  }
  auto parameters =
      csi_params::StripReservedParameters(storage_class.parameters, KnownReservedKeys());
  if (!parameters.ok()) {
    return Finished("failed to strip CSI Parameters of prefixed keys: " +
                    parameters.error().message);
  }
  if (options.extra_create_metadata) {
    (*parameters)[std::string(kPvcNameKey)] = claim.metadata.name;
    (*parameters)[std::string(kPvcNamespaceKey)] = claim.metadata.namespace_;
    (*parameters)[std::string(kPvNameKey)] = volume_name;
  }
  request.request.mutable_parameters()->insert(parameters->begin(), parameters->end());
  return std::nullopt;
}

VolumeRequestResult MakeVolumeRequest(const kube::PersistentVolumeClaim& claim,
                                      const kube::StorageClass& storage_class,
                                      const csi::Capabilities& capabilities,
                                      const VolumeRequestOptions& options,
                                      const kube::Store<kube::ReferenceGrant>* reference_grants) {
  VolumeRequestResult begun =
      BeginVolumeRequest(claim, storage_class, capabilities, options, reference_grants);
  auto* request = std::get_if<VolumeRequest>(&begun);
  if (!request) return begun;
  if (auto failure = AddProvisionerSecret(*request, claim, storage_class)) return *failure;
  if (auto failure = CompleteVolumeRequest(*request, claim, storage_class, options)) {
    return *failure;
  }
  return begun;
}

}  // namespace provisioner
