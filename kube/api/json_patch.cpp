#include "kube/api/json_patch.h"

#include <utility>

namespace kube {

std::string EscapePointer(std::string_view token) {
  std::string escaped;
  escaped.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

JsonPatch& JsonPatch::Test(std::string_view path, nlohmann::json value) {
  return Append("test", path, std::move(value));
}

JsonPatch& JsonPatch::Add(std::string_view path, nlohmann::json value) {
  return Append("add", path, std::move(value));
}

JsonPatch& JsonPatch::Replace(std::string_view path, nlohmann::json value) {
  return Append("replace", path, std::move(value));
}

JsonPatch& JsonPatch::Remove(std::string_view path) { return Append("remove", path, std::nullopt); }

// `value` is nullopt only for ops that take none; a JSON null is a real value.
JsonPatch& JsonPatch::Append(std::string_view op, std::string_view path,
                             std::optional<nlohmann::json> value) {
  nlohmann::json operation = {{"op", op}, {"path", path}};
  if (value) operation["value"] = std::move(*value);
  operations_.push_back(std::move(operation));
  return *this;
}

std::string JsonPatch::Serialize() const { return operations_.dump(); }

}  // namespace kube
