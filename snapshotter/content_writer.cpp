#include "snapshotter/content_writer.h"

#include "kube/api/codec.h"
#include "kube/api/merge_patch.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "snapshotter/kind_words.h"

namespace snapshotter {
namespace {

// The API calls of each kind.
template <class Content>
struct ContentCalls;
template <>
struct ContentCalls<kube::VolumeSnapshotContent> {
  static constexpr auto kPatch = &SnapshotApi::PatchContent;
  static constexpr auto kGet = &SnapshotApi::GetContent;
};
template <>
struct ContentCalls<kube::VolumeGroupSnapshotContent> {
  static constexpr auto kPatch = &SnapshotApi::PatchGroupContent;
  static constexpr auto kGet = &SnapshotApi::GetGroupContent;
};

// What upstream's read error calls the kind.
constexpr KindWords kContentWords = {"snapshot content", "group snapshot content"};

}  // namespace

template <class Content>
base::Status ContentWriterOf<Content>::AddAnnotation(std::string_view key, std::string_view value) {
  if (content_.metadata.annotations.contains(key)) return base::Status::Ok();
  kube::JsonPatch patch;
  kube::SetAnnotationOps(content_.metadata, key, value, patch);
  return Patch(patch);
}

template <class Content>
base::Status ContentWriterOf<Content>::RemoveAnnotation(std::string_view key) {
  return Patch(kube::RemoveAnnotationPatch(content_.metadata, key));
}

template <class Content>
base::Status ContentWriterOf<Content>::RemoveFinalizer(std::string_view finalizer) {
  base::Status removed = Patch(kube::RemoveFinalizerPatch(content_.metadata, finalizer));
  if (!removed.ok() && kube::IsNotFound(removed.error())) return base::Status::Ok();
  return removed;
}

template <class Content>
base::Status ContentWriterOf<Content>::WriteStatus(const StatusChange& change) {
  using Calls = ContentCalls<Content>;
  const std::string& name = content_.metadata.name;
  for (int attempt = 0;; ++attempt) {
    Status status = change(content_.status);
    if (!status || status == content_.status) return base::Status::Ok();
    auto written = (api_.*Calls::kPatch)(name, kube::PatchType::kMerge, StatusPatch(status),
                                         /*status=*/true);
    if (written.ok()) {
      content_ = std::move(*written);
      return base::Status::Ok();
    }
    if (attempt > 0 || !kube::IsConflict(written.error())) return UpdateFailed(written.error());
    auto fresh = (api_.*Calls::kGet)(name);
    if (!fresh.ok()) {
      return fresh.error().Wrap("error get " + std::string(WordsFor<Content>(kContentWords)) + " " +
                                name + " from api server");
    }
    content_ = std::move(*fresh);
  }
}

template <class Content>
base::Status ContentWriterOf<Content>::Patch(const kube::JsonPatch& patch) {
  if (patch.empty()) return base::Status::Ok();
  auto written = (api_.*ContentCalls<Content>::kPatch)(
      content_.metadata.name, kube::PatchType::kJson, patch.Serialize(), /*status=*/false);
  if (!written.ok()) return UpdateFailed(written.error());
  content_ = std::move(*written);
  return base::Status::Ok();
}

template <class Content>
std::string ContentWriterOf<Content>::StatusPatch(const Status& status) const {
  Content modified = content_;
  modified.status = status;
  nlohmann::json patch = kube::CreateMergePatch(nlohmann::json(content_), nlohmann::json(modified));
  if (!content_.metadata.resource_version.empty()) {
    patch["metadata"]["resourceVersion"] = content_.metadata.resource_version;
  }
  return patch.dump();
}

template <class Content>
base::Error ContentWriterOf<Content>::UpdateFailed(const base::Error& error) const {
  return error.Wrap("snapshot controller failed to update " + content_.metadata.name +
                    " on API server");
}

template class ContentWriterOf<kube::VolumeSnapshotContent>;
template class ContentWriterOf<kube::VolumeGroupSnapshotContent>;

}  // namespace snapshotter
