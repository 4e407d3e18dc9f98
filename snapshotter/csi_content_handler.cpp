#include "snapshotter/csi_content_handler.h"

#include <chrono>
#include <utility>

#include "base/log.h"
#include "base/strconv.h"
#include "snapshot/content_lane.h"
#include "snapshotter/class_inputs.h"
#include "snapshotter/content_state.h"
#include "snapshotter/content_status.h"
#include "snapshotter/credentials.h"
#include "snapshotter/names.h"

namespace snapshotter {
CsiContentHandler::CsiContentHandler(const kube::Store<kube::VolumeSnapshotClass>& classes,
                                     SnapshotApi& api, SnapshotDriver& driver,
                                     ContentEvents& events, CsiContentHandlerOptions options,
                                     base::Clock& clock)
    : ContentSyncOf(api, events, clock),
      classes_(classes),
      driver_(driver),
      options_(std::move(options)) {}

base::Result<SyncOutcome> CsiContentHandler::SyncUnready(ContentWriter& writer) {
  const kube::VolumeSnapshotContent& content = writer.content();
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

base::Status CsiContentHandler::DeleteOnBackend(const kube::VolumeSnapshotContent& content,
                                                const Secrets& secrets) {
  const std::string& name = content.metadata.name;
  const std::string& handle = *content.status->snapshot_handle;
  if (auto deleted = driver_.DeleteSnapshot(handle, secrets); !deleted.ok()) {
    return base::Error("failed to delete snapshot " + base::GoQuote(name) +
                       ", err: failed to delete snapshot content " + name + ": " +
                       base::GoQuote(deleted.error().message));
  }
  LOG_V(2, "Deleted snapshot").With("VolumeSnapshotContent", name).With("snapshotID", handle);
  return base::Status::Ok();
}

base::Status CsiContentHandler::TakeSnapshot(ContentWriter& writer) {
  const std::string name = writer.content().metadata.name;
  LOG_INFO("Creating snapshot through the driver").With("VolumeSnapshotContent", name);
  auto request = PrepareCreate(writer.content());
  if (!request.ok()) return request.error();
  SnapshotFacts facts;
  base::Status created =
      CreateUnderAnnotation(writer, [&]() -> base::Result<ContentWriter::StatusChange> {
        auto snapshot = driver_.CreateSnapshot(*request);
        if (!snapshot.ok()) {
          return Quoted(snapshot.error(),
                        "failed to take snapshot of the volume " + request->source_volume_id);
        }
        facts = {.snapshot_handle = snapshot->snapshot_id,
                 .ready_to_use = snapshot->ready_to_use,
                 .creation_time = snapshot->creation_time.value_or(NowUnixNanos()),
                 .restore_size = snapshot->size_bytes};
        return ContentWriter::StatusChange(
            [&facts](const ContentStatus& status) { return StatusWithSnapshot(status, facts); });
      });
  if (!created.ok()) return created;
  LOG_V(2, "Created snapshot")
      .With("VolumeSnapshotContent", name)
      .With("snapshotID", facts.snapshot_handle)
      .With("readyToUse", facts.ready_to_use);
  return base::Status::Ok();
}

base::Result<CreateSnapshotRequest> CsiContentHandler::PrepareCreate(
    const kube::VolumeSnapshotContent& content) {
  const std::string& name = content.metadata.name;
  auto inputs = CreateInputsOf(content, classes_, api_, options_.extra_create_metadata);
  if (!inputs.ok()) return inputs.error();
  // Upstream dereferences the missing handle and panics.
  const std::optional<std::string>& volume_handle = content.spec.source.volume_handle;
  if (!volume_handle) {
    return base::Error("cannot create snapshot. Volume handle not found in snapshot content " +
                       name);
  }
  const std::string uid = content.spec.volume_snapshot_ref.uid.str();
  if (uid.empty()) {
    return base::Error("failed to take snapshot of the volume " + *volume_handle + ": " +
                       base::GoQuote("cannot create snapshot. Snapshot content " + name +
                                     " not bound to a snapshot"));
  }
  return CreateSnapshotRequest{
      .name = SnapshotName(options_.snapshot_name_prefix, uid, options_.snapshot_name_uuid_length),
      .source_volume_id = *volume_handle,
      .parameters = std::move(inputs->parameters),
      .secrets = std::move(inputs->secrets)};
}

base::Result<SyncOutcome> CsiContentHandler::CheckThroughList(ContentWriter& writer) {
  if (auto checked = ListAndSaveStatus(writer); !checked.ok()) {
    SaveError(writer, Attempt::kLater, FailureMessage(Attempt::kLater, checked.error()));
    return checked.error();
  }
  return snapshot::IsReady(writer.content()) ? SyncOutcome::kDone : SyncOutcome::kPollReadiness;
}

base::Status CsiContentHandler::ListAndSaveStatus(ContentWriter& writer) {
  const kube::VolumeSnapshotContent content = writer.content();
  auto secrets = ListSecrets(content);
  if (!secrets.ok()) return secrets.error();
  // Upstream asks the driver about the handle the status has, and records
  // the one the spec has; they differ only for group members.
  const kube::HeapOptional<std::string>& spec_handle = content.spec.source.snapshot_handle;
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
  auto secrets = CheckCredentialsOf(content, classes_, api_);
  if (!secrets.ok()) return secrets.error();
  // Group members have no class; their credentials are in the annotations.
  if (content.status && content.status->volume_group_snapshot_handle) {
    auto annotated = DeletionCredentials(api_, content);
    if (!annotated.ok()) {
      return annotated.error().Wrap(
          "failed to get credentials from annotation for snapshot content " +
          content.metadata.name);
    }
    return annotated;
  }
  return secrets;
}

int64_t CsiContentHandler::NowUnixNanos() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_.WallNow().time_since_epoch())
      .count();
}

}  // namespace snapshotter
