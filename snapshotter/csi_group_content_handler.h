// CsiGroupContentHandler: the GroupContentHandler that creates, checks and
// deletes a VolumeGroupSnapshotContent's group snapshot with the driver's
// GroupController calls, as upstream's syncGroupSnapshotContent does
// (docs/snapshots.md §3.8), in the order of a single content's sync:
//   1. deletion (a deletionTimestamp, then: unbound pre-provisioned → yes;
//      group being-created annotation → no; group being-deleted annotation
//      → yes): with policy Delete and a status handle,
//      DeleteVolumeGroupSnapshot with the members' snapshot IDs (the info
//      list's, else the pre-provisioned source's) and the credentials of the
//      group deletion-secret annotations, then the status cleared when
//      other finalizers keep the content (§9.4); then the finalizer goes.
//      Failures: Warning GroupSnapshotDeleteError;
//   2. a dynamic content without status: CreateVolumeGroupSnapshot
//      (name <--groupsnapshot-name-prefix>-<VolumeGroupSnapshot UID>, the
//      volume handles, the class parameters, the same credentials) under the
//      being-created annotation, then the status with one info entry per
//      member; failures: GroupSnapshotCreationFailed;
//   3. ready: a leftover being-created annotation goes; nothing else;
//   4. otherwise a pre-provisioned content is checked with
//      GetVolumeGroupSnapshot (credentials from the class's
//      group-snapshotter-get-secret-*), a dynamic one created again, which
//      polls its readiness as upstream does; failures:
//      GroupSnapshotContentCheckandUpdateFailed.
// The differences of single contents apply here as well: deletion is decided
// again after every create answer (§9.1); an unready group is kPollReadiness
// (§9.2); writes go through GroupContentWriter (§9.4), and a readiness poll
// of a group the status already names sets no annotation; every check that
// needs no driver runs before the annotation is added. Besides, the info
// list follows every answer and no member goes back to unready (§9.11).
//
// Thread-safe if `api`, `driver` and `events` are: many workers sync at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/clock.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/runtime/store.h"
#include "snapshotter/content_events.h"
#include "snapshotter/content_sync.h"
#include "snapshotter/content_writer.h"
#include "snapshotter/group_snapshot_driver.h"
#include "snapshotter/snapshot_api.h"

namespace snapshotter {

struct CsiGroupContentHandlerOptions {
  std::string group_snapshot_name_prefix = "groupsnapshot";  // --groupsnapshot-name-prefix
  int group_snapshot_name_uuid_length = -1;                  // --groupsnapshot-name-uuid-length
  bool extra_create_metadata = false;                        // --extra-create-metadata
};

class CsiGroupContentHandler final : public ContentSyncOf<kube::VolumeGroupSnapshotContent> {
 public:
  CsiGroupContentHandler(const kube::Store<kube::VolumeGroupSnapshotClass>& classes,
                         SnapshotApi& api, GroupSnapshotDriver& driver, GroupContentEvents& events,
                         CsiGroupContentHandlerOptions options, base::Clock& clock);

 private:
  // Step 4: GetVolumeGroupSnapshot for an imported group, else
  // CreateVolumeGroupSnapshot again, unless abandoned (§9.6).
  base::Result<SyncOutcome> SyncUnready(GroupContentWriter& writer) override;
  // upstream's createGroupSnapshotWrapper: checks, then
  // CreateVolumeGroupSnapshot under the being-created annotation.
  base::Status TakeSnapshot(GroupContentWriter& writer) override;
  // DeleteVolumeGroupSnapshot of status.volumeGroupSnapshotHandle.
  base::Status DeleteOnBackend(const kube::VolumeGroupSnapshotContent& content,
                               const Secrets& secrets) override;
  // Everything a create needs that the driver is not asked for.
  base::Result<CreateGroupSnapshotRequest> PrepareCreate(
      const kube::VolumeGroupSnapshotContent& content);

  // A pre-provisioned group: GetVolumeGroupSnapshot and its status.
  base::Result<SyncOutcome> CheckPreProvisioned(GroupContentWriter& writer);
  base::Status GetAndSaveStatus(GroupContentWriter& writer);

  // metav1.Time of the driver's time, or of now when it has none.
  std::string CreationTime(const std::optional<int64_t>& unix_nanos) const;

  const kube::Store<kube::VolumeGroupSnapshotClass>& classes_;
  GroupSnapshotDriver& driver_;
  const CsiGroupContentHandlerOptions options_;
};

}  // namespace snapshotter
