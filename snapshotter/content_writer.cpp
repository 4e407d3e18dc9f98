#include "snapshotter/content_writer.h"

#include "kube/api/codec.h"
#include "kube/api/merge_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"

namespace snapshotter {

base::Status ContentWriter::AddAnnotation(std::string_view key, std::string_view value) {
  if (content_.metadata.annotations.contains(key)) return base::Status::Ok();
  kube::JsonPatch patch;
  kube::SetAnnotationOps(content_.metadata, key, value, patch);
  return Patch(patch);
}

base::Status ContentWriter::RemoveAnnotation(std::string_view key) {
  return Patch(kube::RemoveAnnotationPatch(content_.metadata, key));
}

base::Status ContentWriter::RemoveFinalizer(std::string_view finalizer) {
  base::Status removed = Patch(kube::RemoveFinalizerPatch(content_.metadata, finalizer));
  if (!removed.ok() && kube::IsNotFound(removed.error())) return base::Status::Ok();
  return removed;
}

base::Status ContentWriter::WriteStatus(const StatusChange& change) {
  const std::string& name = content_.metadata.name;
  for (int attempt = 0;; ++attempt) {
    ContentStatus status = change(content_.status);
    if (!status || status == content_.status) return base::Status::Ok();
    auto written = api_.PatchContent(name, kube::PatchType::kMerge, StatusPatch(*status),
                                     /*status=*/true);
    if (written.ok()) {
      content_ = std::move(*written);
      return base::Status::Ok();
    }
    if (attempt > 0 || !kube::IsConflict(written.error())) return UpdateFailed(written.error());
    auto fresh = api_.GetContent(name);
    if (!fresh.ok()) {
      return fresh.error().Wrap("error get snapshot content " + name + " from api server");
    }
    content_ = std::move(*fresh);
  }
}

base::Status ContentWriter::Patch(const kube::JsonPatch& patch) {
  if (patch.empty()) return base::Status::Ok();
  auto written = api_.PatchContent(content_.metadata.name, kube::PatchType::kJson,
                                   patch.Serialize(), /*status=*/false);
  if (!written.ok()) return UpdateFailed(written.error());
  content_ = std::move(*written);
  return base::Status::Ok();
}

std::string ContentWriter::StatusPatch(const kube::VolumeSnapshotContentStatus& status) const {
  kube::VolumeSnapshotContent modified = content_;
  modified.status = status;
  nlohmann::json patch = kube::CreateMergePatch(nlohmann::json(content_), nlohmann::json(modified));
  if (!content_.metadata.resource_version.empty()) {
    patch["metadata"]["resourceVersion"] = content_.metadata.resource_version;
  }
  return patch.dump();
}

base::Error ContentWriter::UpdateFailed(const base::Error& error) const {
  return error.Wrap("snapshot controller failed to update " + content_.metadata.name +
                    " on API server");
}

}  // namespace snapshotter
