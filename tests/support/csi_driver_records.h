// What the tests' CSI drivers record of the calls they answered:
// tests/fault_csi_driver's state file (its README, "State file") and the e2e
// mock's log lines "csi-mock call /csi.v1.Controller/<method>: <code>"
// (tools/peers/csi-mock).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace testsupport {

// The fault driver's state file: {} before its first call (no file yet) and
// while it cannot be parsed.
nlohmann::json ReadFaultDriverState(const std::string& path);

// How often the state records Controller `method` (e.g. "CreateVolume"):
// every call received, or with `ok_only` those answered OK.
int CountFaultDriverCalls(const nlohmann::json& state, std::string_view method, bool ok_only);

// The same from the mock's log text.
int CountMockDriverCalls(const std::string& log, std::string_view method, bool ok_only);

}  // namespace testsupport
