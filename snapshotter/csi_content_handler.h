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
// ever reach the driver, never a log line.
//
// Thread-safe if `api`, `driver` and `events` are: many workers sync at once.
#pragma once

#include <string>

#include "base/clock.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/runtime/store.h"
#include "snapshotter/content_events.h"
#include "snapshotter/content_handler.h"
#include "snapshotter/content_writer.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

struct CsiContentHandlerOptions {
  std::string snapshot_name_prefix = "snapshot";  // --snapshot-name-prefix
  int snapshot_name_uuid_length = -1;             // --snapshot-name-uuid-length
  bool extra_create_metadata = false;             // --extra-create-metadata
};

class CsiContentHandler final : public ContentHandler {
 public:
  CsiContentHandler(std::string driver_name, const kube::Store<kube::VolumeSnapshotClass>& classes,
                    SnapshotApi& api, SnapshotDriver& driver, ContentEvents& events,
                    CsiContentHandlerOptions options, base::Clock& clock);

  base::Result<SyncOutcome> SyncContent(const kube::VolumeSnapshotContent& content) override;

 private:
  // A create on a content without status, or a later one (readiness poll or
  // retry): they differ in the Warning Event and the message prefix (§3.4
  // "Error status").
  enum class Attempt { kFirst, kLater };

  // §3.4 step 1: DeleteSnapshot when the backend snapshot goes with the
  // content, then the finalizer.
  base::Result<SyncOutcome> Delete(ContentWriter& writer);
  base::Status DeleteBackendSnapshot(ContentWriter& writer);

  base::Result<SyncOutcome> Create(ContentWriter& writer, Attempt attempt);
  // upstream's createSnapshotWrapper: checks, annotation, CreateSnapshot,
  // status, annotation.
  base::Status TakeSnapshot(ContentWriter& writer);
  // Everything a create needs that the driver is not asked for.
  base::Result<CreateSnapshotRequest> PrepareCreate(const kube::VolumeSnapshotContent& content);

  // §3.6: readiness of a pre-provisioned content or a group member.
  base::Result<SyncOutcome> CheckThroughList(ContentWriter& writer);
  base::Status ListAndSaveStatus(ContentWriter& writer);
  base::Result<Secrets> ListSecrets(const kube::VolumeSnapshotContent& content);

  // After the driver answered: delete if the content should go now (§9.1),
  // else poll while not ready (§9.2).
  base::Result<SyncOutcome> Settle(ContentWriter& writer);

  // The data of the Secret the deletion-secret annotations name (§3.4 create step 2).
  base::Result<Secrets> DeletionSecrets(const kube::VolumeSnapshotContent& content);
  // Saves `message` in status.error, unless it is there already, and
  // reports it as the Warning Event of `attempt`; a failed write is only
  // logged, the caller returns the original error.
  void SaveError(ContentWriter& writer, Attempt attempt, const std::string& message);
  int64_t NowUnixNanos() const;

  const std::string driver_name_;
  const kube::Store<kube::VolumeSnapshotClass>& classes_;
  SnapshotApi& api_;
  SnapshotDriver& driver_;
  ContentEvents& events_;
  const CsiContentHandlerOptions options_;
  base::Clock& clock_;
};

}  // namespace snapshotter
