// OpenStack Cinder (kubernetes.io/cinder -> cinder.csi.openstack.org),
// docs/migration.md §2.3.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Translates `source`, the cinder source of `pv`, and returns the CSI source
// (handle = volumeID, empty volumeAttributes, no secrets: the in-tree
// secretRef is ignored); the caller installs it in `pv`. Also rewrites the
// topology of `pv` (§2.0). Never fails.
kube::CSIPersistentVolumeSource TranslateCinder(const kube::CinderPersistentVolumeSource& source,
                                                kube::PersistentVolume& pv);

}  // namespace migration
