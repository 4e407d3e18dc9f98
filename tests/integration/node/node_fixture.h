// Runs the real livenessprobe and csi-node-driver-registrar binaries beside a
// CSI driver process (the Kubernetes e2e mock driver, or our fault-injecting
// driver for what a real one will not do on demand), with the fake kubelet of
// fake_kubelet.h on the registrar's socket and one control plane per suite
// for what kubelet writes. A driver and a sidecar per test; sockets live in a
// short per-test directory (unix socket paths are limited to 107 bytes).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kube/client/client.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"

namespace node_it {

// An HTTP answer's status code and body.
struct HttpAnswer {
  int status = 0;  // 0: nobody answered
  std::string body;
};
HttpAnswer Get(int port, const std::string& path);

class NodeSidecarTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  void StartMockDriver(const std::string& name);
  // Faults go to fault_dir()/faults.json (WriteFaults).
  void StartFaultDriver(const std::string& name);
  void WriteFaults(const std::string& json);
  std::string fault_dir() const { return dir_ + "/faults"; }

  // What the Start functions run: this build's binaries, or (overridden) launchers
  // that run them from their image roots.
  virtual std::string LivenessProbeBinary() const { return LIVENESSPROBE_BIN; }
  virtual std::string RegistrarBinary() const { return REGISTRAR_BIN; }
  // Added to the sidecars' environment.
  std::vector<std::pair<std::string, std::string>> sidecar_env_;

  std::unique_ptr<testsupport::Process> StartLivenessProbe(std::vector<std::string> args);
  // --csi-address, --kubelet-registration-path (the driver socket itself:
  // kubelet and the driver share this host) and --plugin-registration-path
  // are set; `args` come after them.
  std::unique_ptr<testsupport::Process> StartRegistrar(std::vector<std::string> args);

  // Polls `port`'s `path` until it answers `status`, up to `timeout`; the last answer.
  HttpAnswer AwaitAnswer(int port, const std::string& path, int status,
                         std::chrono::milliseconds timeout);
  // Waits for `process` to exit, up to `timeout`; its exit status or -1.
  static int AwaitExit(testsupport::Process& process, std::chrono::milliseconds timeout);
  static int FreePort();

  std::string driver_socket() const { return dir_ + "/csi.sock"; }
  std::string registration_dir() const { return dir_ + "/reg"; }
  std::string registration_socket(const std::string& driver) const {
    return registration_dir() + "/" + driver + "-reg.sock";
  }

  static testsupport::ControlPlane* plane_;
  static kube::Client* admin_;
  std::string dir_;
  std::unique_ptr<testsupport::Process> driver_;
  // The sidecars' log files, for their tails on failure: a test owns the
  // processes and ends them before TearDown.
  std::vector<std::string> sidecar_logs_;
};

}  // namespace node_it
