// What the fault driver's log says about a run. tests/fault_csi_driver writes
// one klog text line per call it received:
//   I1124 10:00:00.123456   4242 call_recorder.cpp:21] "CreateSnapshot"
//     request="{...\"name\":\"snapshot-<uid>\"...}" response="{...}" code="OK" ...
// (local time, microseconds). ReadDriverLog counts the calls per method and
// stamps, per snapshot name, the first CreateSnapshot answer that said
// ready_to_use: the moment the driver was ready, as the caller learnt it.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/result.h"

namespace bench {

struct DriverLog {
  std::map<std::string, double> calls;  // method -> calls received
  std::unordered_map<std::string, std::chrono::system_clock::time_point> first_ready;
};

base::Result<DriverLog> ReadDriverLog(const std::string& path);

// The CSI calls that do work on volumes or snapshots (not GetPluginInfo,
// GetPluginCapabilities, ControllerGetCapabilities or Probe).
double OperationCalls(const DriverLog& log);

// The steady-clock time of a wall-clock time, by the current offset between
// the two clocks.
std::chrono::steady_clock::time_point ToSteady(std::chrono::system_clock::time_point wall);

}  // namespace bench
