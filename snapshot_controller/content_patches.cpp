#include "snapshot_controller/content_patches.h"

#include <functional>
#include <string>
#include <string_view>

#include "kube/api/metadata_patch.h"
#include "kube/client/patch_from_cache.h"
#include "snapshot/names.h"

namespace snapshot_controller {
namespace {

using kube::VolumeGroupSnapshotContent;
using kube::VolumeSnapshotContent;

// Each content kind's names and API calls.
base::Result<VolumeSnapshotContent> Send(ControllerApi& api, const VolumeSnapshotContent& content,
                                         const std::string& patch) {
  return api.PatchContent(content.metadata.name, kube::PatchType::kJson, patch, /*status=*/false);
}
base::Result<VolumeGroupSnapshotContent> Send(ControllerApi& api,
                                              const VolumeGroupSnapshotContent& content,
                                              const std::string& patch) {
  return api.PatchGroupContent(content.metadata.name, kube::PatchType::kJson, patch);
}
base::Result<VolumeSnapshotContent> Read(ControllerApi& api, const VolumeSnapshotContent& content) {
  return api.GetContent(content.metadata.name);
}
base::Result<VolumeGroupSnapshotContent> Read(ControllerApi& api,
                                              const VolumeGroupSnapshotContent& content) {
  return api.GetGroupContent(content.metadata.name);
}

template <class Content>
base::Status PatchContent(ControllerApi& api, const Content& cached,
                          const std::function<kube::JsonPatch(const Content&)>& build) {
  base::Status patched = kube::PatchFromCache(
      cached, build, [&](const std::string& patch) { return Send(api, cached, patch); },
      [&] { return Read(api, cached); });
  if (!patched.ok()) {
    return patched.error().Wrap("snapshot controller failed to update " + cached.metadata.name +
                                " on API server");
  }
  return patched;
}

template <class Content>
base::Status AddFinalizer(ControllerApi& api, const Content& cached, std::string_view finalizer) {
  return PatchContent<Content>(api, cached, [finalizer](const Content& copy) {
    kube::JsonPatch patch;
    kube::AddFinalizerOps(copy.metadata, finalizer, patch);
    return patch;
  });
}

template <class Content>
base::Status MarkBeingDeleted(ControllerApi& api, const Content& cached,
                              std::string_view annotation) {
  return PatchContent<Content>(api, cached, [annotation](const Content& copy) {
    kube::JsonPatch patch;
    if (!copy.metadata.annotations.contains(annotation)) {
      kube::SetAnnotationOps(copy.metadata, annotation, "yes", patch);
    }
    return patch;
  });
}

}  // namespace

base::Status AddContentFinalizer(ControllerApi& api, const VolumeSnapshotContent& cached) {
  return AddFinalizer(api, cached, snapshot::kContentFinalizer);
}

base::Status AddContentFinalizer(ControllerApi& api, const VolumeGroupSnapshotContent& cached) {
  return AddFinalizer(api, cached, snapshot::kGroupContentFinalizer);
}

base::Status MarkContentBeingDeleted(ControllerApi& api, const VolumeSnapshotContent& cached) {
  return MarkBeingDeleted(api, cached, snapshot::kBeingDeletedAnnotation);
}

base::Status MarkContentBeingDeleted(ControllerApi& api, const VolumeGroupSnapshotContent& cached) {
  return MarkBeingDeleted(api, cached, snapshot::kGroupBeingDeletedAnnotation);
}

}  // namespace snapshot_controller
