// The fault driver's faults for one run (tests/fault_csi_driver/README.md,
// "Faults"): its control directory <run dir>/faults, holding faults.json
// when there are rules, e.g. {"CreateSnapshot": [{"delay": "50ms"}]} for a
// driver latency. Written before the driver starts, never changed during
// the run.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "base/result.h"

namespace bench {

// Creates the control directory (and faults.json unless `faults`, method ->
// list of rules, is empty) and returns the driver's --control-dir flag.
base::Result<std::string> FaultControlFlag(const std::string& run_dir,
                                           const nlohmann::json& faults);

// The rule field that makes a call take `latency`: {"delay": "<ms>ms"}.
std::string DelayOf(std::chrono::milliseconds latency);

// FaultControlFlag with one rule: `method` takes `latency` (none when 0).
base::Result<std::string> LatencyControlFlag(const std::string& run_dir, const std::string& method,
                                             std::chrono::milliseconds latency);

}  // namespace bench
