// Portworx (kubernetes.io/portworx-volume -> pxd.portworx.com),
// docs/migration.md §2.7; back to in-tree and StorageClasses, §8.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"

namespace migration {

// Returns the CSI source for `source`, the portworxVolume of `pv`: handle =
// volumeID, empty volumeAttributes, readOnly not carried over. When `pv` has
// both openstorage.io/auth-secret-name and -namespace annotations, that
// secret is the controller-publish secret (upstream also sets it as the
// other four secret refs, which kube::CSIPersistentVolumeSource does not
// keep). Never fails.
kube::CSIPersistentVolumeSource TranslatePortworx(const kube::PortworxVolumeSource& source,
                                                  const kube::PersistentVolume& pv);

// The in-tree source for `csi` (§8.2): volumeID = the handle, fsType copied.
// Upstream also copies readOnly, which kube::PortworxVolumeSource does not
// keep (a provisioned CSI PV never sets it). Never fails.
kube::PortworxVolumeSource PortworxFromCsi(const kube::CSIPersistentVolumeSource& csi);

// §8.1: parameters openstorage.io/auth-secret-name and -namespace (keys in
// any case) become csi.storage.k8s.io/<op>-secret-name and -namespace for
// the six operations (provisioner, controller-publish, node-publish,
// node-stage, controller-expand, node-expand); other parameters are kept;
// the provisioner becomes pxd.portworx.com. Never fails.
kube::StorageClass TranslatePortworxStorageClass(kube::StorageClass storage_class);

}  // namespace migration
