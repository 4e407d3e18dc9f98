#include "tests/integration/image/process_facts.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace image_it {

std::optional<int> RealUserOf(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    // "Uid:\t<real>\t<effective>\t<saved>\t<filesystem>"
    if (line.rfind("Uid:", 0) == 0) return std::stoi(line.substr(4));
  }
  return std::nullopt;
}

std::set<int> ThreadPoliciesOf(pid_t pid) {
  std::set<int> policies;
  std::error_code error;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
    std::ifstream file(task.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    // proc(5): "pid (comm) state ..." - comm may hold spaces and parentheses,
    // so fields are counted after the last ')'; policy is field 41.
    const size_t comm_end = stat.rfind(')');
    if (comm_end == std::string::npos) continue;
    std::istringstream fields(stat.substr(comm_end + 1));
    std::string field;
    for (int number = 3; fields >> field; ++number) {
      if (number == 41) {
        policies.insert(std::stoi(field));
        break;
      }
    }
  }
  return policies;
}

}  // namespace image_it
