#include "csi_params/volumes.h"

#include <variant>

namespace csi_params {

const kube::CSIPersistentVolumeSource* CsiSourceOf(const kube::PersistentVolume& volume) {
  return std::get_if<kube::CSIPersistentVolumeSource>(&volume.spec.source);
}

bool IsVolumeBoundToClaim(const kube::PersistentVolume& volume,
                          const kube::PersistentVolumeClaim& claim) {
  const auto& ref = volume.spec.claim_ref;
  return ref && ref->name == claim.metadata.name && ref->namespace_ == claim.metadata.namespace_ &&
         (ref->uid.empty() || ref->uid == claim.metadata.uid);
}

}  // namespace csi_params
