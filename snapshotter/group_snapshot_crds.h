// Whether the group snapshot CRDs are served (docs/snapshots.md §3.2 step 7).
// With the CSIVolumeGroupSnapshot gate on (the default), upstream lists
// VolumeGroupSnapshotContents and VolumeGroupSnapshotClasses
// (groupsnapshot.storage.k8s.io/v1) with limit=1 before it starts; a failure
// only turns groups off for this run, with a warning, because a driver's
// vendor cannot tell whether a cluster installed those CRDs.
#pragma once

#include "base/result.h"
#include "kube/client/client.h"

namespace snapshotter {

// Lists each kind once, contents first; the first failure's error.
base::Status CheckGroupSnapshotCrds(kube::Client& client);

}  // namespace snapshotter
