// ContentSyncOf<Content>: the sync both CSI content handlers share
// (CsiContentHandler, docs/snapshots.md §3.4; CsiGroupContentHandler, §3.8),
// with each kind's names and upstream's words for it. SyncContent takes the
// first branch that applies - deletion (ShouldDelete), a first create
// (NeedsFirstCreate), a ready content (FinishReady) - and hands any other
// content to the kind (SyncUnready: a check of an imported snapshot, a
// readiness poll, a retry). A handler derives from it and supplies that and
// the two driver calls (TakeSnapshot, DeleteOnBackend); the steps do the
// rest:
//   - Delete: the backend snapshot when it goes with the content
//     (DeletesBackendSnapshot: credentials from the deletion-secret
//     annotations, DeleteOnBackend, the status cleared when other
//     finalizers keep the content - each failure a Warning of the kind's
//     delete reason), then the finalizer;
//   - Create: TakeSnapshot; on failure the message is saved (SaveError) and
//     deletion decided again - a final answer removed the annotation that
//     held it back (§9.1) - and a create abandoned by its snapshot's
//     deletion is not retried (§9.6);
//   - CreateUnderAnnotation: the being-created protection around one create
//     call (§3.4 create steps 3, 7, 8): the annotation is added unless the
//     status already names the backend snapshot (a readiness poll needs no
//     guard, §9.4), removed after a final error, and removed once the
//     answer is in the status;
//   - FinishReady and Settle: what follows a ready content or an answer.
// Both kinds are instantiated in content_sync.cpp.
//
// Thread-safe if `api` and `events` are; the derived handler's driver too.
#pragma once

#include <functional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_content.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "snapshotter/content_events.h"
#include "snapshotter/content_handler.h"
#include "snapshotter/content_writer.h"
#include "snapshotter/snapshot_api.h"
#include "snapshotter/snapshot_driver.h"

namespace snapshotter {

// A create on a content without status, or anything later: a readiness
// poll, a retry, a check of an imported snapshot. They differ in the Warning
// Event and the message prefix (§3.4 "Error status").
enum class Attempt { kFirst, kLater };

template <class Content>
class ContentSyncOf : public ContentHandlerOf<Content> {
 public:
  base::Result<SyncOutcome> SyncContent(const Content& content) final;

 protected:
  using Writer = ContentWriterOf<Content>;
  using Status = typename Writer::Status;

  // All three must outlive the handler.
  ContentSyncOf(SnapshotApi& api, ContentEventsOf<Content>& events, base::Clock& clock)
      : api_(api), events_(events), clock_(clock) {}

  // A content that is neither to be deleted, nor new, nor ready.
  virtual base::Result<SyncOutcome> SyncUnready(Writer& writer) = 0;
  // The driver's create, under CreateUnderAnnotation, with its status.
  virtual base::Status TakeSnapshot(Writer& writer) = 0;
  // The driver's delete of the content's backend snapshot; errors in
  // upstream's words.
  virtual base::Status DeleteOnBackend(const Content& content, const Secrets& secrets) = 0;

  base::Result<SyncOutcome> Delete(Writer& writer);
  base::Result<SyncOutcome> Create(Writer& writer, Attempt attempt);
  base::Result<SyncOutcome> FinishReady(Writer& writer);
  // After the driver answered: delete if the content should go now (§9.1),
  // else poll while not ready (§9.2).
  base::Result<SyncOutcome> Settle(Writer& writer);

  // One create call: its error (gRPC code kept, for csi::IsFinalError, and
  // message in upstream's words), or the status its answer gives.
  using DriverCreate = std::function<base::Result<typename Writer::StatusChange>()>;
  base::Status CreateUnderAnnotation(Writer& writer, const DriverCreate& create);

  // "Failed to create snapshot: " or "Failed to check and update snapshot
  // content: " (with "group snapshot" for a group), then `error`.
  std::string FailureMessage(Attempt attempt, const base::Error& error) const;
  // Saves `message` in status.error with readyToUse false, unless the same
  // message is there, and reports it as the Warning Event of `attempt`, even
  // when the write fails (that failure is only logged: the caller returns
  // the original error).
  void SaveError(Writer& writer, Attempt attempt, const std::string& message);

  // `error` with the message "<context>: <quoted message>", domain and code
  // kept.
  static base::Error Quoted(const base::Error& error, const std::string& context);

  SnapshotApi& api_;
  ContentEventsOf<Content>& events_;
  base::Clock& clock_;

 private:
  base::Status DeleteBackendSnapshot(Writer& writer);
};

extern template class ContentSyncOf<kube::VolumeSnapshotContent>;
extern template class ContentSyncOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
