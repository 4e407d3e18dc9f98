// What /proc says about one process: CPU seconds (utime + stime of that
// process alone, children excluded), peak RSS (VmHWM), current RSS (VmRSS)
// and its anonymous part (RssAnon: heap and stacks, without the file-backed
// pages of the binary and its shared libraries, which dominate a small RSS).
#pragma once

#include <sys/types.h>

#include <optional>

namespace bench {

struct ProcSample {
  double cpu_seconds = 0;
  long peak_rss_kb = 0;
  long rss_kb = 0;
  long rss_anon_kb = 0;
};

// nullopt once the process is gone (or was never there).
std::optional<ProcSample> ReadProcSample(pid_t pid);

}  // namespace bench
