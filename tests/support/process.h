// Process: one child program run by tests (etcd, kube-apiserver, build
// scripts), with stdout and stderr appended to a log file and stdin from
// /dev/null.
//
// The child leads its own process group and gets SIGKILL when the thread that
// spawned it ends (PR_SET_PDEATHSIG), so a crashed or killed test leaves no peer
// behind. Spawn from a thread that outlives the child (the main thread or a
// test fixture's). Stop(), Kill() and the destructor signal the whole group
// and reap the child. Not thread-safe: one owner drives it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace testsupport {

struct ProcessOptions {
  // The "= {}" lets designated initializers leave fields out without
  // -Wmissing-field-initializers.
  // argv[0] is the program's path; there is no PATH lookup.
  std::vector<std::string> argv = {};
  // Added to the parent's environment, replacing variables of the same name.
  std::vector<std::pair<std::string, std::string>> env = {};
  // Created if missing, appended to otherwise.
  std::string log_file = {};
};

class Process {
 public:
  static constexpr std::chrono::milliseconds kDefaultGrace{5000};

  // Fails if the log file cannot be opened or the program cannot be executed.
  static base::Result<std::unique_ptr<Process>> Spawn(const ProcessOptions& options);

  ~Process();  // Stop(kDefaultGrace)
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // SIGTERM to the group and up to `grace` for the child to exit (skipped when
  // grace is 0), then SIGKILL to the group, which also ends any stragglers the
  // child left; always reaps. Only the first call acts.
  void Stop(std::chrono::milliseconds grace = kDefaultGrace);
  void Kill() { Stop(std::chrono::milliseconds(0)); }

  // Reaps the child if it has exited.
  bool IsRunning();
  // Blocks until the child exits; returns exit_status().
  int Wait();
  // Valid once IsRunning() is false: the exit code, or 128 + signal number.
  int exit_status() const { return exit_status_; }

  pid_t pid() const { return pid_; }
  const std::string& log_file() const { return log_file_; }
  // The last `lines` lines of the log file (reads at most its last 64 KiB).
  std::string LogTail(int lines) const;

 private:
  Process(pid_t pid, std::string log_file) : pid_(pid), log_file_(std::move(log_file)) {}
  void Reaped(int wait_status);

  pid_t pid_;
  std::string log_file_;
  bool reaped_ = false;
  bool stopped_ = false;
  int exit_status_ = 0;
};

// The last `lines` lines of the file at `path` (reads at most its last 64 KiB),
// or a line saying why it cannot be read.
std::string FileTail(const std::string& path, int lines);

}  // namespace testsupport
