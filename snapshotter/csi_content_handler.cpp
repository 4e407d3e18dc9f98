#include "snapshotter/csi_content_handler.h"

#include <chrono>
#include <utility>

#include "base/log.h"
#include "base/strconv.h"
#include "kube/api/meta_time.h"
#include "snapshotter/content_state.h"
#include "snapshotter/content_status.h"
#include "snapshotter/create_parameters.h"
#include "snapshotter/names.h"
#include "snapshotter/secret_references.h"

namespace snapshotter {
namespace {

Secrets ToSecrets(const kube::StringMap& data) { return Secrets(data.begin(), data.end()); }

// The lister's NotFound, as upstream quotes it in its messages.
std::string ClassNotFound(const std::string& name) {
  return "volumesnapshotclass.snapshot.storage.k8s.io " + base::GoQuote(name) + " not found";
}

}  // namespace

CsiContentHandler::CsiContentHandler(std::string driver_name,
                                     const kube::Store<kube::VolumeSnapshotClass>& classes,
                                     SnapshotApi& api, SnapshotDriver& driver,
                                     ContentEvents& events, CsiContentHandlerOptions options,
                                     base::Clock& clock)
    : driver_name_(std::move(driver_name)),
      classes_(classes),
      api_(api),
      driver_(driver),
      events_(events),
      options_(std::move(options)),
      clock_(clock) {}

base::Result<SyncOutcome> CsiContentHandler::SyncContent(
    const kube::VolumeSnapshotContent& content) {
  LOG_V(5, "Synchronizing VolumeSnapshotContent")
      .With("VolumeSnapshotContent", content.metadata.name)
      .With("driver", driver_name_);
  ContentWriter writer(api_, content);
  if (ShouldDelete(content)) return Delete(writer);
  if (NeedsFirstCreate(content)) return Create(writer, Attempt::kFirst);
  if (IsReady(content)) {
    // Left over when its removal after the create failed (§3.4 step 3).
    if (auto removed = writer.RemoveAnnotation(kBeingCreatedAnnotation); !removed.ok()) {
      return removed.error();
    }
    return Settle(writer);
  }
  if (ChecksThroughList(content)) return CheckThroughList(writer);
  // Its group snapshot's handler writes the status; until then it is polled,
  // as upstream requeues it.
  if (IsGroupMember(content)) return SyncOutcome::kPollReadiness;
  if (IsCreateAbandoned(content)) {
    LOG_V(4, "Not creating the snapshot again: its VolumeSnapshot is being deleted")
        .With("VolumeSnapshotContent", content.metadata.name);
    return SyncOutcome::kDone;
  }
  return Create(writer, Attempt::kLater);
}

base::Result<SyncOutcome> CsiContentHandler::Delete(ContentWriter& writer) {
  LOG_V(4, "Deleting VolumeSnapshotContent")
      .With("VolumeSnapshotContent", writer.content().metadata.name)
      .With("deletionPolicy", writer.content().spec.deletion_policy);
  if (DeletesBackendSnapshot(writer.content())) {
    if (auto deleted = DeleteBackendSnapshot(writer); !deleted.ok()) return deleted.error();
  }
  if (auto removed = writer.RemoveFinalizer(kContentFinalizer); !removed.ok()) {
    return removed.error();
  }
  return SyncOutcome::kDone;
}

// The status is cleared before the finalizer goes: a failure in between
// leaves a content whose next sync only removes the finalizer.
base::Status CsiContentHandler::DeleteBackendSnapshot(ContentWriter& writer) {
  const kube::VolumeSnapshotContent content = writer.content();
  const std::string& name = content.metadata.name;
  auto secrets = DeletionSecrets(content);
  if (!secrets.ok()) {
    events_.DeleteFailed(content, kFailedToGetCredentialsMessage);
    return base::Error("failed to get input parameters to delete snapshot for content " + name +
                       ": " + base::GoQuote(secrets.error().message));
  }
  const std::string& handle = *content.status->snapshot_handle;
  if (auto deleted = driver_.DeleteSnapshot(handle, *secrets); !deleted.ok()) {
    events_.DeleteFailed(content, kFailedToDeleteMessage);
    return base::Error("failed to delete snapshot " + base::GoQuote(name) +
                       ", err: failed to delete snapshot content " + name + ": " +
                       base::GoQuote(deleted.error().message));
  }
  LOG_V(2, "Deleted snapshot").With("VolumeSnapshotContent", name).With("snapshotID", handle);
  if (auto cleared = writer.WriteStatus(StatusWithoutSnapshot); !cleared.ok()) {
    events_.DeleteFailed(content, kFailedToClearStatusMessage);
    return cleared;
  }
  return base::Status::Ok();
}

base::Result<SyncOutcome> CsiContentHandler::Create(ContentWriter& writer, Attempt attempt) {
  base::Status created = TakeSnapshot(writer);
  if (created.ok()) return Settle(writer);
  std::string prefix = attempt == Attempt::kFirst ? "Failed to create snapshot: "
                                                  : "Failed to check and update snapshot content: ";
  SaveError(writer, attempt, prefix + created.error().message);
  // A final answer removed the being-created annotation: the deletion it
  // held back may proceed now (§9.1).
  if (ShouldDelete(writer.content())) return Delete(writer);
  if (IsCreateAbandoned(writer.content())) return SyncOutcome::kDone;  // §9.6
  return created.error();
}

base::Status CsiContentHandler::TakeSnapshot(ContentWriter& writer) {
  const std::string name = writer.content().metadata.name;
  LOG_INFO("Creating snapshot through the driver").With("VolumeSnapshotContent", name);
  auto request = PrepareCreate(writer.content());
  if (!request.ok()) return request.error();

  // From here until a final answer a snapshot may exist on the backend that
  // no status names: the annotation keeps the content from being deleted. A
  // readiness poll of a snapshot the status names needs no such guard, which
  // saves two writes per poll (§9.4).
  const ContentStatus& known = writer.content().status;
  bool recorded = known && known->snapshot_handle;
  if (!recorded) {
    if (auto marked = writer.AddAnnotation(kBeingCreatedAnnotation, "yes"); !marked.ok()) {
      return base::Error("failed to add VolumeSnapshotBeingCreated annotation on the content " +
                         name + ": " + base::GoQuote(marked.error().message));
    }
  }
  auto snapshot = driver_.CreateSnapshot(*request);
  if (!snapshot.ok()) {
    if (IsFinalCreateError(snapshot.error())) {
      if (auto removed = writer.RemoveAnnotation(kBeingCreatedAnnotation); !removed.ok()) {
        return base::Error(
            "failed to remove VolumeSnapshotBeingCreated annotation from the content " + name +
            ": " + removed.error().message);
      }
    }
    return base::Error("failed to take snapshot of the volume " + request->source_volume_id + ": " +
                       base::GoQuote(snapshot.error().message));
  }

  SnapshotFacts facts{.snapshot_handle = snapshot->snapshot_id,
                      .ready_to_use = snapshot->ready_to_use,
                      .creation_time = snapshot->creation_time.value_or(NowUnixNanos()),
                      .restore_size = snapshot->size_bytes};
  auto saved = writer.WriteStatus(
      [&](const ContentStatus& status) { return StatusWithSnapshot(status, facts); });
  if (!saved.ok()) {
    return base::Error("error updating status for volume snapshot content " + name + ": " +
                       saved.error().message);
  }
  // The status names the snapshot now, so the annotation may go.
  if (auto removed = writer.RemoveAnnotation(kBeingCreatedAnnotation); !removed.ok()) {
    return base::Error("failed to remove VolumeSnapshotBeingCreated annotation on the content " +
                       name + ": " + base::GoQuote(removed.error().message));
  }
  LOG_V(2, "Created snapshot")
      .With("VolumeSnapshotContent", name)
      .With("snapshotID", facts.snapshot_handle)
      .With("readyToUse", facts.ready_to_use);
  return base::Status::Ok();
}

base::Result<CreateSnapshotRequest> CsiContentHandler::PrepareCreate(
    const kube::VolumeSnapshotContent& content) {
  const std::string& name = content.metadata.name;
  const std::optional<std::string>& volume_handle = content.spec.source.volume_handle;
  auto input_error = [&](const std::string& message) {
    return base::Error("failed to get input parameters to create snapshot for content " + name +
                       ": " + base::GoQuote(message));
  };
  kube::StringMap class_parameters;
  if (const auto& class_name = content.spec.volume_snapshot_class_name) {
    auto snapshot_class = classes_.Get("", *class_name);
    if (!snapshot_class) return input_error(ClassNotFound(*class_name));
    class_parameters = snapshot_class->parameters;
  } else if (volume_handle) {
    return input_error("failed to take snapshot " + name + " without a snapshot class");
  }
  auto secrets = DeletionSecrets(content);
  if (!secrets.ok()) return input_error(secrets.error().message);
  auto parameters = CreateParameters(class_parameters, content, options_.extra_create_metadata);
  if (!parameters.ok()) return parameters.error();
  // Upstream dereferences the missing handle and panics.
  if (!volume_handle) {
    return base::Error("cannot create snapshot. Volume handle not found in snapshot content " +
                       name);
  }
  const std::string& uid = content.spec.volume_snapshot_ref.uid;
  if (uid.empty()) {
    return base::Error("failed to take snapshot of the volume " + *volume_handle + ": " +
                       base::GoQuote("cannot create snapshot. Snapshot content " + name +
                                     " not bound to a snapshot"));
  }
  return CreateSnapshotRequest{
      .name = SnapshotName(options_.snapshot_name_prefix, uid, options_.snapshot_name_uuid_length),
      .source_volume_id = *volume_handle,
      .parameters = std::move(*parameters),
      .secrets = std::move(*secrets)};
}

base::Result<SyncOutcome> CsiContentHandler::CheckThroughList(ContentWriter& writer) {
  if (auto checked = ListAndSaveStatus(writer); !checked.ok()) {
    SaveError(writer, Attempt::kLater,
              "Failed to check and update snapshot content: " + checked.error().message);
    return checked.error();
  }
  return IsReady(writer.content()) ? SyncOutcome::kDone : SyncOutcome::kPollReadiness;
}

base::Status CsiContentHandler::ListAndSaveStatus(ContentWriter& writer) {
  const kube::VolumeSnapshotContent content = writer.content();
  auto secrets = ListSecrets(content);
  if (!secrets.ok()) return secrets.error();
  // Upstream asks the driver about the handle the status has, and records
  // the one the spec has; they differ only for group members.
  const std::optional<std::string>& spec_handle = content.spec.source.snapshot_handle;
  const std::optional<std::string> status_handle =
      content.status ? content.status->snapshot_handle : std::nullopt;
  const std::string& listed_id = status_handle ? *status_handle : *spec_handle;
  auto listed = driver_.ListSnapshot(listed_id, *secrets);
  if (!listed.ok()) {
    return base::Error("failed to list snapshot for content " + content.metadata.name + ": " +
                       base::GoQuote(listed.error().message));
  }
  // Without LIST_SNAPSHOTS the handle is taken as valid and ready.
  DriverSnapshot reported = listed->value_or(DriverSnapshot{.ready_to_use = true});
  SnapshotFacts facts{.snapshot_handle = spec_handle ? *spec_handle : *status_handle,
                      .ready_to_use = reported.ready_to_use,
                      .creation_time = listed->has_value()
                                           ? reported.creation_time.value_or(NowUnixNanos())
                                           : NowUnixNanos(),
                      .restore_size = reported.size_bytes,
                      .group_snapshot_handle = reported.group_snapshot_id};
  return writer.WriteStatus(
      [&](const ContentStatus& status) { return StatusWithSnapshot(status, facts); });
}

base::Result<Secrets> CsiContentHandler::ListSecrets(const kube::VolumeSnapshotContent& content) {
  const std::string& name = content.metadata.name;
  Secrets secrets;
  if (const auto& class_name = content.spec.volume_snapshot_class_name) {
    auto snapshot_class = classes_.Get("", *class_name);
    if (!snapshot_class) {
      return base::Error("failed to get snapshot class " + *class_name + " for snapshot content " +
                         name + ": " + ClassNotFound(*class_name));
    }
    auto ref = ListSecretOf(snapshot_class->parameters, name);
    if (!ref.ok()) {
      return ref.error().Wrap("failed to get secret reference for snapshot content " + name);
    }
    if (*ref) {
      auto secret = api_.GetSecret((*ref)->namespace_, (*ref)->name);
      if (!secret.ok()) {
        return secret.error()
            .Wrap("error getting secret " + (*ref)->name + " in namespace " + (*ref)->namespace_)
            .Wrap("failed to get credentials for snapshot content " + name);
      }
      secrets = ToSecrets(secret->data);
    }
  }
  // Group members have no class; their credentials are in the annotations.
  if (content.status && content.status->volume_group_snapshot_handle) {
    auto annotated = DeletionSecrets(content);
    if (!annotated.ok()) {
      return annotated.error().Wrap(
          "failed to get credentials from annotation for snapshot content " + name);
    }
    secrets = std::move(*annotated);
  }
  return secrets;
}

base::Result<SyncOutcome> CsiContentHandler::Settle(ContentWriter& writer) {
  if (ShouldDelete(writer.content())) return Delete(writer);
  return IsReady(writer.content()) ? SyncOutcome::kDone : SyncOutcome::kPollReadiness;
}

base::Result<Secrets> CsiContentHandler::DeletionSecrets(
    const kube::VolumeSnapshotContent& content) {
  auto ref = DeletionSecretOf(content);
  if (!ref.ok()) return ref.error();
  if (!*ref) return Secrets();
  auto secret = api_.GetSecret((*ref)->namespace_, (*ref)->name);
  if (!secret.ok()) {
    // The reason is logged, not returned, as upstream does.
    LOG_ERROR("Failed to get credentials")
        .With("VolumeSnapshotContent", content.metadata.name)
        .With("secret", (*ref)->namespace_ + "/" + (*ref)->name)
        .With("err", secret.error().message);
    return base::Error("cannot get credentials for snapshot content " +
                       base::GoQuote(content.metadata.name));
  }
  return ToSecrets(secret->data);
}

void CsiContentHandler::SaveError(ContentWriter& writer, Attempt attempt,
                                  const std::string& message) {
  const ContentStatus& current = writer.content().status;
  if (current && current->error && current->error->message == message) {
    LOG_V(4, "The same error is already set")
        .With("VolumeSnapshotContent", writer.content().metadata.name);
    return;
  }
  std::string time = kube::FormatMetaTime(clock_.WallNow());
  auto saved = writer.WriteStatus(
      [&](const ContentStatus& status) { return StatusWithError(status, message, time); });
  if (!saved.ok()) {
    LOG_V(4, "Failed to save error in VolumeSnapshotContent status")
        .With("VolumeSnapshotContent", writer.content().metadata.name)
        .With("err", saved.error().message);
  }
  if (attempt == Attempt::kFirst) {
    events_.CreationFailed(writer.content(), message);
  } else {
    events_.CheckAndUpdateFailed(writer.content(), message);
  }
}

int64_t CsiContentHandler::NowUnixNanos() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_.WallNow().time_since_epoch())
      .count();
}

}  // namespace snapshotter
