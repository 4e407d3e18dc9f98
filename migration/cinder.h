// OpenStack Cinder (kubernetes.io/cinder -> cinder.csi.openstack.org),
// docs/migration.md §2.3; back to in-tree, §8.2.
#pragma once

#include <string_view>

#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

inline constexpr std::string_view kCinderTopologyKey = "topology.cinder.csi.openstack.org/zone";

// Translates `source`, the cinder source of `pv`, and returns the CSI source
// (handle = volumeID, empty volumeAttributes, no secrets: the in-tree
// secretRef is ignored); the caller installs it in `pv`. Also rewrites the
// topology of `pv` (§2.0). Never fails.
kube::CSIPersistentVolumeSource TranslateCinder(const kube::CinderPersistentVolumeSource& source,
                                                kube::PersistentVolume& pv);

// The in-tree source for `csi`, the CSI source of `pv` (§8.2): volumeID =
// the handle, fsType and readOnly copied. Also rewrites `pv`'s topology
// (§8.3), without a region. Never fails.
kube::CinderPersistentVolumeSource CinderFromCsi(const kube::CSIPersistentVolumeSource& csi,
                                                 kube::PersistentVolume& pv);

}  // namespace migration
