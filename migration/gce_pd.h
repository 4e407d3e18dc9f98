// GCE PD (kubernetes.io/gce-pd -> pd.csi.storage.gke.io), docs/migration.md §2.1
// and §3; back to in-tree, §8.2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

inline constexpr std::string_view kGceTopologyKey = "topology.gke.io/zone";
// Placeholder for the project (and a missing zone) in translated handles.
inline constexpr std::string_view kUnspecified = "UNSPECIFIED";

// Translates `source`, the gcePersistentDisk of `pv`, and returns the CSI
// source; the caller installs it in `pv`. The handle follows the zone labels
// (beta, else GA): one zone gives projects/UNSPECIFIED/zones/<z>/disks/<pd>,
// several give .../regions/<region>/disks/<pd>, none gives zone UNSPECIFIED.
// Also rewrites `pv`'s topology (§2.0) and access modes (§2.1).
// Error: "failed to get region from zones: ..." for zones that do not share
// one <locale>-<region> prefix.
base::Result<kube::CSIPersistentVolumeSource> TranslateGcePd(
    const kube::GCEPersistentDiskVolumeSource& source, kube::PersistentVolume& pv);

// Replaces UNSPECIFIED in a translated handle with the project, zone or
// region of `node_id` (projects/<p>/zones/<z>/instances/<name>). Handles of a
// known project are returned as they are. Errors (exact upstream texts) for a
// handle or node ID of fewer than 6 elements, an unparseable node zone, or a
// regionality other than zones/regions.
base::Result<std::string> RepairGcePdHandle(std::string_view handle, std::string_view node_id);

// The region of GCE zones <locale>-<region>-<zone>. Errors: "no zones
// specified", "zone in unexpected format, expected:
// {locale}-{region}-{zone}, got: <zone>", "multiple or no regions gotten from
// zones, got: map[<r1>:{} <r2>:{}]".
base::Result<std::string> GceRegionFromZones(const std::vector<std::string>& zones);

// The in-tree source for `csi`, the CSI source of `pv` (docs/migration.md
// §8.2): pdName = the 6th element of the handle, partition from the
// "partition" attribute (absent or "" = 0). Also rewrites `pv`'s topology
// with GceRegionFromZones (§8.3). Errors: "failed to get id components.Got:
// <n>, wanted 6 components or more. " for a handle of fewer than 6
// "/"-separated elements, "Failed to convert partition <p> to integer:
// <Atoi error>", or the topology error.
base::Result<kube::GCEPersistentDiskVolumeSource> GcePdFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv);

// The PD driver accepts neither RWX nor RWO together with ROX: RWX becomes
// RWO, and any set holding RWO, or without ROX, becomes [ReadWriteOnce];
// only ROX stays [ReadOnlyMany]. An empty list stays empty: upstream keeps a
// nil list and makes [] [ReadWriteOnce], but API validation requires at least
// one access mode, so neither reaches the attacher from a stored PV.
std::vector<std::string> GceAccessModes(const std::vector<std::string>& modes);

}  // namespace migration
