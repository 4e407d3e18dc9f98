// What /proc says about one process: CPU seconds (utime + stime of that
// process alone, children excluded), peak RSS (VmHWM), current RSS (VmRSS)
// and its anonymous part (RssAnon: heap and stacks, without the file-backed
// pages of the binary and its shared libraries, which dominate a small RSS),
// the context switches of its live threads and its established TCP
// connections; and when a set of processes went idle.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <vector>

namespace bench {

struct ProcSample {
  double cpu_seconds = 0;
  long peak_rss_kb = 0;
  long rss_kb = 0;
  long rss_anon_kb = 0;
  long context_switches = 0;  // voluntary + involuntary, threads alive now
  int tcp_connections = 0;    // ESTABLISHED, IPv4 and IPv6
};

// nullopt once the process is gone (or was never there).
std::optional<ProcSample> ReadProcSample(pid_t pid);

// Samples the processes' CPU time every 250 ms and returns the start of the
// first 2 s window in which they used under 20 ms of CPU together; nullopt
// when one of them is gone or `timeout` passes first.
std::optional<std::chrono::steady_clock::time_point> IdleSince(const std::vector<pid_t>& pids,
                                                               std::chrono::seconds timeout);

}  // namespace bench
