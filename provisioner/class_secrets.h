// The Secrets a StorageClass's parameters name for a claim's volume
// (docs/provisioner.md §3.5): one per CSI call that may need credentials.
// Each kind is named by its pair of csi.storage.k8s.io/<kind>-secret-name /
// -namespace parameters (four kinds also by an older csi<Kind>SecretName
// pair, not both); a kind named by neither falls back to the class's
// csi.storage.k8s.io/secret-name / -namespace. Templates may use ${pv.name}
// and ${pvc.namespace}; names also ${pvc.name} and
// ${pvc.annotations['KEY']}. Only references are resolved here: the
// provisioner reads the Provisioner Secret itself and records the others in
// the PV. Error texts are upstream's (they reach ProvisioningFailed Events).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/core/v1/volume_sources.h"
#include "kube/api/string_map.h"

namespace provisioner {

enum class SecretKind {
  kProvisioner,
  kControllerPublish,
  kNodeStage,
  kNodePublish,
  kControllerExpand,
  kNodeExpand,
  kControllerModify,
};

inline constexpr std::array kAllSecretKinds{
    SecretKind::kProvisioner,      SecretKind::kControllerPublish, SecretKind::kNodeStage,
    SecretKind::kNodePublish,      SecretKind::kControllerExpand,  SecretKind::kNodeExpand,
    SecretKind::kControllerModify,
};

// The reserved parameter keys a class may carry (§3.4): the fstype key and
// every secret key above (the deprecated ones are not reserved: they stay in
// the parameters the driver sees).
std::span<const std::string_view> KnownReservedKeys();

// The Secret of `kind` for the volume `volume_name` of `claim` (null: no claim,
// as when a static PV is deleted); nullopt when the class names none.
base::Result<std::optional<kube::SecretReference>> SecretReferenceFor(
    SecretKind kind, const kube::StringMap& parameters, std::string_view volume_name,
    const kube::PersistentVolumeClaim* claim);

}  // namespace provisioner
