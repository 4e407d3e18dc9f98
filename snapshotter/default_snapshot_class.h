// The class a dynamic VolumeSnapshot without one gets (docs/snapshots.md
// §4.3 step 0): among the VolumeSnapshotClasses, the only one marked
// is-default-class "true" for the driver of the source PV. Pure; the caller
// patches the VolumeSnapshot and emits SetDefaultSnapshotClassFailed on an
// error, whose texts are upstream's.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"

namespace snapshotter {

using SnapshotClassPtr = std::shared_ptr<const kube::VolumeSnapshotClass>;

// The one default class of `driver`; an error when there is none or several.
base::Result<SnapshotClassPtr> DefaultSnapshotClassFor(const std::vector<SnapshotClassPtr>& classes,
                                                       std::string_view driver);

}  // namespace snapshotter
