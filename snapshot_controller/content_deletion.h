// MarkAndDeleteContent: what the deletion of a VolumeSnapshot or a
// VolumeGroupSnapshot does to its content (docs/snapshots.md §4.5 steps 4-5,
// §4.7): the content is marked being deleted (content_patches.h), whatever
// its policy; under policy Delete it is DELETEd unless it is being deleted
// already. Answers whether the content still exists with policy Delete, so
// that the (group) snapshot keeps its bound-protection finalizer until the
// sidecar has let the content go; a content gone meanwhile (NotFound)
// answers false. A failed DELETE is upstream's Warning on the (group)
// snapshot - SnapshotContentObjectDeleteError "Failed to delete snapshot
// content API object", or GroupSnapshotContentObjectDeleteError "Failed to
// delete group snapshot content API object" - and the error "failed to
// delete <Kind> <name> from API server: <quoted error>".
#pragma once

#include "base/result.h"
#include "kube/api/core/v1/event.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"

namespace snapshot_controller {

base::Result<bool> MarkAndDeleteContent(ControllerApi& api, ControllerEvents& events,
                                        const kube::ObjectReference& snapshot,
                                        const kube::VolumeSnapshotContent& content);
base::Result<bool> MarkAndDeleteContent(ControllerApi& api, ControllerEvents& events,
                                        const kube::ObjectReference& group,
                                        const kube::VolumeGroupSnapshotContent& content);

}  // namespace snapshot_controller
