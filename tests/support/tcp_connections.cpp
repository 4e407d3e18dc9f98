#include "tests/support/tcp_connections.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>

namespace testsupport {
namespace {

// "<hex address>:<hex port>" as the tcp tables write an endpoint.
uint16_t Port(const std::string& endpoint) {
  auto colon = endpoint.rfind(':');
  return colon == std::string::npos
             ? 0
             : static_cast<uint16_t>(std::stoul(endpoint.substr(colon + 1), nullptr, 16));
}

}  // namespace

// The process's sockets are its fds linking to "socket:[inode]"; the
// connections among them are the rows of its network namespace's tcp tables
// with that inode (field 10) in state 01, ESTABLISHED (field 4). Fields 2 and
// 3 are the local and remote endpoints.
std::vector<TcpConnection> EstablishedTcpConnectionList(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::unordered_set<std::string> inodes;
  std::error_code error;
  for (const auto& fd : std::filesystem::directory_iterator(proc + "/fd", error)) {
    auto target = std::filesystem::read_symlink(fd.path(), error).string();
    if (!error && target.starts_with("socket:[") && target.ends_with("]")) {
      inodes.insert(target.substr(8, target.size() - 9));
    }
  }
  std::vector<TcpConnection> connections;
  for (const char* table : {"/net/tcp", "/net/tcp6"}) {
    std::ifstream in(proc + table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string field, local, remote, state, inode;
      for (int index = 1; fields >> field && index <= 10; ++index) {
        if (index == 2) local = field;
        if (index == 3) remote = field;
        if (index == 4) state = field;
        if (index == 10) inode = field;
      }
      if (state == "01" && inodes.contains(inode)) {
        connections.push_back({Port(local), Port(remote)});
      }
    }
  }
  return connections;
}

int EstablishedTcpConnections(pid_t pid, std::optional<uint16_t> remote_port) {
  auto connections = EstablishedTcpConnectionList(pid);
  return static_cast<int>(std::count_if(connections.begin(), connections.end(), [&](auto& c) {
    return !remote_port || c.remote_port == *remote_port;
  }));
}

}  // namespace testsupport
