#include "snapshot_controller/group_content_sync.h"

#include <string>

#include "kube/api/core/v1/event.h"
#include "snapshot_controller/content_patches.h"
#include "snapshot_controller/group_status.h"

namespace snapshot_controller {

base::Result<ContentSyncOutcome> GroupContentSync::Sync(
    const kube::VolumeGroupSnapshotContent& content) {
  const auto& source = content.spec.source;
  if (source.group_snapshot_handles.has_value() == !source.volume_handles.empty()) {
    const std::string message =
        "Exactly one of GroupSnapshotHandles and VolumeHandles should be specified";
    events_.Record(kube::ReferenceTo(content), kube::kEventTypeWarning,
                   "GroupContentValidationError", message);
    return base::Error(message);
  }

  const kube::ObjectReference& ref = content.spec.volume_group_snapshot_ref;
  if (ref.uid.empty()) return ContentSyncOutcome::kDone;

  if (content.metadata.deletion_timestamp.empty()) {
    if (auto added = AddContentFinalizer(api_, content); !added.ok()) return added.error();
  }

  auto group = groups_.group_snapshots.Get(ref.namespace_, ref.name);
  // Another group snapshot under the same name: the content's own is gone.
  if (!group || group->metadata.uid != ref.uid) return ContentSyncOutcome::kDone;
  return GroupStatusLagsContent(*group, content) ? ContentSyncOutcome::kSyncSnapshot
                                                 : ContentSyncOutcome::kDone;
}

}  // namespace snapshot_controller
