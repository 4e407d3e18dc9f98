#include "snapshot_controller/content_sync.h"

#include <string>

#include "kube/api/core/v1/event.h"
#include "kube/api/metadata_patch.h"
#include "snapshot/names.h"
#include "snapshot_controller/content_patches.h"
#include "snapshot_controller/snapshot_predicates.h"
#include "snapshot_controller/snapshot_status.h"

namespace snapshot_controller {

base::Result<ContentSyncOutcome> ContentSync::Sync(const kube::VolumeSnapshotContent& content) {
  const auto& source = content.spec.source;
  if (source.volume_handle.has_value() == source.snapshot_handle.has_value()) {
    const std::string message =
        "Exactly one of VolumeHandle and SnapshotHandle should be specified";
    events_.Record(kube::ReferenceTo(content), kube::kEventTypeWarning, "ContentValidationError",
                   message);
    return base::Error(message);
  }

  const kube::ObjectReference& ref = content.spec.volume_snapshot_ref;
  if (ref.uid.empty()) return ContentSyncOutcome::kDone;

  if (content.metadata.deletion_timestamp.empty() &&
      !kube::HasFinalizer(content.metadata, snapshot::kContentFinalizer)) {
    if (auto added = AddContentFinalizer(api_, content); !added.ok()) return added.error();
  }

  auto snapshot = caches_.snapshots.Get(ref.namespace_, ref.name);
  // Another snapshot under the same name: the content's own is gone.
  if (!snapshot || snapshot->metadata.uid != ref.uid) return ContentSyncOutcome::kDone;

  if (IsDeletionCandidate(*snapshot)) {
    if (auto marked = MarkContentBeingDeleted(api_, content); !marked.ok()) return marked.error();
  }
  return SnapshotStatusLagsContent(*snapshot, content) ? ContentSyncOutcome::kSyncSnapshot
                                                       : ContentSyncOutcome::kDone;
}

}  // namespace snapshot_controller
