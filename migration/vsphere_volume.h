// vSphere (kubernetes.io/vsphere-volume -> csi.vsphere.vmware.com),
// docs/migration.md §2.6; back to in-tree and StorageClasses, §8.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"

namespace migration {

// Translates `source`, the vsphereVolume of `pv`, and returns the CSI source
// (handle = volumePath unchanged, storagepolicyname when set); the caller
// installs it in `pv`. Zone and region topology move to the vSphere keys,
// each from nodeAffinity or else from its label taken whole (not split on
// "__"). Never fails.
kube::CSIPersistentVolumeSource TranslateVsphereVolume(
    const kube::VsphereVirtualDiskVolumeSource& source, kube::PersistentVolume& pv);

// The in-tree source for `csi`, the CSI source of `pv` (§8.2): volumePath =
// the initialvolumefilepath attribute (empty without it; the handle is not
// a path), fsType copied, no storage policy. The vSphere zone and region
// keys move back to the Kubernetes ones, with labels (§8.3). Never fails.
kube::VsphereVirtualDiskVolumeSource VsphereVolumeFromCsi(
    const kube::CSIPersistentVolumeSource& csi, kube::PersistentVolume& pv);

// §8.1: the known parameters (keys in any case) renamed for the driver
// (fsType -> csi.storage.k8s.io/fstype, storagepolicyname kept, datastore,
// diskformat and the vSAN policy parameters -> <name>-migrationparam),
// the others dropped, csimigration=true added; Kubernetes zone keys of
// allowedTopologies renamed to topology.csi.vmware.com/zone. Never fails.
kube::StorageClass TranslateVsphereStorageClass(kube::StorageClass storage_class);

}  // namespace migration
