// Portworx (kubernetes.io/portworx-volume -> pxd.portworx.com),
// docs/migration.md §2.7.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Returns the CSI source for `source`, the portworxVolume of `pv`: handle =
// volumeID, empty volumeAttributes, readOnly not carried over. When `pv` has
// both openstorage.io/auth-secret-name and -namespace annotations, that
// secret is the controller-publish secret (upstream also sets it as the
// other four secret refs, which kube::CSIPersistentVolumeSource does not
// keep). Never fails.
kube::CSIPersistentVolumeSource TranslatePortworx(const kube::PortworxVolumeSource& source,
                                                  const kube::PersistentVolume& pv);

}  // namespace migration
