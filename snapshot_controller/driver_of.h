// The CSI driver a VolumeSnapshot's metrics are labelled with
// (docs/snapshots.md §4.6): its class's driver, else its bound content's,
// from the caches; "" when neither is known (OperationMetrics then says
// "unknown").
#pragma once

#include <string>

#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "snapshot_controller/caches.h"

namespace snapshot_controller {

std::string DriverOf(const kube::VolumeSnapshot& snapshot, const Caches& caches);

}  // namespace snapshot_controller
