#include "snapshot_controller/group_snapshot_writer.h"

#include "kube/api/json_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/patch_from_cache.h"
#include "kube/client/status_patch_from_cache.h"
#include "snapshot_controller/names.h"

namespace snapshot_controller {

using kube::VolumeGroupSnapshot;

base::Status GroupSnapshotWriter::AddBoundFinalizer() { return SetFinalizer(true); }

base::Status GroupSnapshotWriter::RemoveBoundFinalizer() { return SetFinalizer(false); }

base::Status GroupSnapshotWriter::SetFinalizer(bool present) {
  const std::string& ns = group_.metadata.namespace_;
  const std::string& name = group_.metadata.name;
  std::optional<VolumeGroupSnapshot> written;
  base::Status patched = kube::PatchFromCache(
      group_,
      [present](const VolumeGroupSnapshot& copy) {
        if (!present)
          return kube::RemoveFinalizerPatch(copy.metadata, kGroupSnapshotBoundFinalizer);
        kube::JsonPatch patch;
        kube::AddFinalizerOps(copy.metadata, kGroupSnapshotBoundFinalizer, patch);
        return patch;
      },
      [&](const std::string& patch) {
        auto result =
            api_.PatchGroupSnapshot(ns, name, kube::PatchType::kJson, patch, /*status=*/false);
        if (result.ok()) written = *result;
        return result;
      },
      [&] { return api_.GetGroupSnapshot(ns, name); });
  if (!patched.ok()) {
    return patched.error().Wrap("snapshot controller failed to update " + Key() + " on API server");
  }
  if (written) group_ = std::move(*written);
  return patched;
}

base::Status GroupSnapshotWriter::SetClass(const std::string& class_name) {
  kube::JsonPatch patch;
  patch.Replace("/spec/volumeGroupSnapshotClassName", class_name);
  auto written = api_.PatchGroupSnapshot(group_.metadata.namespace_, group_.metadata.name,
                                         kube::PatchType::kJson, patch.Serialize(),
                                         /*status=*/false);
  if (!written.ok()) return written.error();
  group_ = std::move(*written);
  return base::Status::Ok();
}

base::Status GroupSnapshotWriter::WriteStatus(const StatusChange& change) {
  const std::string& ns = group_.metadata.namespace_;
  const std::string& name = group_.metadata.name;
  bool read_failed = false;
  auto written = kube::PatchStatusFromCache(
      group_, change,
      [&](const std::string& patch) {
        return api_.PatchGroupSnapshot(ns, name, kube::PatchType::kMerge, patch, /*status=*/true);
      },
      [&] {
        auto fresh = api_.GetGroupSnapshot(ns, name);
        read_failed = !fresh.ok();
        return fresh;
      });
  if (!written.ok()) {
    return written.error().Wrap(
        read_failed ? "error get group snapshot " + Key() + " from api server"
                    : "snapshot controller failed to update " + Key() + " on API server");
  }
  group_ = std::move(*written);
  return base::Status::Ok();
}

std::string GroupSnapshotWriter::Key() const {
  return group_.metadata.namespace_ + "/" + group_.metadata.name;
}

}  // namespace snapshot_controller
