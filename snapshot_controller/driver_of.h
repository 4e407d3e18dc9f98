// The CSI driver a VolumeSnapshot's metrics are labelled with
// (docs/snapshots.md §4.6): its class's driver, else its bound content's,
// from the caches; "" when neither is known (OperationMetrics then says
// "unknown").
#pragma once

#include <string>

#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"

namespace snapshot_controller {

std::string DriverOf(const kube::VolumeSnapshot& snapshot, const Caches& caches);

// A group snapshot's (§4.7, upstream's getGroupSnapshotDriverName): its
// pre-provisioned content's driver, else its class's; "" when neither is
// known or group caches are off.
std::string DriverOf(const kube::VolumeGroupSnapshot& group, const Caches& caches);

}  // namespace snapshot_controller
