#include "bench/driver_faults.h"

#include <filesystem>
#include <fstream>

namespace bench {

base::Result<std::string> FaultControlFlag(const std::string& run_dir,
                                           const nlohmann::json& faults) {
  const std::string control_dir = run_dir + "/faults";
  std::filesystem::create_directories(control_dir);
  if (!faults.empty()) {
    std::ofstream out(control_dir + "/faults.json");
    out << faults.dump() << '\n';
    if (!out) return base::Error("cannot write " + control_dir + "/faults.json");
  }
  return "--control-dir=" + control_dir;
}

std::string DelayOf(std::chrono::milliseconds latency) {
  return std::to_string(latency.count()) + "ms";
}

base::Result<std::string> LatencyControlFlag(const std::string& run_dir, const std::string& method,
                                             std::chrono::milliseconds latency) {
  nlohmann::json faults = nlohmann::json::object();
  if (latency.count() > 0) {
    faults[method] = nlohmann::json::array({{{"delay", DelayOf(latency)}}});
  }
  return FaultControlFlag(run_dir, faults);
}

}  // namespace bench
