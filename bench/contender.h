// Contender: what a benchmark run measures. "ours" and "upstream" are the two
// attacher binaries, started with identical flags (RBAC-limited kubeconfig,
// the driver socket, --worker-threads, --timeout, --kube-api-qps/-burst);
// "floor" is the in-process FloorController with the same identity, workers
// and QPS. Stop() ends it (SIGTERM, then SIGKILL after a grace period).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "base/result.h"
#include "bench/floor_controller.h"
#include "bench/options.h"
#include "kube/client/client.h"
#include "tests/support/process.h"

namespace bench {

struct ContenderSetup {
  std::string attacher_kubeconfig;
  std::string csi_socket;
  std::string log_file;
};

class Contender {
 public:
  static base::Result<std::unique_ptr<Contender>> Start(const std::string& kind,
                                                        const BenchOptions& options,
                                                        const ContenderSetup& setup);
  ~Contender() { Stop(); }

  // The attacher's process id; 0 for the in-process floor.
  pid_t pid() const { return process_ ? process_->pid() : 0; }
  bool Running() { return !process_ || process_->IsRunning(); }
  std::string LogTail() const { return process_ ? process_->LogTail(30) : ""; }
  void Stop();

 private:
  Contender() = default;

  std::unique_ptr<testsupport::Process> process_;
  std::unique_ptr<kube::Client> floor_client_;
  std::unique_ptr<FloorController> floor_;
};

}  // namespace bench
