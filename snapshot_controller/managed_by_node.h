// The node a dynamic content is labelled as managed by with distributed
// snapshotting (docs/snapshots.md §4.3, createSnapshotContent step 3): the
// first node, by name, whose labels satisfy the PV's required nodeAffinity.
// "" when the PV has no node affinity or no node matches; upstream then
// creates the content without the label too.
#pragma once

#include <string>

#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/runtime/store.h"

namespace snapshot_controller {

std::string ManagedByNode(const kube::PersistentVolume& volume,
                          const kube::Store<kube::Node>& nodes);

}  // namespace snapshot_controller
