#include "tests/support/kubeconfig_file.h"

#include <yaml-cpp/yaml.h>

#include "tests/support/files.h"

namespace testsupport {

base::Status WriteKubeconfig(const std::string& path, const KubeconfigSpec& spec) {
  const std::string kCluster = "local";
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "apiVersion" << YAML::Value << "v1";
  out << YAML::Key << "kind" << YAML::Value << "Config";
  out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << kCluster;
  out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "server" << YAML::Value << spec.server;
  if (!spec.ca_file.empty()) {
    out << YAML::Key << "certificate-authority" << YAML::Value << spec.ca_file;
  }
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << spec.user;
  out << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "token" << YAML::Value << spec.token;
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << spec.user;
  out << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "cluster" << YAML::Value << kCluster;
  out << YAML::Key << "user" << YAML::Value << spec.user;
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "current-context" << YAML::Value << spec.user;
  out << YAML::EndMap;
  if (!out.good()) return base::Error("encode kubeconfig " + path + ": " + out.GetLastError());
  return WriteFile(path, std::string(out.c_str()) + "\n");
}

}  // namespace testsupport
