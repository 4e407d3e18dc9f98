#include "tests/integration/image/process_user.h"

#include <fstream>
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

}  // namespace image_it
