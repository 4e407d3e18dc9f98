// The Secret DeleteVolume sends for a PV (docs/provisioner.md §4.2 step 3):
// the one its deletion-secret annotations name (both empty: none), or - for
// PVs from before the annotations, and static ones - the provisioner Secret
// its class names for it. A Secret that cannot be read is logged and the
// call goes on without credentials, as upstream's does: the driver says
// whether it needs them. For a PV of a migrated in-tree plugin
// (`in_tree_class` set), a class of that plugin is read translated to CSI
// first (§3.13). Shared by the volume controller's deletion and the claim
// controller's removal of a volume no PV can name (§9.2).
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/store.h"
#include "provisioner/known_provisioners.h"
#include "provisioner/provisioner_api.h"
#include "provisioner/volume_driver.h"

namespace provisioner {

base::Result<Secrets> DeletionSecretsOf(const kube::PersistentVolume& volume,
                                        const kube::Store<kube::StorageClass>& classes,
                                        ProvisionerApi& api,
                                        const KnownProvisioners* in_tree_class);

}  // namespace provisioner
