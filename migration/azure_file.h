// Azure File (kubernetes.io/azure-file -> file.csi.azure.com),
// docs/migration.md §2.5.
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

}  // namespace migration
