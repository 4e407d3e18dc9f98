#include "metrics/process_collector.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

namespace metrics {
namespace {

// The fields of /proc/self/stat the collector reports.
struct ProcStat {
  double utime_ticks = 0;
  double stime_ticks = 0;
  double start_ticks = 0;  // since boot
  double vsize_bytes = 0;
  double rss_pages = 0;
};

ProcStat ReadProcStat() {
  ProcStat stat;
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return stat;
  // The command name may hold spaces; fields resume after its closing ')'.
  std::istringstream fields(line.substr(line.rfind(')') + 2));
  std::string field;
  // Field 3 (state) is the first after ')'; utime is field 14.
  for (int index = 3; fields >> field; ++index) {
    if (index == 14) stat.utime_ticks = std::stod(field);
    if (index == 15) stat.stime_ticks = std::stod(field);
    if (index == 22) stat.start_ticks = std::stod(field);
    if (index == 23) stat.vsize_bytes = std::stod(field);
    if (index == 24) {
      stat.rss_pages = std::stod(field);
      break;
    }
  }
  return stat;
}

double BootTimeSeconds() {
  std::ifstream in("/proc/stat");
  std::string key;
  double value = 0;
  while (in >> key) {
    if (key == "btime") {
      in >> value;
      return value;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

double OpenFds() {
  std::error_code error;
  double count = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end; !error && it != end;
       it.increment(error)) {
    ++count;
  }
  return count;
}

double Limit(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0) return 0;
  return static_cast<double>(limit.rlim_cur);
}

std::vector<Sample> One(double value) { return {Sample{{}, value}}; }

void AddFunction(Registry& registry, Desc desc, Type type, std::function<double()> read) {
  FunctionFamily& family = registry.AddFunctions(std::move(desc), type);
  family.Add([read = std::move(read)] { return One(read()); }).Release();
}

}  // namespace

void RegisterProcessCollector(Registry& registry) {
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  AddFunction(registry,
              {"process_cpu_seconds_total", "Total user and system CPU time spent in seconds."},
              Type::kCounter, [ticks] {
                ProcStat stat = ReadProcStat();
                return (stat.utime_ticks + stat.stime_ticks) / ticks;
              });
  AddFunction(registry, {"process_open_fds", "Number of open file descriptors."}, Type::kGauge,
              OpenFds);
  AddFunction(registry, {"process_max_fds", "Maximum number of open file descriptors."},
              Type::kGauge, [] { return Limit(RLIMIT_NOFILE); });
  AddFunction(registry, {"process_virtual_memory_bytes", "Virtual memory size in bytes."},
              Type::kGauge, [] { return ReadProcStat().vsize_bytes; });
  AddFunction(
      registry,
      {"process_virtual_memory_max_bytes", "Maximum amount of virtual memory available in bytes."},
      Type::kGauge, [] { return Limit(RLIMIT_AS); });
  AddFunction(registry, {"process_resident_memory_bytes", "Resident memory size in bytes."},
              Type::kGauge, [page] { return ReadProcStat().rss_pages * page; });
  AddFunction(registry,
              {"process_start_time_seconds",
               "Start time of the process since unix epoch in seconds.", Stability::kAlpha},
              Type::kGauge,
              [ticks] { return BootTimeSeconds() + ReadProcStat().start_ticks / ticks; });
}

}  // namespace metrics
