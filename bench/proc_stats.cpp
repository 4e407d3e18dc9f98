#include "bench/proc_stats.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "tests/support/tcp_connections.h"

namespace bench {
namespace {

// utime and stime are fields 14 and 15 of /proc/<pid>/stat; the command name
// (field 2) may contain spaces, so counting starts after its closing ')'.
std::optional<double> CpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  auto close = line.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int index = 3; fields >> field; ++index) {
    if (index == 14) utime = std::stoull(field);
    if (index == 15) {
      stime = std::stoull(field);
      return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
    }
  }
  return std::nullopt;
}

// Voluntary and involuntary, summed over the status files of the live threads.
long ContextSwitches(pid_t pid) {
  long sum = 0;
  std::error_code error;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    std::ifstream in(task.path() / "status");
    std::string key;
    long value = 0;
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      if (!(fields >> key >> value)) continue;
      if (key == "voluntary_ctxt_switches:" || key == "nonvoluntary_ctxt_switches:") sum += value;
    }
  }
  return sum;
}

}  // namespace

std::optional<ProcSample> ReadProcSample(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  auto cpu = CpuSeconds(pid);
  if (!cpu) return std::nullopt;
  ProcSample sample{.cpu_seconds = *cpu};
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  long value = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (!(fields >> key >> value)) continue;
    if (key == "VmHWM:") sample.peak_rss_kb = value;
    if (key == "VmRSS:") sample.rss_kb = value;
    if (key == "RssAnon:") sample.rss_anon_kb = value;
  }
  sample.context_switches = ContextSwitches(pid);
  sample.tcp_connections = testsupport::EstablishedTcpConnections(pid);
  return sample;
}

std::optional<std::chrono::steady_clock::time_point> IdleSince(const std::vector<pid_t>& pids,
                                                               std::chrono::seconds timeout) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kStep = std::chrono::milliseconds(250);
  constexpr size_t kWindow = 8;  // steps: 2 s
  std::vector<std::pair<Clock::time_point, double>> samples;
  auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    double cpu = 0;
    for (pid_t pid : pids) {
      auto sample = ReadProcSample(pid);
      if (!sample) return std::nullopt;
      cpu += sample->cpu_seconds;
    }
    samples.emplace_back(Clock::now(), cpu);
    if (samples.size() > kWindow) {
      const auto& first = samples[samples.size() - 1 - kWindow];
      if (cpu - first.second < 0.02) return first.first;
    }
    std::this_thread::sleep_for(kStep);
  }
  return std::nullopt;
}

}  // namespace bench
