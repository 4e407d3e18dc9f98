// The controller's two writes to a content's metadata, for a
// VolumeSnapshotContent (docs/snapshots.md §4.4, §4.5 step 4) and a
// VolumeGroupSnapshotContent (§4.7) alike, each with its kind's names. Each
// is a JSON Patch computed from the cached copy whose `test` ops guard only
// what it depends on (kube/api/metadata_patch.h, §9.4); one the API server
// refuses because the content changed since is computed again from a fresh
// GET at once (kube/client/patch_from_cache.h). Nothing is sent when the
// content already is as asked. A failure reads as upstream's "snapshot
// controller failed to update <name> on API server: <error>" and keeps the
// API's code, so a content gone meanwhile is NotFound.
#pragma once

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

// Adds the bound-protection finalizer: volumesnapshotcontent-bound-protection
// (§4.4), volumegroupsnapshotcontent-bound-protection (§4.7).
base::Status AddContentFinalizer(ControllerApi& api, const kube::VolumeSnapshotContent& cached);
base::Status AddContentFinalizer(ControllerApi& api,
                                 const kube::VolumeGroupSnapshotContent& cached);

// Sets the being-deleted annotation to "yes" (volumesnapshot-being-deleted,
// volumegroupsnapshot-being-deleted), which lets the sidecar delete the
// backend snapshot (§4.4, §4.5 step 4, §4.7). A content that has the
// annotation, whatever its value, is left alone, as upstream.
base::Status MarkContentBeingDeleted(ControllerApi& api, const kube::VolumeSnapshotContent& cached);
base::Status MarkContentBeingDeleted(ControllerApi& api,
                                     const kube::VolumeGroupSnapshotContent& cached);

}  // namespace snapshot_controller
