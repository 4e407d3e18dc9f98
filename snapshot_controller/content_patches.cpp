#include "snapshot_controller/content_patches.h"

#include <functional>
#include <string>

#include "kube/api/metadata_patch.h"
#include "kube/client/patch_from_cache.h"
#include "snapshotter/names.h"

namespace snapshot_controller {
namespace {

using BuildPatch = std::function<kube::JsonPatch(const kube::VolumeSnapshotContent&)>;

base::Status PatchContent(ControllerApi& api, const kube::VolumeSnapshotContent& cached,
                          const BuildPatch& build) {
  const std::string& name = cached.metadata.name;
  base::Status patched = kube::PatchFromCache(
      cached, build,
      [&](const std::string& patch) {
        return api.PatchContent(name, kube::PatchType::kJson, patch, /*status=*/false);
      },
      [&] { return api.GetContent(name); });
  if (!patched.ok()) {
    return patched.error().Wrap("snapshot controller failed to update " + name + " on API server");
  }
  return patched;
}

}  // namespace

base::Status AddContentFinalizer(ControllerApi& api, const kube::VolumeSnapshotContent& cached) {
  return PatchContent(api, cached, [](const kube::VolumeSnapshotContent& copy) {
    kube::JsonPatch patch;
    kube::AddFinalizerOps(copy.metadata, snapshotter::kContentFinalizer, patch);
    return patch;
  });
}

base::Status MarkContentBeingDeleted(ControllerApi& api,
                                     const kube::VolumeSnapshotContent& cached) {
  return PatchContent(api, cached, [](const kube::VolumeSnapshotContent& copy) {
    kube::JsonPatch patch;
    if (!copy.metadata.annotations.contains(snapshotter::kBeingDeletedAnnotation)) {
      kube::SetAnnotationOps(copy.metadata, snapshotter::kBeingDeletedAnnotation, "yes", patch);
    }
    return patch;
  });
}

}  // namespace snapshot_controller
