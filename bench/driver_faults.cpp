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

}  // namespace bench
