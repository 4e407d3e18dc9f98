// Azure File (kubernetes.io/azure-file -> file.csi.azure.com),
// docs/migration.md §2.5; back to in-tree, §8.2.
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Returns the CSI source for `source`, the azureFile of `pv`: handle
// <rg>#<account>#<share>#<pv name>#<secret namespace>, where rg comes from
// the kubernetes.io/azure-file-resource-group annotation (or is empty) and
// the account from a secretName azure-storage-account-<account>-secret (else
// the whole secretName); volumeAttributes {sharename}. The secret namespace is
// secretNamespace when set (even empty), else the claimRef namespace. The
// nodeStageSecretRef upstream also sets is not kept: kube::CSIPersistentVolumeSource
// holds only what the attacher reads. Error: "could not find a secret
// namespace in PersistentVolumeSource or ClaimRef".
base::Result<kube::CSIPersistentVolumeSource> TranslateAzureFile(
    const kube::AzureFilePersistentVolumeSource& source, const kube::PersistentVolume& pv);

// The in-tree source for `csi`, the CSI source of `pv` (§8.2): readOnly
// copied; shareName, secretName and secretNamespace from the attributes of
// those names (any case); a nodeStageSecretRef with a name sets secretName
// and secretNamespace instead. When shareName or secretName is still empty,
// the handle <rg>#<account>#<share>[#...] gives them (secretName
// azure-storage-account-<account>-secret) and a non-empty rg becomes `pv`'s
// kubernetes.io/azure-file-resource-group annotation. secretNamespace
// defaults to "default". Error: `error parsing volume id: "<handle>", should
// at least contain two #` when the handle is needed and has fewer than 3 parts.
base::Result<kube::AzureFilePersistentVolumeSource> AzureFileFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv);

}  // namespace migration
