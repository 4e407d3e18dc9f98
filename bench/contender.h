// Contender: what a benchmark run measures. Either the processes of the
// binaries under test, each with its role ("" for the attacher alone,
// "controller" and "sidecar" for the snapshot pair; started in that order
// and given identical flags whoever built them), or an in-process floor
// (InProcessFloor). Stop() ends it: the floor, or each process with SIGTERM,
// then SIGKILL after a grace period.
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "tests/support/process.h"

namespace bench {

// A floor controller and whatever it needs alive (its clients); stops when
// destroyed.
class InProcessFloor {
 public:
  virtual ~InProcessFloor() = default;
};

class Contender {
 public:
  struct Binary {
    std::string role;
    std::vector<std::string> argv;
    std::string log_file;
    // Added to the environment (the provisioner's capacity tracking reads
    // its namespace from NAMESPACE).
    std::vector<std::pair<std::string, std::string>> env = {};
  };
  struct Member {
    std::string role;
    pid_t pid;
  };

  // Starts the binaries in order; stops those started when one fails.
  static base::Result<std::unique_ptr<Contender>> Spawn(std::vector<Binary> binaries);
  static std::unique_ptr<Contender> InProcess(std::unique_ptr<InProcessFloor> floor);
  ~Contender() { Stop(); }

  // The processes, in start order; none for the floor.
  std::vector<Member> Processes() const;
  std::vector<pid_t> Pids() const;
  // The last lines of each process's log, headed by its role.
  std::string LogTail() const;
  void Stop();

 private:
  Contender() = default;

  struct Running {
    std::string role;
    std::unique_ptr<testsupport::Process> process;
  };
  std::vector<Running> processes_;
  std::unique_ptr<InProcessFloor> floor_;
};

}  // namespace bench
