// JsonPatch: builds an RFC 6902 JSON Patch document. The attacher uses it
// where a merge patch would race other writers: a `test` op makes the API
// server reject the patch (HTTP 422) when the list it edits has changed since
// it was read, e.g. metadata.finalizers of a PersistentVolume.
// Paths are RFC 6901 JSON pointers; escape each reference token with
// EscapePointer (an annotation key like "a/b" becomes "a~1b").
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

inline constexpr std::string_view kJsonPatchContentType = "application/json-patch+json";

// "~" -> "~0", "/" -> "~1" (RFC 6901 §3), in that order.
std::string EscapePointer(std::string_view token);

class JsonPatch {
 public:
  JsonPatch& Test(std::string_view path, nlohmann::json value);
  JsonPatch& Add(std::string_view path, nlohmann::json value);
  JsonPatch& Replace(std::string_view path, nlohmann::json value);
  JsonPatch& Remove(std::string_view path);

  bool empty() const { return operations_.empty(); }
  // The JSON array of operations, in the order they were added.
  std::string Serialize() const;

 private:
  JsonPatch& Append(std::string_view op, std::string_view path,
                    std::optional<nlohmann::json> value);

  nlohmann::json operations_ = nlohmann::json::array();
};

}  // namespace kube
