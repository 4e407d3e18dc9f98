#include "kube/api/strategic_metadata_patch.h"

namespace kube {

StrategicMetadataPatch& StrategicMetadataPatch::AddFinalizer(std::string_view finalizer) {
  metadata_["finalizers"].push_back(finalizer);
  return *this;
}

StrategicMetadataPatch& StrategicMetadataPatch::RemoveFinalizer(std::string_view finalizer) {
  metadata_["$deleteFromPrimitiveList/finalizers"].push_back(finalizer);
  return *this;
}

StrategicMetadataPatch& StrategicMetadataPatch::SetAnnotation(std::string_view key,
                                                              std::string_view value) {
  metadata_["annotations"][std::string(key)] = value;
  return *this;
}

std::string StrategicMetadataPatch::Serialize() const {
  return nlohmann::json{{"metadata", metadata_}}.dump();
}

}  // namespace kube
