// GroupSnapshotSync: the sync of a VolumeGroupSnapshot that is not being
// deleted (docs/snapshots.md §4.7), upstream's syncGroupSnapshot in one pass:
//   0. the class: a named one must exist (GetGroupSnapshotClassFailed); a
//      dynamic group snapshot without one gets the default group class of
//      its claims' CSI driver (SetDefaultGroupSnapshotClassFailed);
//   1. exactly one source (GroupSnapshotValidationError);
//   2. the volumegroupsnapshot-bound-protection finalizer once it is bound
//      to a group content that names it back (GroupSnapshotFinalizerError);
//   3. ready and bound: its content must exist and name it back
//      (GroupSnapshotContentMissing, GroupSnapshotMisbound);
//   4. otherwise, pre-provisioned: the named group content is bound (its
//      ref's UID and class set) and its status copied; dynamic: the content
//      groupsnapcontent-<UID> is made (GroupContentCreator) or, once it
//      exists and the sidecar has reported the group, its members are made
//      (GroupMembers), then its status is copied (GroupStatusFromContent),
//      with the Normal Events GroupSnapshotCreated and GroupSnapshotReady.
// Errors are saved in the status and reported with upstream's reasons and
// messages (ReportStatusError), then returned so the group snapshot is
// retried with backoff. The CreateGroupSnapshot(AndReady) operations start
// while it is unready and end as its status turns created and ready (§4.6).
//
// Thread-safe: many workers sync different group snapshots at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "snapshot_controller/caches.h"
#include "snapshot_controller/controller_api.h"
#include "snapshot_controller/controller_events.h"
#include "snapshot_controller/group_content_creator.h"
#include "snapshot_controller/group_members.h"
#include "snapshot_controller/group_snapshot_writer.h"
#include "snapshot_controller/operation_metrics.h"

namespace snapshot_controller {

class GroupSnapshotSync {
 public:
  // `caches.groups` must be set. Everything passed must outlive the sync.
  GroupSnapshotSync(ControllerApi& api, const Caches& caches, ControllerEvents& events,
                    OperationMetrics& metrics, GroupMembers& members, base::Clock& clock)
      : api_(api),
        caches_(caches),
        groups_(*caches.groups),
        events_(events),
        metrics_(metrics),
        members_(members),
        creator_(api, caches, events),
        clock_(clock) {}

  base::Status Sync(const kube::VolumeGroupSnapshot& group);

 private:
  using ContentPtr = std::shared_ptr<const kube::VolumeGroupSnapshotContent>;

  base::Status EnsureClass(GroupSnapshotWriter& writer);
  base::Status AddFinalizer(GroupSnapshotWriter& writer);
  base::Status SyncReady(GroupSnapshotWriter& writer);
  base::Status SyncUnready(GroupSnapshotWriter& writer);
  base::Status SyncPreProvisioned(GroupSnapshotWriter& writer);
  base::Status SyncDynamic(GroupSnapshotWriter& writer);

  // The content the group snapshot names or would have, from the cache:
  // nullptr when the cache lacks it; an error (reported) when it is of the
  // wrong kind or bound to another group snapshot.
  base::Result<ContentPtr> PreProvisionedContent(GroupSnapshotWriter& writer);
  base::Result<ContentPtr> DynamicContent(GroupSnapshotWriter& writer);
  // Sets the UID (and the class) of a pre-provisioned content's reference.
  base::Result<kube::VolumeGroupSnapshotContent> Bind(
      const kube::VolumeGroupSnapshot& group, const kube::VolumeGroupSnapshotContent& content);
  // Copies the content's status; its Normal Events and metrics follow the write.
  base::Status CopyStatus(GroupSnapshotWriter& writer,
                          const kube::VolumeGroupSnapshotContent& content);
  base::Status ReportError(GroupSnapshotWriter& writer, bool set_not_ready, std::string_view reason,
                           const std::string& message);

  ControllerApi& api_;
  const Caches& caches_;
  const GroupCaches& groups_;
  ControllerEvents& events_;
  OperationMetrics& metrics_;
  GroupMembers& members_;
  GroupContentCreator creator_;
  base::Clock& clock_;
};

}  // namespace snapshot_controller
