#include "tests/support/peer_binaries.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include "base/file.h"
#include "base/log.h"
#include "tests/support/process.h"
#include "tests/support/readiness.h"
#include "tests/support/source_dir.h"

namespace testsupport {
namespace {

struct Wanted {
  std::string_view variable;
  std::string& path;
  std::string& origin;
};

// Fills `path` from environment variable `name` when it is still empty.
void FromEnvironment(std::string& path, std::string& origin, std::string_view name) {
  if (!path.empty()) return;
  const std::string variable(name);
  if (const char* value = std::getenv(variable.c_str()); value != nullptr && *value != '\0') {
    path = value;
    origin = "$" + variable;
  }
}

// Runs build.sh for `peers` and takes its "NAME=PATH" lines for the paths
// still empty.
base::Status RunBuildScript(const std::vector<std::string>& peers, std::vector<Wanted> wanted,
                            const std::string& build_log) {
  std::vector<std::string> argv = {SourcePath("tools/peers/build.sh")};
  argv.insert(argv.end(), peers.begin(), peers.end());
  const std::string command = fmt::format("tools/peers/build.sh {}", fmt::join(peers, " "));
  LOG_INFO("Finding or building peers").With("command", command).With("log", build_log);
  auto build = Process::Spawn({.argv = argv, .log_file = build_log});
  if (!build.ok()) return build.error().Wrap("run " + command);
  if (int status = (*build)->Wait(); status != 0) {
    return base::Error(fmt::format("{} failed with status {}; {}", command, status,
                                   DescribeLogTail("tools/peers/build.sh", **build)));
  }
  auto output = base::ReadFile(build_log);
  if (!output.ok()) return output.error();
  for (Wanted& w : wanted) {
    if (w.path.empty()) w.origin = command;
  }
  std::istringstream lines(*output);
  for (std::string line; std::getline(lines, line);) {
    for (Wanted& w : wanted) {
      const std::string key = std::string(w.variable) + "=";
      if (!w.path.empty() || !line.starts_with(key)) continue;
      w.path = line.substr(key.size());
    }
  }
  return {};
}

base::Status CheckPath(std::string_view peer, std::string_view variable, const std::string& path,
                       const std::string& origin) {
  if (path.empty()) {
    return base::Error(fmt::format("no {} path: {} printed no {}", peer, origin, variable));
  }
  if (variable.ends_with("_DIR")) {
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      return base::Error(fmt::format("{} directory {} (from {}) is missing", peer, path, origin));
    }
  } else if (access(path.c_str(), X_OK) != 0) {
    return base::Error(
        fmt::format("{} binary {} (from {}) is missing or not executable", peer, path, origin));
  }
  return {};
}

}  // namespace

base::Result<PeerBinaries> FindPeerBinaries(PeerBinaries given, const std::string& build_log) {
  PeerBinaries binaries = std::move(given);
  std::string etcd_origin = "ControlPlaneOptions";
  std::string apiserver_origin = etcd_origin;
  FromEnvironment(binaries.etcd, etcd_origin, "ETCD_BIN");
  FromEnvironment(binaries.apiserver, apiserver_origin, "KUBE_APISERVER_BIN");
  if (binaries.etcd.empty() || binaries.apiserver.empty()) {
    if (auto status = RunBuildScript({"etcd", "kube"},
                                     {{"ETCD_BIN", binaries.etcd, etcd_origin},
                                      {"KUBE_APISERVER_BIN", binaries.apiserver, apiserver_origin}},
                                     build_log);
        !status.ok()) {
      return status.error();
    }
  }
  if (auto status = CheckPath("etcd", "ETCD_BIN", binaries.etcd, etcd_origin); !status.ok()) {
    return status.error();
  }
  if (auto status =
          CheckPath("kube-apiserver", "KUBE_APISERVER_BIN", binaries.apiserver, apiserver_origin);
      !status.ok()) {
    return status.error();
  }
  return binaries;
}

base::Result<std::string> FindPeer(std::string_view variable, std::string_view peer,
                                   const std::string& build_log) {
  std::string path;
  std::string origin = fmt::format("tools/peers/build.sh {}", peer);
  FromEnvironment(path, origin, variable);
  if (path.empty()) {
    if (auto status = RunBuildScript({std::string(peer)}, {{variable, path, origin}}, build_log);
        !status.ok()) {
      return status.error();
    }
  }
  if (auto status = CheckPath(peer, variable, path, origin); !status.ok()) return status.error();
  return path;
}

}  // namespace testsupport
