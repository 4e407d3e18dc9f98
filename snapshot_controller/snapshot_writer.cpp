#include "snapshot_controller/snapshot_writer.h"

#include <nlohmann/json.hpp>

#include "kube/api/codec.h"
#include "kube/api/json_patch.h"
#include "kube/api/merge_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"

namespace snapshot_controller {
namespace {

// A status write is tried once, then again after each of this many conflicts.
constexpr int kConflictRetries = 2;

}  // namespace

base::Status SnapshotWriter::AddFinalizers(std::initializer_list<std::string_view> finalizers) {
  kube::JsonPatch patch;
  // Each op is computed on the list as the previous ones leave it.
  kube::ObjectMeta meta = snapshot_.metadata;
  for (std::string_view finalizer : finalizers) {
    if (kube::HasFinalizer(meta, finalizer)) continue;
    kube::AddFinalizerOps(meta, finalizer, patch);
    meta.finalizers.emplace_back(finalizer);
    meta.has_finalizers_field = true;
  }
  if (patch.empty()) return base::Status::Ok();
  auto patched = Patch(patch.Serialize());
  if (!patched.ok()) {
    return patched.error().Wrap("snapshot controller failed to update " + Key() + " on API server");
  }
  return patched;
}

base::Status SnapshotWriter::SetClass(const std::string& class_name) {
  kube::JsonPatch patch;
  patch.Replace("/spec/volumeSnapshotClassName", class_name);
  return Patch(patch.Serialize());
}

base::Status SnapshotWriter::WriteStatus(const StatusChange& change) {
  for (int conflicts = 0;; ++conflicts) {
    std::optional<kube::VolumeSnapshotStatus> status = change(snapshot_);
    if (!status || status == snapshot_.status) return base::Status::Ok();
    kube::VolumeSnapshot modified = snapshot_;
    modified.status = std::move(status);
    nlohmann::json patch =
        kube::CreateMergePatch(nlohmann::json(snapshot_), nlohmann::json(modified));
    patch["metadata"]["resourceVersion"] = snapshot_.metadata.resource_version;
    auto written = api_.PatchSnapshot(snapshot_.metadata.namespace_, snapshot_.metadata.name,
                                      kube::PatchType::kMerge, patch.dump(), /*status=*/true);
    if (written.ok()) {
      snapshot_ = std::move(*written);
      return base::Status::Ok();
    }
    if (!kube::IsConflict(written.error()) || conflicts == kConflictRetries) {
      return written.error().Wrap("snapshot controller failed to update " + Key() +
                                  " on API server");
    }
    auto fresh = api_.GetSnapshot(snapshot_.metadata.namespace_, snapshot_.metadata.name);
    if (!fresh.ok()) {
      return fresh.error().Wrap("error get snapshot " + Key() + " from api server");
    }
    snapshot_ = std::move(*fresh);
  }
}

base::Status SnapshotWriter::Patch(const std::string& patch) {
  auto written = api_.PatchSnapshot(snapshot_.metadata.namespace_, snapshot_.metadata.name,
                                    kube::PatchType::kJson, patch, /*status=*/false);
  if (!written.ok()) return written.error();
  snapshot_ = std::move(*written);
  return base::Status::Ok();
}

std::string SnapshotWriter::Key() const {
  return snapshot_.metadata.namespace_ + "/" + snapshot_.metadata.name;
}

}  // namespace snapshot_controller
