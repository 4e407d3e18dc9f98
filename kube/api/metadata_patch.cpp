#include "kube/api/metadata_patch.h"

#include <algorithm>

namespace kube {
namespace {

constexpr std::string_view kFinalizersPath = "/metadata/finalizers";
constexpr std::string_view kAnnotationsPath = "/metadata/annotations";

}  // namespace

bool HasFinalizer(const ObjectMeta& meta, std::string_view finalizer) {
  return std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer) !=
         meta.finalizers.end();
}

void AddFinalizerOps(const ObjectMeta& meta, std::string_view finalizer, JsonPatch& patch) {
  if (HasFinalizer(meta, finalizer)) return;
  if (!meta.has_finalizers_field) {
    patch.Test(kFinalizersPath, nullptr).Add(kFinalizersPath, nlohmann::json::array({finalizer}));
    return;
  }
  patch.Test(kFinalizersPath, meta.finalizers).Add(std::string(kFinalizersPath) + "/-", finalizer);
}

void SetAnnotationOps(const ObjectMeta& meta, std::string_view key, std::string_view value,
                      JsonPatch& patch) {
  if (meta.annotations.empty()) {
    // The API server omits an empty map, so empty here means absent there.
    patch.Test(kAnnotationsPath, nullptr)
        .Add(kAnnotationsPath, nlohmann::json::object({{key, value}}));
    return;
  }
  auto current = meta.annotations.find(key);
  if (current != meta.annotations.end() && current->second == value) return;
  patch.Add(std::string(kAnnotationsPath) + "/" + EscapePointer(key), value);
}

JsonPatch RemoveAnnotationPatch(const ObjectMeta& meta, std::string_view key) {
  JsonPatch patch;
  auto it = meta.annotations.find(key);
  if (it == meta.annotations.end()) return patch;
  std::string path = std::string(kAnnotationsPath) + "/" + EscapePointer(key);
  patch.Test(path, it->second).Remove(path);
  return patch;
}

JsonPatch RemoveFinalizerPatch(const ObjectMeta& meta, std::string_view finalizer) {
  JsonPatch patch;
  ObjectMeta remaining = meta;
  RemoveFinalizerOps(remaining, finalizer, patch);
  return patch;
}

void RemoveFinalizerOps(ObjectMeta& meta, std::string_view finalizer, JsonPatch& patch) {
  auto it = std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer);
  if (it == meta.finalizers.end()) return;
  std::string path =
      std::string(kFinalizersPath) + "/" + std::to_string(it - meta.finalizers.begin());
  patch.Test(path, finalizer).Remove(path);
  meta.finalizers.erase(it);
}

}  // namespace kube
