#include "tests/support/csi_driver_records.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace testsupport {

nlohmann::json ReadFaultDriverState(const std::string& path) {
  std::ifstream in(path);
  nlohmann::json state = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  return state.is_discarded() ? nlohmann::json::object() : state;
}

int CountFaultDriverCalls(const nlohmann::json& state, std::string_view method, bool ok_only) {
  int count = 0;
  for (const auto& call : state.value("calls", nlohmann::json::array())) {
    count += call.value("method", "") == method && (!ok_only || call.value("code", "") == "OK");
  }
  return count;
}

int CountMockDriverCalls(const std::string& log, std::string_view method, bool ok_only) {
  const std::string line =
      fmt::format("csi-mock call /csi.v1.Controller/{}: {}", method, ok_only ? "OK" : "");
  int count = 0;
  for (auto pos = log.find(line); pos != std::string::npos; pos = log.find(line, pos + 1)) {
    ++count;
  }
  return count;
}

std::vector<std::string> MockDriverCallNodeIds(const std::string& log, std::string_view method,
                                               bool ok_only) {
  const std::string call = fmt::format("csi-mock call /csi.v1.Controller/{}: ", method);
  constexpr std::string_view kNode = " node=";
  std::vector<std::string> node_ids;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const auto at = line.find(call);
    if (at == std::string::npos) continue;
    if (ok_only && line.compare(at + call.size(), 3, "OK ") != 0) continue;
    const auto node = line.find(kNode, at);
    if (node != std::string::npos) node_ids.push_back(line.substr(node + kNode.size()));
  }
  return node_ids;
}

}  // namespace testsupport
