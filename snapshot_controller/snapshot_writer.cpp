#include "snapshot_controller/snapshot_writer.h"

#include <vector>

#include "kube/api/json_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/patch_from_cache.h"
#include "kube/client/status_patch_from_cache.h"

namespace snapshot_controller {

base::Status SnapshotWriter::AddFinalizers(std::initializer_list<std::string_view> finalizers) {
  const std::vector<std::string_view> wanted(finalizers);
  auto build = [&](const kube::VolumeSnapshot& copy) {
    kube::JsonPatch patch;
    // Each op is computed on the list as the previous ones leave it.
    kube::ObjectMeta meta = copy.metadata;
    for (std::string_view finalizer : wanted) {
      if (kube::HasFinalizer(meta, finalizer)) continue;
      kube::AddFinalizerOps(meta, finalizer, patch);
      meta.finalizers.emplace_back(finalizer);
      meta.has_finalizers_field = true;
    }
    return patch;
  };
  const std::string ns = snapshot_.metadata.namespace_;
  const std::string name = snapshot_.metadata.name;
  base::Status added = kube::PatchFromCache(
      snapshot_, build,
      [&](const std::string& patch) {
        return Took(api_.PatchSnapshot(ns, name, kube::PatchType::kJson, patch, /*status=*/false));
      },
      [&] { return Took(api_.GetSnapshot(ns, name)); });
  if (!added.ok()) {
    return added.error().Wrap("snapshot controller failed to update " + Key() + " on API server");
  }
  return added;
}

base::Status SnapshotWriter::SetClass(const std::string& class_name) {
  kube::JsonPatch patch;
  patch.Replace("/spec/volumeSnapshotClassName", class_name);
  return Patch(patch.Serialize());
}

base::Status SnapshotWriter::WriteStatus(const StatusChange& change) {
  const std::string& ns = snapshot_.metadata.namespace_;
  const std::string& name = snapshot_.metadata.name;
  bool read_failed = false;
  auto written = kube::PatchStatusFromCache(
      snapshot_, change,
      [&](const std::string& patch) {
        return api_.PatchSnapshot(ns, name, kube::PatchType::kMerge, patch, /*status=*/true);
      },
      [&] {
        auto fresh = api_.GetSnapshot(ns, name);
        read_failed = !fresh.ok();
        return fresh;
      });
  if (!written.ok()) {
    return written.error().Wrap(read_failed ? "error get snapshot " + Key() + " from api server"
                                            : "snapshot controller failed to update " + Key() +
                                                  " on API server");
  }
  Keep(*written);
  return base::Status::Ok();
}

base::Status SnapshotWriter::Patch(const std::string& patch) {
  auto written = Took(api_.PatchSnapshot(snapshot_.metadata.namespace_, snapshot_.metadata.name,
                                         kube::PatchType::kJson, patch, /*status=*/false));
  if (!written.ok()) return written.error();
  return base::Status::Ok();
}

base::Result<kube::VolumeSnapshot> SnapshotWriter::Took(base::Result<kube::VolumeSnapshot> answer) {
  if (answer.ok()) Keep(*answer);
  return answer;
}

void SnapshotWriter::Keep(const kube::VolumeSnapshot& answer) {
  written_.Remember(snapshot_.metadata.resource_version, answer);
  snapshot_ = answer;
}

std::string SnapshotWriter::Key() const {
  return snapshot_.metadata.namespace_ + "/" + snapshot_.metadata.name;
}

}  // namespace snapshot_controller
