// StrategicMetadataPatch: builds a strategic merge patch
// (PatchType::kStrategicMerge) of metadata.finalizers and
// metadata.annotations. Only built-in kinds take one: the API server answers
// 415 for a custom resource, whose metadata changes stay JSON Patches
// (kube/api/metadata_patch.h).
//
// The API server merges the patch into the object as it is stored when the
// write happens, so the body depends on no copy of the object and needs no
// `test` op: another writer's change can neither make it fail nor be lost.
// ObjectMeta.finalizers has patch strategy "merge": AddFinalizer adds the
// entry to whatever list is stored (the server puts it first), unless it is
// there already (never a second copy), and RemoveFinalizer
// ($deleteFromPrimitiveList) takes out that entry alone, wherever it is;
// neither touches another entry.
// Annotations merge key by key. Which changes a cached copy still needs is
// the caller's decision.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace kube {

class StrategicMetadataPatch {
 public:
  StrategicMetadataPatch& AddFinalizer(std::string_view finalizer);
  StrategicMetadataPatch& RemoveFinalizer(std::string_view finalizer);
  StrategicMetadataPatch& SetAnnotation(std::string_view key, std::string_view value);

  bool empty() const { return metadata_.empty(); }
  // {"metadata":{...}}, members in sorted order.
  std::string Serialize() const;

 private:
  nlohmann::json metadata_ = nlohmann::json::object();
};

}  // namespace kube
