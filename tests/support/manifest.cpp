#include "tests/support/manifest.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "kube/client/api_error.h"

namespace testsupport {
namespace {

nlohmann::json PlainScalarToJson(const std::string& s) {
  static const std::regex kNull("~|null|Null|NULL|");
  static const std::regex kTrue("true|True|TRUE");
  static const std::regex kFalse("false|False|FALSE");
  static const std::regex kInt("[-+]?[0-9]+");
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (std::regex_match(s, kNull)) return nullptr;
  if (std::regex_match(s, kTrue)) return true;
  if (std::regex_match(s, kFalse)) return false;
  if (std::regex_match(s, kInt)) {
    int64_t value = 0;
    const char* begin = s.data() + (s[0] == '+' ? 1 : 0);
    auto [end, ec] = std::from_chars(begin, s.data() + s.size(), value);
    if (ec == std::errc()) return value;
  }
  if (std::regex_match(s, kFloat)) return std::strtod(s.c_str(), nullptr);
  return s;
}

nlohmann::json YamlToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node) {
        object[entry.first.as<std::string>()] = YamlToJson(entry.second);
      }
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) array.push_back(YamlToJson(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      // yaml-cpp tags plain scalars "?"; quoted ones "!" (always strings).
      return node.Tag() == "?" ? PlainScalarToJson(node.Scalar()) : nlohmann::json(node.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return nullptr;
}

// The string at `key`, or "" when `object` is no object or the value no string.
std::string StringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

const nlohmann::json& Metadata(const nlohmann::json& object) {
  static const nlohmann::json kNone;
  if (!object.is_object()) return kNone;
  auto it = object.find("metadata");
  return it != object.end() ? *it : kNone;
}

std::string Plural(std::string kind) {
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (kind.ends_with('s')) return kind + "es";
  if (kind.ends_with('y')) return kind.substr(0, kind.size() - 1) + "ies";
  return kind + "s";
}

base::Result<std::string> CollectionPath(const nlohmann::json& object) {
  std::string api_version = StringAt(object, "apiVersion");
  std::string kind = StringAt(object, "kind");
  if (api_version.empty() || kind.empty()) return base::Error("apiVersion and kind are required");
  std::string path =
      api_version.find('/') == std::string::npos ? "/api/" + api_version : "/apis/" + api_version;
  if (std::string ns = StringAt(Metadata(object), "namespace"); !ns.empty()) {
    path += "/namespaces/" + ns;
  }
  return path + "/" + Plural(kind);
}

}  // namespace

base::Status ApplyManifest(kube::Client& client, std::string_view yaml, std::string_view source) {
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return base::Error(fmt::format("parse manifest {}: {}", source, e.what()));
  }
  for (size_t i = 0; i < documents.size(); ++i) {
    if (!documents[i].IsDefined() || documents[i].IsNull()) continue;  // empty document
    nlohmann::json object;
    try {
      object = YamlToJson(documents[i]);
    } catch (const YAML::Exception& e) {
      return base::Error(fmt::format("manifest {} document {}: {}", source, i + 1, e.what()));
    }
    std::string what = fmt::format("manifest {} document {} ({} {})", source, i + 1,
                                   StringAt(object, "kind"), StringAt(Metadata(object), "name"));
    if (!object.is_object()) return base::Error(what + ": not a YAML mapping");
    auto path = CollectionPath(object);
    if (!path.ok()) return path.error().Wrap(what);
    auto created = client.Request("POST", *path, object.dump(), "application/json");
    if (!created.ok() && !kube::IsConflict(created.error())) {
      return created.error().Wrap("create " + what);
    }
  }
  return {};
}

}  // namespace testsupport
