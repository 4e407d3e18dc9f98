// What the tests' CSI drivers record of the calls they answered:
// tests/fault_csi_driver's state file (its README, "State file") and the e2e
// mock's log lines "csi-mock call /csi.v1.Controller/<method>: <code>"
// (tools/peers/csi-mock).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

// The fault driver's state file: {} before its first call (no file yet) and
// while it cannot be parsed.
nlohmann::json ReadFaultDriverState(const std::string& path);

// How often the state records Controller `method` (e.g. "CreateVolume"):
// every call received, or with `ok_only` those answered OK.
int CountFaultDriverCalls(const nlohmann::json& state, std::string_view method, bool ok_only);

// The same from the mock's log text.
int CountMockDriverCalls(const std::string& log, std::string_view method, bool ok_only);

// The node IDs of the mock's ControllerPublishVolume or
// ControllerUnpublishVolume calls (`method`), in the order it logged them
// ("csi-mock call /csi.v1.Controller/<method>: <code> volume=<id> node=<id>"):
// every call, or with `ok_only` those answered OK.
std::vector<std::string> MockDriverCallNodeIds(const std::string& log, std::string_view method,
                                               bool ok_only);

}  // namespace testsupport
