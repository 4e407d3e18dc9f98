// The snapshotter as a part of csi-sidecars (component/controller_part.h):
// its own flags as --snapshotter-<flag>, csi-snapshotter's checks, its Lease
// (snapshotter/names.h) and identity variable
// CSI_SNAPSHOTTER_LEADER_IDENTITY. A driver that cannot snapshot, or group
// snapshots that cannot start, turn the part off where csi-snapshotter
// exits. Without the snapshot CRDs it runs as csi-snapshotter does: its
// informers retry until the CRDs appear.
#pragma once

#include <memory>

#include "component/controller_part.h"

namespace csisnapshotter {

std::unique_ptr<component::ControllerPart> NewSnapshotterPart();

}  // namespace csisnapshotter
