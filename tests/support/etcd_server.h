// EtcdServer: a single-member etcd for one local control plane, listening for
// clients and peers on free 127.0.0.1 ports, with its data in a directory that
// is wiped at start (a control plane always begins empty) and fsync off (test
// data only). Start returns once GET /health reports "health":"true"; a start
// that fails because a port was taken meanwhile is retried on fresh ports.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "kube/client/client.h"
#include "tests/support/process.h"

namespace testsupport {

class EtcdServer {
 public:
  static base::Result<std::unique_ptr<EtcdServer>> Start(const std::string& binary,
                                                         const std::string& data_dir,
                                                         const std::string& log_file);

  // Stops the process (SIGTERM, then SIGKILL after a grace period).
  void Stop() { process_->Stop(); }

  // Compacts the key-value history at the current revision (physically).
  // Idempotent: compacting again with no write in between succeeds.
  base::Status Compact();

  const std::string& client_url() const { return client_url_; }
  pid_t pid() const { return process_->pid(); }

 private:
  EtcdServer(std::unique_ptr<Process> process, std::string client_url,
             std::unique_ptr<kube::Client> client)
      : process_(std::move(process)),
        client_url_(std::move(client_url)),
        client_(std::move(client)) {}

  std::unique_ptr<Process> process_;
  std::string client_url_;
  std::unique_ptr<kube::Client> client_;  // plain HTTP to the v3 JSON gateway
};

}  // namespace testsupport
