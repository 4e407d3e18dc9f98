// Caches: the informers' stores the snapshot-controller's handler reads
// (docs/snapshots.md §4.2). The loop that keeps them current owns them; the
// handler only reads. `nodes` is null unless distributed snapshotting is on;
// `groups` is null while group snapshots are off (§4.1), and nothing may
// then ask about a group (§9.13).
#pragma once

#include "kube/api/core/v1/node.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/runtime/store.h"

namespace snapshot_controller {

struct GroupCaches {
  const kube::Store<kube::VolumeGroupSnapshot>& group_snapshots;
  const kube::Store<kube::VolumeGroupSnapshotContent>& group_contents;
  const kube::Store<kube::VolumeGroupSnapshotClass>& group_classes;
};

struct Caches {
  const kube::Store<kube::VolumeSnapshot>& snapshots;
  const kube::Store<kube::VolumeSnapshotContent>& contents;
  const kube::Store<kube::VolumeSnapshotClass>& classes;
  const kube::Store<kube::PersistentVolumeClaim>& claims;
  const kube::Store<kube::PersistentVolume>& volumes;
  const kube::Store<kube::Node>* nodes = nullptr;
  const GroupCaches* groups = nullptr;
};

}  // namespace snapshot_controller
