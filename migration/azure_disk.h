// Azure Disk (kubernetes.io/azure-disk -> disk.csi.azure.com),
// docs/migration.md §2.4.
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Returns the CSI source for `source`: handle = diskURI (not validated),
// volumeAttributes kind=Managed plus cachingmode and fstype when set. No
// topology or access-mode change. Error: "kind(<kind>) is not supported in
// csi migration" for a kind other than Managed (case-insensitive).
base::Result<kube::CSIPersistentVolumeSource> TranslateAzureDisk(
    const kube::AzureDiskVolumeSource& source);

}  // namespace migration
