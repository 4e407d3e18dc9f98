// CsiContentHandler: the ContentHandler that creates, checks and deletes a
// content's snapshot with the driver's CSI calls, as upstream's syncContent
// does (docs/snapshots.md §3.4-§3.6), with these differences:
//   - deletion is decided again after every CreateSnapshot answer, in the
//     same sync: a content deleted while its create kept timing out is
//     deleted as soon as the driver returns a handle (§9.1);
//   - a snapshot that exists and is not ready is kPollReadiness, never
//     kDone and never an error (§9.2);
//   - writes go through ContentWriter: no GET before a write, status as one
//     guarded merge patch, annotations and finalizer as guarded JSON Patches;
//     a readiness poll of a snapshot the status already names sets no
//     being-created annotation, so an unchanged poll writes nothing (§9.4);
//   - a create that failed with nothing left in flight is not tried again
//     once the VolumeSnapshot is being deleted (§9.6);
//   - every check that needs no driver (class, secrets, parameters, binding,
//     volume handle) runs before the being-created annotation is added, so
//     an input error never leaves the annotation behind to block deletion.
// Classes come from the cache, Secrets from direct reads; Secret data only
// ever reach the driver, never a log line. The steps it shares with the group
// handler (deletion, the create under its annotation, the error status) are
// ContentSyncOf's (content_sync.h).
//
// Thread-safe if `api`, `driver` and `events` are: many workers sync at once.
#pragma once

#include <string>

#include "base/clock.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/runtime/store.h"
#include "snapshotter/content_events.h"
#include "snapshotter/content_status.h"
#include "snapshotter/content_sync.h"
#include "snapshotter/content_writer.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

struct CsiContentHandlerOptions {
  std::string snapshot_name_prefix = "snapshot";  // --snapshot-name-prefix
  int snapshot_name_uuid_length = -1;             // --snapshot-name-uuid-length
  bool extra_create_metadata = false;             // --extra-create-metadata
};

class CsiContentHandler final : public ContentSyncOf<kube::VolumeSnapshotContent> {
 public:
  CsiContentHandler(const kube::Store<kube::VolumeSnapshotClass>& classes, SnapshotApi& api,
                    SnapshotDriver& driver, ContentEvents& events, CsiContentHandlerOptions options,
                    base::Clock& clock);

 private:
  // §3.4 step 4: ListSnapshots for an imported content or a member, else
  // CreateSnapshot again (upstream's readiness poll), unless abandoned.
  base::Result<SyncOutcome> SyncUnready(ContentWriter& writer) override;
  // upstream's createSnapshotWrapper: checks, then CreateSnapshot under the
  // being-created annotation.
  base::Status TakeSnapshot(ContentWriter& writer) override;
  // DeleteSnapshot of status.snapshotHandle.
  base::Status DeleteOnBackend(const kube::VolumeSnapshotContent& content,
                               const Secrets& secrets) override;
  // Everything a create needs that the driver is not asked for.
  base::Result<CreateSnapshotRequest> PrepareCreate(const kube::VolumeSnapshotContent& content);

  // §3.6: readiness of a pre-provisioned content or a group member.
  base::Result<SyncOutcome> CheckThroughList(ContentWriter& writer);
  base::Status ListAndSaveStatus(ContentWriter& writer);
  base::Result<Secrets> ListSecrets(const kube::VolumeSnapshotContent& content);

  int64_t NowUnixNanos() const;

  const kube::Store<kube::VolumeSnapshotClass>& classes_;
  SnapshotDriver& driver_;
  const CsiContentHandlerOptions options_;
};

}  // namespace snapshotter
