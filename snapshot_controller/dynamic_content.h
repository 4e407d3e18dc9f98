// The VolumeSnapshotContent the controller creates for a dynamic
// VolumeSnapshot (docs/snapshots.md §4.3 createSnapshotContent step 3), built
// from the snapshot, its class and its source PV. Pure; the caller has
// already looked up the class and the PV and POSTs the result.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"

namespace snapshot_controller {

// "snapcontent-<VolumeSnapshot UID>": the one content a dynamic snapshot may have.
std::string DynamicContentNameFor(const kube::VolumeSnapshot& snapshot);

struct DynamicContentOptions {
  // --prevent-volume-mode-conversion: the content records the PV's volumeMode.
  bool prevent_volume_mode_conversion = false;
  // With distributed snapshotting, the node the content is managed by ("" =
  // none): the first node matching the PV's nodeAffinity, found by the caller.
  std::string managed_by_node = "";
};

// Upstream's wrapping of every failure to gather what a content needs
// (class, PV, Secret): "failed to get input parameters to create snapshot
// <name>: <quoted error>".
base::Error CreateInputError(const kube::VolumeSnapshot& snapshot, const base::Error& error);

// The content: its name, the volumesnapshotcontent-bound-protection
// finalizer, a full reference to the snapshot, the PV's volume handle, the
// class's name, deletion policy and driver, and the deletion-secret
// annotations when the class names a snapshotter Secret.
// Errors: the Secret's templates do not resolve (wrapped as
// CreateInputError), or the PV is not a CSI volume.
base::Result<kube::VolumeSnapshotContent> DynamicContentFor(
    const kube::VolumeSnapshot& snapshot, const kube::VolumeSnapshotClass& snapshot_class,
    const kube::PersistentVolume& volume, const DynamicContentOptions& options);

}  // namespace snapshot_controller
