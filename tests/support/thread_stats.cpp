#include "tests/support/thread_stats.h"

#include <filesystem>
#include <fstream>
#include <string_view>

namespace testsupport {

std::set<std::string> ThreadIds() {
  std::set<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    ids.insert(entry.path().filename().string());
  }
  return ids;
}

std::string ThreadName(const std::string& tid) {
  std::ifstream comm("/proc/self/task/" + tid + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

long VoluntarySwitches(const std::string& tid) {
  constexpr std::string_view kField = "voluntary_ctxt_switches:";
  std::ifstream status("/proc/self/task/" + tid + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with(kField)) return std::stol(line.substr(kField.size()));
  }
  return -1;
}

}  // namespace testsupport
