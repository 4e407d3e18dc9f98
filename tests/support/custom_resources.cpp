#include "tests/support/custom_resources.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "tests/support/manifest.h"

namespace testsupport {
namespace {

namespace fs = std::filesystem;

constexpr char kCrdKind[] = "CustomResourceDefinition";
constexpr char kCrdPath[] = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/";

base::Result<std::vector<std::string>> YamlFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->is_regular_file() && it->path().extension() == ".yaml") {
      files.push_back(it->path().string());
    }
  }
  if (error) return base::Error("list CRD directory " + dir + ": " + error.message());
  if (files.empty()) return base::Error("CRD directory " + dir + " has no *.yaml file");
  std::sort(files.begin(), files.end());
  return files;
}

// The CRDs' names (spec.names.plural + "." + spec.group), checking each
// document is a CRD before anything is created.
base::Result<std::vector<std::string>> CrdNames(const std::string& yaml, const std::string& file) {
  std::vector<std::string> names;
  try {
    for (const YAML::Node& document : YAML::LoadAll(yaml)) {
      if (!document.IsDefined() || document.IsNull()) continue;
      if (!document.IsMap() || !document["kind"] ||
          document["kind"].as<std::string>() != kCrdKind) {
        return base::Error(fmt::format("{}: a document is no {}", file, kCrdKind));
      }
      const YAML::Node spec = document["spec"];
      if (!spec || !spec["group"] || !spec["names"] || !spec["names"]["plural"]) {
        return base::Error(
            fmt::format("{}: a {} without spec.group or spec.names.plural", file, kCrdKind));
      }
      names.push_back(spec["names"]["plural"].as<std::string>() + "." +
                      spec["group"].as<std::string>());
    }
  } catch (const YAML::Exception& e) {
    return base::Error(fmt::format("parse {}: {}", file, e.what()));
  }
  return names;
}

}  // namespace

base::Result<std::vector<std::string>> ApplyCustomResourceDefinitions(kube::Client& client,
                                                                      const std::string& dir) {
  auto files = YamlFiles(dir);
  if (!files.ok()) return files.error();
  std::vector<std::string> all;
  for (const std::string& file : *files) {
    auto yaml = base::ReadFile(file);
    if (!yaml.ok()) return yaml.error().Wrap("CRD file");
    auto names = CrdNames(*yaml, file);
    if (!names.ok()) return names.error();
    if (auto status = ApplyManifest(client, *yaml, file); !status.ok()) return status.error();
    all.insert(all.end(), names->begin(), names->end());
  }
  return all;
}

base::Status CheckEstablished(kube::Client& client, const std::string& crd_name) {
  auto body = client.Request("GET", kCrdPath + crd_name);
  if (!body.ok()) return body.error().Wrap("GET CRD " + crd_name);
  auto crd = nlohmann::json::parse(*body, nullptr, false);
  const nlohmann::json conditions =
      crd.is_object()
          ? crd.value(nlohmann::json::json_pointer("/status/conditions"), nlohmann::json::array())
          : nlohmann::json::array();
  for (const auto& condition : conditions.is_array() ? conditions : nlohmann::json::array()) {
    if (!condition.is_object()) continue;
    if (condition.value("type", "") == "Established" && condition.value("status", "") == "True") {
      return {};
    }
  }
  return base::Error(
      fmt::format("CRD {} is not Established yet (conditions: {})", crd_name, conditions.dump()));
}

}  // namespace testsupport
