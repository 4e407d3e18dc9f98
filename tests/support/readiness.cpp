#include "tests/support/readiness.h"

#include <fmt/format.h>

#include <thread>

namespace testsupport {

std::string DescribeLogTail(std::string_view peer, const Process& process) {
  return fmt::format("last {} lines of {}'s log {}:\n{}", kLogTailLines, peer, process.log_file(),
                     process.LogTail(kLogTailLines));
}

base::Status WaitFor(std::string_view peer, std::string_view goal, Process& process,
                     std::chrono::milliseconds timeout,
                     const std::function<base::Status()>& probe) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (;;) {
    if (!process.IsRunning()) {
      return base::Error(
          fmt::format("{} (pid {}) exited with status {} after {:.1f}s while "
                      "waiting for {}; {}",
                      peer, process.pid(), process.exit_status(), elapsed(), goal,
                      DescribeLogTail(peer, process)));
    }
    auto status = probe();
    if (status.ok()) return {};
    if (std::chrono::steady_clock::now() - start >= timeout) {
      return base::Error(
          fmt::format("{}: gave up after {:.1f}s waiting for {} (last check: {}); {}", peer,
                      elapsed(), goal, status.error().message, DescribeLogTail(peer, process)));
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace testsupport
