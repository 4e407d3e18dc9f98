// The controller's two writes to a VolumeSnapshotContent's metadata
// (docs/snapshots.md §4.4, §4.5 step 4). Each is a JSON Patch computed from
// the cached copy whose `test` ops guard only what it depends on
// (kube/api/metadata_patch.h, §9.4); one the API server refuses because the
// content changed since is computed again from a fresh GET at once
// (kube/client/patch_from_cache.h). Nothing is sent when the content already
// is as asked. A failure reads as upstream's "snapshot controller failed to
// update <name> on API server: <error>" and keeps the API's code, so a
// content gone meanwhile is NotFound.
#pragma once

#include "base/result.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshot_controller/controller_api.h"

namespace snapshot_controller {

// Adds the volumesnapshotcontent-bound-protection finalizer (§4.4).
base::Status AddContentFinalizer(ControllerApi& api, const kube::VolumeSnapshotContent& cached);

// Sets the annotation volumesnapshot-being-deleted: "yes", which lets the
// sidecar delete the backend snapshot (§4.4, §4.5 step 4). A content that
// has the annotation, whatever its value, is left alone, as upstream.
base::Status MarkContentBeingDeleted(ControllerApi& api, const kube::VolumeSnapshotContent& cached);

}  // namespace snapshot_controller
