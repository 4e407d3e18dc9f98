// vSphere (kubernetes.io/vsphere-volume -> csi.vsphere.vmware.com),
// docs/migration.md §2.6.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"

namespace migration {

// Translates `source`, the vsphereVolume of `pv`, and returns the CSI source
// (handle = volumePath unchanged, storagepolicyname when set); the caller
// installs it in `pv`. Zone and region topology move to the vSphere keys,
// each from nodeAffinity or else from its label taken whole (not split on
// "__"). Never fails.
kube::CSIPersistentVolumeSource TranslateVsphereVolume(
    const kube::VsphereVirtualDiskVolumeSource& source, kube::PersistentVolume& pv);

}  // namespace migration
