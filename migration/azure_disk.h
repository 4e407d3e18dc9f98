// Azure Disk (kubernetes.io/azure-disk -> disk.csi.azure.com),
// docs/migration.md §2.4; back to in-tree and StorageClasses, §8.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"

namespace migration {

// Used by the StorageClass translation only: PVs keep their topology.
inline constexpr std::string_view kAzureDiskTopologyKey = "topology.disk.csi.azure.com/zone";

// Returns the CSI source for `source`: handle = diskURI (not validated),
// volumeAttributes kind=Managed plus cachingmode and fstype when set. No
// topology or access-mode change. Error: "kind(<kind>) is not supported in
// csi migration" for a kind other than Managed (case-insensitive).
base::Result<kube::CSIPersistentVolumeSource> TranslateAzureDisk(
    const kube::AzureDiskVolumeSource& source);

// The disk name of a disk URI: what follows .../providers/Microsoft.Compute/disks/
// in a managed disk's resource ID (.../subscriptions/<s>/resourceGroups/<g>/...),
// or /vhds/ in an unmanaged disk's http(s) URL (a URI starting with "http",
// any case, and longer than that). Error: "could not get disk name from
// <uri>, correct format: <upstream's regular expression>".
base::Result<std::string> AzureDiskNameOf(const std::string& disk_uri);

// The in-tree source for `csi` (§8.2): diskName from the handle
// (AzureDiskNameOf, whose error it returns), diskURI = handle, kind Managed,
// readOnly and fsType (even "") set from the source; non-empty attributes
// cachingmode and fstype (names in any case) set cachingMode and override
// fsType. Topology is not translated.
base::Result<kube::AzureDiskVolumeSource> AzureDiskFromCsi(
    const kube::CSIPersistentVolumeSource& csi);

// Values of kAzureDiskTopologyKey in `terms` that are bare numbers (a region
// without zones) become "" (§8.1).
void ClearUnzonedAzureDiskValues(std::vector<kube::TopologySelectorTerm>& terms);

}  // namespace migration
