// PersistentVolume and PersistentVolumeClaim questions every CSI sidecar
// asks of the objects a call is about (docs/snapshots.md §4.3 step 0 and
// createSnapshotContent step 2, §4.7): which CSI volume a PV is, and whether
// a PV is the one a claim is bound to. Pure functions of the objects.
#pragma once

#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"

namespace csi_params {

// The PV's CSI source; nullptr for any other (in-tree) source.
const kube::CSIPersistentVolumeSource* CsiSourceOf(const kube::PersistentVolume& volume);

// Whether the volume is bound (or pre-bound) to the claim: its claimRef has
// the claim's name and namespace, and the claim's UID when it records one.
bool IsVolumeBoundToClaim(const kube::PersistentVolume& volume,
                          const kube::PersistentVolumeClaim& claim);

}  // namespace csi_params
