#include "bench/floor_snapshot_sidecar.h"

#include <grpcpp/grpcpp.h>

#include <nlohmann/json.hpp>

#include "bench/objects.h"
#include "bench/snapshot_objects.h"
#include "kube/api/codec.h"
#include "kube/api/json_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "snapshot/names.h"
#include "snapshotter/names.h"

namespace bench {
namespace {

bool HasAnnotation(const kube::VolumeSnapshotContent& content, std::string_view key) {
  return content.metadata.annotations.find(key) != content.metadata.annotations.end();
}

base::Error CsiError(const std::string& method, const grpc::Status& status) {
  return base::Error(method + " failed: " + status.error_message());
}

}  // namespace

FloorSnapshotSidecar::FloorSnapshotSidecar(kube::Client& client, FloorSidecarOptions options)
    : client_(client),
      options_(std::move(options)),
      csi_(csi::v1::Controller::NewStub(grpc::CreateChannel("unix://" + options_.csi_socket,
                                                            grpc::InsecureChannelCredentials()))),
      pool_(
          {.name = "floor-contents",
           .workers = static_cast<uint32_t>(options_.workers),
           .retry_start = std::chrono::milliseconds(5),
           .retry_max = std::chrono::milliseconds(1000)},
          kube::VolumeSnapshotContent::kFacts, base::Clock::Real(),
          [this](const std::string& name) { return kube::DoneOr(Sync(name)); },
          [](const std::string&) { return kube::WorkQueue::Lane::kNormal; }) {}

base::Result<std::unique_ptr<FloorSnapshotSidecar>> FloorSnapshotSidecar::Start(
    kube::Client& client, FloorSidecarOptions options) {
  std::unique_ptr<FloorSnapshotSidecar> floor(new FloorSnapshotSidecar(client, std::move(options)));
  auto watch = ObjectWatch<kube::VolumeSnapshotContent>::Start(
      client, [f = floor.get()](const kube::VolumeSnapshotContent& content, bool deleted) {
        if (content.spec.driver != kDriverName) return;
        deleted ? f->contents_.Erase(content.metadata.name, content)
                : f->contents_.Upsert(content.metadata.name, content);
        f->pool_.queue().Add(content.metadata.name);
      });
  if (!watch.ok()) return watch.error();
  floor->watch_ = std::move(*watch);
  floor->runner_ = std::jthread([f = floor.get()](std::stop_token stop) { f->pool_.Run(stop); });
  return floor;
}

FloorSnapshotSidecar::~FloorSnapshotSidecar() {
  watch_.reset();
  runner_.request_stop();
  if (runner_.joinable()) runner_.join();
}

base::Status FloorSnapshotSidecar::Sync(const std::string& name) {
  auto content = contents_.Get(name);
  if (!content) return {};
  if (!content->metadata.deletion_timestamp.empty()) return Delete(*content);
  if (!content->spec.source.volume_handle) return {};
  if (content->status && content->status->ready_to_use == true) return {};
  if (content->status && !PollDue(name)) return {};
  return Create(std::move(*content));
}

base::Status FloorSnapshotSidecar::Create(kube::VolumeSnapshotContent content) {
  if (!content.status) {
    kube::JsonPatch annotate;
    kube::SetAnnotationOps(content.metadata, snapshot::kBeingCreatedAnnotation, "yes", annotate);
    if (auto status = PatchContent(content, annotate); !status.ok()) return status;
  }
  auto facts = CreateSnapshot(content);
  if (!facts.ok()) return facts.error();
  if (auto status = snapshotter::StatusWithSnapshot(content.status, *facts)) {
    nlohmann::json body = *status;
    auto patched = client_.PatchStatus<kube::VolumeSnapshotContent>(
        "", content.metadata.name, kube::PatchType::kMerge,
        nlohmann::json{{"status", body}}.dump());
    if (!patched.ok()) return patched.error();
    contents_.Upsert(patched->metadata.name, *patched);
    content = *patched;
  }
  if (HasAnnotation(content, snapshot::kBeingCreatedAnnotation)) {
    auto remove = kube::RemoveAnnotationPatch(content.metadata, snapshot::kBeingCreatedAnnotation);
    if (auto status = PatchContent(content, remove); !status.ok()) return status;
  }
  if (!facts->ready_to_use) {
    std::lock_guard lock(mu_);
    next_poll_[content.metadata.name] = std::chrono::steady_clock::now() + options_.poll;
    pool_.queue().AddAfter(content.metadata.name, options_.poll);
  }
  return {};
}

bool FloorSnapshotSidecar::PollDue(const std::string& name) {
  std::lock_guard lock(mu_);
  auto it = next_poll_.find(name);
  return it == next_poll_.end() || std::chrono::steady_clock::now() >= it->second;
}

base::Status FloorSnapshotSidecar::Delete(const kube::VolumeSnapshotContent& content) {
  if (!HasAnnotation(content, snapshot::kBeingDeletedAnnotation) ||
      !kube::HasFinalizer(content.metadata, snapshot::kContentFinalizer)) {
    return {};
  }
  if (content.status && content.status->snapshot_handle) {
    csi::v1::DeleteSnapshotRequest request;
    request.set_snapshot_id(*content.status->snapshot_handle);
    csi::v1::DeleteSnapshotResponse response;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
    if (auto status = csi_->DeleteSnapshot(&context, request, &response); !status.ok()) {
      return CsiError("DeleteSnapshot", status);
    }
  }
  auto patch = kube::RemoveFinalizerPatch(content.metadata, snapshot::kContentFinalizer);
  auto patched = client_.Patch<kube::VolumeSnapshotContent>(
      "", content.metadata.name, kube::PatchType::kJson, patch.Serialize());
  if (!patched.ok() && !kube::IsNotFound(patched.error())) return patched.error();
  return {};
}

base::Result<snapshotter::SnapshotFacts> FloorSnapshotSidecar::CreateSnapshot(
    const kube::VolumeSnapshotContent& content) {
  csi::v1::CreateSnapshotRequest request;
  request.set_name(snapshotter::SnapshotName(kSnapshotNamePrefix,
                                             content.spec.volume_snapshot_ref.uid.str(), -1));
  request.set_source_volume_id(*content.spec.source.volume_handle);
  csi::v1::CreateSnapshotResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + options_.timeout);
  if (auto status = csi_->CreateSnapshot(&context, request, &response); !status.ok()) {
    return CsiError("CreateSnapshot", status);
  }
  const auto& snapshot = response.snapshot();
  int64_t created =
      snapshot.has_creation_time()
          ? snapshot.creation_time().seconds() * 1000000000 + snapshot.creation_time().nanos()
          : std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  return snapshotter::SnapshotFacts{.snapshot_handle = snapshot.snapshot_id(),
                                    .ready_to_use = snapshot.ready_to_use(),
                                    .creation_time = created,
                                    .restore_size = snapshot.size_bytes()};
}

base::Status FloorSnapshotSidecar::PatchContent(kube::VolumeSnapshotContent& content,
                                                const kube::JsonPatch& patch) {
  if (patch.empty()) return {};
  auto patched = client_.Patch<kube::VolumeSnapshotContent>(
      "", content.metadata.name, kube::PatchType::kJson, patch.Serialize());
  if (!patched.ok()) return patched.error();
  contents_.Upsert(patched->metadata.name, *patched);
  content = *patched;
  return {};
}

}  // namespace bench
