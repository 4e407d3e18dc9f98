#include "kube/api/merge_patch.h"

namespace kube {

nlohmann::json CreateMergePatch(const nlohmann::json& original, const nlohmann::json& modified) {
  // A merge patch can only describe an object by its members; any other
  // target replaces the document.
  if (!original.is_object() || !modified.is_object()) return modified;

  nlohmann::json patch = nlohmann::json::object();
  for (const auto& [key, old_value] : original.items()) {
    if (!modified.contains(key)) patch[key] = nullptr;
  }
  for (const auto& [key, new_value] : modified.items()) {
    auto old_it = original.find(key);
    if (old_it == original.end()) {
      if (!new_value.is_null()) patch[key] = new_value;
    } else if (old_it->is_object() && new_value.is_object()) {
      nlohmann::json nested = CreateMergePatch(*old_it, new_value);
      if (!nested.empty()) patch[key] = std::move(nested);
    } else if (*old_it != new_value) {
      patch[key] = new_value;
    }
  }
  return patch;
}

}  // namespace kube
