#include "provisioner/provisioned_volume.h"

#include "base/quantity.h"
#include "provisioner/annotations.h"
#include "provisioner/names.h"
#include "provisioner/topology_terms.h"

namespace provisioner {
namespace {

kube::HeapOptional<kube::SecretReference> HeapRef(const VolumeRequest& request, SecretKind kind) {
  kube::HeapOptional<kube::SecretReference> out;
  if (const auto& ref = request.secret(kind)) out = *ref;
  return out;
}

kube::CSIPersistentVolumeSource CsiSourceOf(const ProvisionedVolumeInputs& in, bool block) {
  kube::CSIPersistentVolumeSource source;
  source.driver = kube::InternedString(in.driver_name);
  source.volume_handle = in.volume.volume_id();
  // The identity first: the driver's context wins a clash (§3.9).
  source.volume_attributes[kProvisionerIdentityAttribute] = in.identity;
  for (const auto& [key, value] : in.volume.volume_context()) {
    source.volume_attributes[key] = value;
  }
  if (!block) source.fs_type = kube::InternedString(in.request.fs_type);
  const auto& capabilities = in.request.request.volume_capabilities();
  source.read_only = in.controller_publish_readonly && capabilities.size() == 1 &&
                     capabilities[0].access_mode().mode() ==
                         csi::v1::VolumeCapability::AccessMode::MULTI_NODE_READER_ONLY;
  source.controller_publish_secret_ref = HeapRef(in.request, SecretKind::kControllerPublish);
  source.node_stage_secret_ref = HeapRef(in.request, SecretKind::kNodeStage);
  source.node_publish_secret_ref = HeapRef(in.request, SecretKind::kNodePublish);
  source.controller_expand_secret_ref = HeapRef(in.request, SecretKind::kControllerExpand);
  source.node_expand_secret_ref = HeapRef(in.request, SecretKind::kNodeExpand);
  return source;
}

}  // namespace

std::string ClassOfClaim(const kube::PersistentVolumeClaim& claim) {
  if (auto it = claim.metadata.annotations.find(kBetaStorageClassAnnotation);
      it != claim.metadata.annotations.end()) {
    return it->second;
  }
  return claim.spec.storage_class_name.value_or("");
}

std::string_view SelectedNodeOf(const kube::PersistentVolumeClaim& claim) {
  return AnnotationValue(claim.metadata, kSelectedNodeAnnotation);
}

kube::PersistentVolume MakeProvisionedVolume(const ProvisionedVolumeInputs& in) {
  const kube::PersistentVolumeClaim& claim = in.claim;
  const bool block = claim.spec.volume_mode == "Block";
  kube::PersistentVolume pv;
  pv.metadata.name = in.request.request.name();
  const auto& deletion_secret = in.request.provisioner_secret;
  auto& annotations = pv.metadata.annotations;
  annotations[kProvisionedByAnnotation] = in.storage_class.provisioner;
  annotations[kDeletionSecretNameAnnotation] = deletion_secret ? deletion_secret->name : "";
  annotations[kDeletionSecretNamespaceAnnotation] =
      deletion_secret ? deletion_secret->namespace_ : "";
  if (const auto& modify = in.request.secret(SecretKind::kControllerModify)) {
    annotations[kModifySecretNameAnnotation] = modify->name;
    annotations[kModifySecretNamespaceAnnotation] = modify->namespace_;
  }
  // Whatever the reclaim policy: a Retain PV loses it on its first sync (§4.1).
  pv.metadata.finalizers.emplace_back(kVolumeFinalizer);

  kube::PersistentVolumeSpec& spec = pv.spec;
  spec.access_modes = claim.spec.access_modes;
  spec.mount_options = in.storage_class.mount_options;
  spec.capacity_storage = kube::InternedString(base::FormatBinarySIQuantity(in.capacity_bytes));
  spec.source = CsiSourceOf(in, block);
  if (in.storage_class.reclaim_policy) {
    spec.persistent_volume_reclaim_policy = kube::InternedString(*in.storage_class.reclaim_policy);
  }
  spec.storage_class_name = kube::InternedString(ClassOfClaim(claim));
  if (!claim.spec.volume_mode.empty())
    spec.volume_mode = kube::InternedString(claim.spec.volume_mode);
  if (in.request.attributes_class)
    spec.volume_attributes_class_name = kube::InternedString(*in.request.attributes_class);
  if (in.topology) spec.node_affinity = NodeAffinityOf(in.volume.accessible_topology());
  spec.claim_ref = kube::ClaimReference{.namespace_ = claim.metadata.namespace_,
                                        .name = claim.metadata.name,
                                        .uid = claim.metadata.uid,
                                        .kind = kube::InternedString("PersistentVolumeClaim"),
                                        .api_version = kube::InternedString("v1"),
                                        .resource_version = claim.metadata.resource_version};
  return pv;
}

}  // namespace provisioner
