// GroupContentCreator: what a dynamic VolumeGroupSnapshot needs from its
// claims (docs/snapshots.md §4.7): the default group class of their CSI
// driver, and the dynamic group content upstream's createGroupSnapshotContent
// makes - named groupsnapcontent-<UID>, a full reference to the group
// snapshot, the volume handles of the claims its selector picks
// (GroupVolumesOf), the class's name, driver and deletion policy, and the
// group deletion-secret annotations when the class names a
// group-snapshotter Secret. Every volume must be a CSI volume of the class's
// driver, else a Warning CreateGroupSnapshotContentFailed and an error. A
// content already there counts as made (AlreadyExists). On success the
// Normal CreatingGroupSnapshot. No claim gets a finalizer (upstream: a TODO).
//
// Thread-safe: it keeps no state of its own.
#pragma once

#include <string>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"

namespace snapshot_controller {

// "groupsnapcontent-<VolumeGroupSnapshot UID>".
std::string DynamicGroupContentNameFor(const kube::VolumeGroupSnapshot& group);

class GroupContentCreator {
 public:
  // `caches.groups` must be set.
  GroupContentCreator(ControllerApi& api, const Caches& caches, ControllerEvents& events)
      : api_(api), caches_(caches), events_(events) {}

  // The name of the default group class of the driver of the group's first
  // claim's volume; upstream's errors.
  base::Result<std::string> DefaultClassOf(const kube::VolumeGroupSnapshot& group);

  // The content as created (or as built, when it existed already).
  base::Result<kube::VolumeGroupSnapshotContent> Create(const kube::VolumeGroupSnapshot& group);

 private:
  // Upstream's getCreateGroupSnapshotInput and the content built from it.
  base::Result<kube::VolumeGroupSnapshotContent> ContentToCreate(
      const kube::VolumeGroupSnapshot& group);

  ControllerApi& api_;
  const Caches& caches_;
  ControllerEvents& events_;
};

}  // namespace snapshot_controller
