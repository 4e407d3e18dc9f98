// local-control-plane: the test ControlPlane (etcd + kube-apiserver with TLS,
// RBAC and the attacher's identity) for shell scripts such as the demo and the
// benchmarks, so they run the very launcher the C++ tests use.
//
//   local-control-plane --dir DIR [--crds CRD_DIR]... [--controller-manager] [--scheduler]
//
// Keeps its files in DIR (created if missing, kept afterwards), installs the
// CRDs of every --crds directory (e.g. $SNAPSHOT_CRDS_DIR), sets up the
// snapshot stack's ServiceAccounts (tests/support/snapshot_service_accounts.h),
// starts kube-controller-manager (PV binder and attach-detach controller
// only) with --controller-manager and kube-scheduler with --scheduler,
// writes DIR/env with shell-sourceable SERVER, ADMIN_KUBECONFIG,
// ATTACHER_KUBECONFIG, SNAPSHOTTER_KUBECONFIG, SNAPSHOT_CONTROLLER_KUBECONFIG
// and CA_FILE lines, prints "ready" on stdout, then runs until SIGTERM or
// SIGINT and stops every peer. Each peer logs to DIR/<peer>.log. A failed
// start prints the error on stderr and exits 1; bad usage exits 2. Peer
// binaries come from $ETCD_BIN, $KUBE_APISERVER_BIN,
// $KUBE_CONTROLLER_MANAGER_BIN, $KUBE_SCHEDULER_BIN or tools/peers/build.sh.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/support/control_plane.h"
#include "tests/support/files.h"
#include "tests/support/snapshot_service_accounts.h"

namespace {

// 'value' with embedded single quotes closed, escaped and reopened.
std::string ShellQuote(std::string_view value) {
  std::string quoted = "'";
  for (char c : value) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string EnvFile(const testsupport::ControlPlane& plane, const testsupport::SnapshotKubeconfigs& snapshot) {
  const std::pair<const char*, std::string> entries[] = {
      {"SERVER", plane.server_url()},
      {"ADMIN_KUBECONFIG", plane.admin_kubeconfig()},
      {"ATTACHER_KUBECONFIG", plane.attacher_kubeconfig()},
      {"SNAPSHOTTER_KUBECONFIG", snapshot.sidecar},
      {"SNAPSHOT_CONTROLLER_KUBECONFIG", snapshot.controller},
      {"CA_FILE", plane.ca_file()},
  };
  std::string env;
  for (const auto& [name, value] : entries)
    env += std::string(name) + "=" + ShellQuote(value) + "\n";
  return env;
}

int Usage() {
  std::fprintf(stderr,
               "usage: local-control-plane --dir DIR [--crds CRD_DIR]... [--controller-manager] "
               "[--scheduler]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // Blocked before any thread exists, so every thread inherits the mask and
  // sigwait below is the only receiver (the peers unblock it for themselves).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::string dir;
  std::vector<std::string> crd_dirs;
  bool controller_manager = false;
  bool scheduler = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (arg.starts_with("--dir=")) {
      dir = arg.substr(6);
    } else if (arg == "--crds" && i + 1 < argc) {
      crd_dirs.emplace_back(argv[++i]);
    } else if (arg.starts_with("--crds=")) {
      crd_dirs.emplace_back(arg.substr(7));
    } else if (arg == "--controller-manager") {
      controller_manager = true;
    } else if (arg == "--scheduler") {
      scheduler = true;
    } else {
      return Usage();
    }
  }
  if (dir.empty() || std::find(crd_dirs.begin(), crd_dirs.end(), "") != crd_dirs.end()) {
    return Usage();
  }

  // A script polling for DIR/env must not pick up a previous run's.
  std::error_code ignored;
  std::filesystem::remove(dir + "/env", ignored);
  auto plane = testsupport::ControlPlane::Start({.work_dir = dir,
                                                 .keep_work_dir = true,
                                                 .crd_dirs = crd_dirs,
                                                 .controller_manager = controller_manager,
                                                 .scheduler = scheduler});
  if (!plane.ok()) {
    std::fprintf(stderr, "local-control-plane: %s\n", plane.error().message.c_str());
    return 1;
  }
  auto snapshot = testsupport::AddSnapshotServiceAccounts(**plane);
  if (!snapshot.ok()) {
    std::fprintf(stderr, "local-control-plane: %s\n", snapshot.error().message.c_str());
    return 1;
  }
  const std::string env_file = (*plane)->work_dir() + "/env";
  if (auto status = testsupport::WriteFile(env_file, EnvFile(**plane, *snapshot), 0644);
      !status.ok()) {
    std::fprintf(stderr, "local-control-plane: %s\n", status.error().message.c_str());
    return 1;
  }
  std::printf("ready\n");
  std::fflush(stdout);

  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  (*plane)->Stop();
  return 0;
}
