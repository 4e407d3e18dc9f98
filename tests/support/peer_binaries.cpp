#include "tests/support/peer_binaries.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "base/file.h"
#include "base/log.h"
#include "tests/support/process.h"
#include "tests/support/readiness.h"

namespace testsupport {
namespace {

constexpr char kBuildScript[] = CSI_ATTACHER_SOURCE_DIR "/tools/peers/build.sh";

// Fills `path` from environment variable `name` when it is still empty.
void FromEnvironment(std::string& path, std::string& origin, const char* name) {
  if (!path.empty()) return;
  if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
    path = value;
    origin = fmt::format("${}", name);
  }
}

// Runs build.sh and takes "NAME=PATH" lines for the paths still empty.
base::Status RunBuildScript(PeerBinaries& binaries, const std::string& build_log) {
  LOG_INFO("Finding or building peer binaries").With("script", kBuildScript).With("log", build_log);
  auto build = Process::Spawn({.argv = {kBuildScript, "etcd", "kube"}, .log_file = build_log});
  if (!build.ok()) return build.error().Wrap("run tools/peers/build.sh");
  if (int status = (*build)->Wait(); status != 0) {
    return base::Error(fmt::format("tools/peers/build.sh etcd kube failed with status {}; {}",
                                   status, DescribeLogTail("tools/peers/build.sh", **build)));
  }
  auto output = base::ReadFile(build_log);
  if (!output.ok()) return output.error();
  std::istringstream lines(*output);
  for (std::string line; std::getline(lines, line);) {
    if (binaries.etcd.empty() && line.starts_with("ETCD_BIN=")) binaries.etcd = line.substr(9);
    if (binaries.apiserver.empty() && line.starts_with("KUBE_APISERVER_BIN=")) {
      binaries.apiserver = line.substr(19);
    }
  }
  return {};
}

base::Status CheckExecutable(std::string_view peer, const std::string& path,
                             const std::string& origin) {
  if (path.empty()) {
    return base::Error(fmt::format("no {} binary: {} printed no path for it", peer, origin));
  }
  if (access(path.c_str(), X_OK) != 0) {
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
    if (binaries.etcd.empty()) etcd_origin = "tools/peers/build.sh";
    if (binaries.apiserver.empty()) apiserver_origin = "tools/peers/build.sh";
    if (auto status = RunBuildScript(binaries, build_log); !status.ok()) return status.error();
  }
  if (auto status = CheckExecutable("etcd", binaries.etcd, etcd_origin); !status.ok()) {
    return status.error();
  }
  if (auto status = CheckExecutable("kube-apiserver", binaries.apiserver, apiserver_origin);
      !status.ok()) {
    return status.error();
  }
  return binaries;
}

}  // namespace testsupport
