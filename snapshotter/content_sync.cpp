#include "snapshotter/content_sync.h"

#include <algorithm>
#include <string_view>

#include "base/log.h"
#include "base/strconv.h"
#include "csi/final_error.h"
#include "kube/api/meta_time.h"
#include "snapshot/content_lane.h"
#include "snapshot/names.h"
#include "snapshotter/content_state.h"
#include "snapshotter/content_status.h"
#include "snapshotter/credentials.h"
#include "snapshotter/kind_words.h"

namespace snapshotter {
namespace {

// Each kind's names, and upstream's words in the errors and Events of the
// shared steps.
constexpr KindWords kBeingCreated = {snapshot::kBeingCreatedAnnotation,
                                     snapshot::kGroupBeingCreatedAnnotation};
constexpr KindWords kFinalizer = {snapshot::kContentFinalizer, snapshot::kGroupContentFinalizer};
constexpr KindWords kCreateFailed = {"Failed to create snapshot: ",
                                     "Failed to create group snapshot: "};
constexpr KindWords kCheckFailed = {"Failed to check and update snapshot content: ",
                                    "Failed to check and update group snapshot content: "};
constexpr KindWords kDeleteInputFailed = {
    "failed to get input parameters to delete snapshot for content ",
    "failed to get input parameters to delete group snapshot for group snapshot content "};
constexpr KindWords kDeleteFailedEvent = {kFailedToDeleteMessage, kFailedToDeleteGroupMessage};
constexpr KindWords kAddAnnotationFailed = {
    "failed to add VolumeSnapshotBeingCreated annotation on the content ",
    "failed to add VolumeGroupSnapshotBeingCreated annotation on the group snapshot content "};
constexpr KindWords kRemoveAnnotationAfterErrorFailed = {
    "failed to remove VolumeSnapshotBeingCreated annotation from the content ",
    "failed to remove VolumeGroupSnapshotBeingCreated annotation from the group snapshot "
    "content "};
constexpr KindWords kStatusFailed = {"error updating status for volume snapshot content ",
                                     "error updating status for volume group snapshot content "};
constexpr KindWords kRemoveAnnotationFailed = {
    "failed to remove VolumeSnapshotBeingCreated annotation on the content ",
    "failed to remove VolumeGroupSnapshotBeingCreated annotation on the groupSnapshotContent "};

// Whether a finalizer other than `own` keeps the object once `own` goes (no
// finalizer can be added to an object being deleted, so a cached copy never
// shows fewer than the API server has).
bool HeldByOtherFinalizers(const kube::ObjectMeta& meta, std::string_view own) {
  return std::ranges::any_of(meta.finalizers,
                             [&](const std::string& finalizer) { return finalizer != own; });
}

std::string Concat(std::string_view words, const std::string& name, std::string_view rest) {
  return std::string(words) + name + ": " + std::string(rest);
}

}  // namespace

template <class Content>
base::Result<SyncOutcome> ContentSyncOf<Content>::SyncContent(const Content& content) {
  LOG_V(5, "Synchronizing content").With(Content::kFacts.kind, content.metadata.name);
  Writer writer(api_, content);
  if (ShouldDelete(content)) return Delete(writer);
  if (NeedsFirstCreate(content)) return Create(writer, Attempt::kFirst);
  if (snapshot::IsReady(content)) return FinishReady(writer);
  return SyncUnready(writer);
}

template <class Content>
base::Result<SyncOutcome> ContentSyncOf<Content>::Delete(Writer& writer) {
  LOG_V(4, "Deleting content")
      .With(Content::kFacts.kind, writer.content().metadata.name)
      .With("deletionPolicy", std::string_view(writer.content().spec.deletion_policy));
  if (DeletesBackendSnapshot(writer.content())) {
    if (auto deleted = DeleteBackendSnapshot(writer); !deleted.ok()) return deleted.error();
  }
  if (auto removed = writer.RemoveFinalizer(WordsFor<Content>(kFinalizer)); !removed.ok()) {
    return removed.error();
  }
  return SyncOutcome::kDone;
}

// The status is cleared before the finalizer goes only when other finalizers
// keep the content after ours: a failure in between then leaves a content
// whose next sync only removes the finalizer, and the content that stays
// names no deleted snapshot. When ours is the last finalizer, its removal
// deletes the content and the clear would be a write nobody reads
// (docs/snapshots.md §9.4); should that removal fail, the next sync sends
// DeleteSnapshot again, which the driver answers OK for a snapshot that is
// gone (CSI: DeleteSnapshot is idempotent).
template <class Content>
base::Status ContentSyncOf<Content>::DeleteBackendSnapshot(Writer& writer) {
  const Content content = writer.content();
  auto secrets = DeletionCredentials(api_, content);
  if (!secrets.ok()) {
    events_.DeleteFailed(content, kFailedToGetCredentialsMessage);
    return base::Error(Concat(WordsFor<Content>(kDeleteInputFailed), content.metadata.name,
                              base::GoQuote(secrets.error().message)));
  }
  if (auto deleted = DeleteOnBackend(content, *secrets); !deleted.ok()) {
    events_.DeleteFailed(content, WordsFor<Content>(kDeleteFailedEvent));
    return deleted;
  }
  if (!HeldByOtherFinalizers(content.metadata, WordsFor<Content>(kFinalizer))) {
    return base::Status::Ok();
  }
  auto cleared =
      writer.WriteStatus([](const Status& status) { return StatusWithoutSnapshot(status); });
  if (!cleared.ok()) {
    events_.DeleteFailed(content, kFailedToClearStatusMessage);
    return cleared;
  }
  return base::Status::Ok();
}

template <class Content>
base::Result<SyncOutcome> ContentSyncOf<Content>::Create(Writer& writer, Attempt attempt) {
  base::Status created = TakeSnapshot(writer);
  if (created.ok()) return Settle(writer);
  SaveError(writer, attempt, FailureMessage(attempt, created.error()));
  if (ShouldDelete(writer.content())) return Delete(writer);
  if (IsCreateAbandoned(writer.content())) return SyncOutcome::kDone;
  return created.error();
}

template <class Content>
base::Result<SyncOutcome> ContentSyncOf<Content>::FinishReady(Writer& writer) {
  // Left over when its removal after the create failed (§3.4 step 3).
  if (auto removed = writer.RemoveAnnotation(WordsFor<Content>(kBeingCreated)); !removed.ok()) {
    return removed.error();
  }
  return Settle(writer);
}

template <class Content>
base::Result<SyncOutcome> ContentSyncOf<Content>::Settle(Writer& writer) {
  if (ShouldDelete(writer.content())) return Delete(writer);
  return snapshot::IsReady(writer.content()) ? SyncOutcome::kDone : SyncOutcome::kPollReadiness;
}

template <class Content>
base::Status ContentSyncOf<Content>::CreateUnderAnnotation(Writer& writer,
                                                           const DriverCreate& create) {
  const std::string name = writer.content().metadata.name;
  const std::string_view being_created = WordsFor<Content>(kBeingCreated);
  // Until a final answer a backend snapshot may exist that no status names:
  // the annotation keeps the content from being deleted.
  if (!NamesBackendSnapshot(writer.content())) {
    if (auto marked = writer.AddAnnotation(being_created, "yes"); !marked.ok()) {
      return base::Error(Concat(WordsFor<Content>(kAddAnnotationFailed), name,
                                base::GoQuote(marked.error().message)));
    }
  }
  auto status_change = create();
  if (!status_change.ok()) {
    if (csi::IsFinalError(status_change.error())) {
      if (auto removed = writer.RemoveAnnotation(being_created); !removed.ok()) {
        return base::Error(Concat(WordsFor<Content>(kRemoveAnnotationAfterErrorFailed), name,
                                  removed.error().message));
      }
    }
    return status_change.error();
  }
  if (auto saved = writer.WriteStatus(*status_change); !saved.ok()) {
    return base::Error(Concat(WordsFor<Content>(kStatusFailed), name, saved.error().message));
  }
  // The status names the snapshot now, so the annotation may go.
  if (auto removed = writer.RemoveAnnotation(being_created); !removed.ok()) {
    return base::Error(Concat(WordsFor<Content>(kRemoveAnnotationFailed), name,
                              base::GoQuote(removed.error().message)));
  }
  return base::Status::Ok();
}

template <class Content>
std::string ContentSyncOf<Content>::FailureMessage(Attempt attempt,
                                                   const base::Error& error) const {
  std::string_view prefix =
      WordsFor<Content>(attempt == Attempt::kFirst ? kCreateFailed : kCheckFailed);
  return std::string(prefix) + error.message;
}

template <class Content>
void ContentSyncOf<Content>::SaveError(Writer& writer, Attempt attempt,
                                       const std::string& message) {
  const std::string name = writer.content().metadata.name;
  const Status& current = writer.content().status;
  if (current && current->error && current->error->message == message) {
    LOG_V(4, "The same error is already set").With(Content::kFacts.kind, name);
    return;
  }
  const std::string time = kube::FormatMetaTime(clock_.WallNow());
  auto saved = writer.WriteStatus(
      [&](const Status& status) { return StatusWithError(status, message, time); });
  if (!saved.ok()) {
    LOG_V(4, "Failed to save error in content status")
        .With(Content::kFacts.kind, name)
        .With("err", saved.error().message);
  }
  if (attempt == Attempt::kFirst) {
    events_.CreationFailed(writer.content(), message);
  } else {
    events_.CheckAndUpdateFailed(writer.content(), message);
  }
}

template <class Content>
base::Error ContentSyncOf<Content>::Quoted(const base::Error& error, const std::string& context) {
  base::Error quoted = error;
  quoted.message = context + ": " + base::GoQuote(error.message);
  return quoted;
}

template class ContentSyncOf<kube::VolumeSnapshotContent>;
template class ContentSyncOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
