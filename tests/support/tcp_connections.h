// The TCP connections a process holds, from /proc: for tests that check how
// many connections a client opens, and for the benchmarks' per-binary figures.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace testsupport {

struct TcpConnection {
  uint16_t local_port = 0;
  uint16_t remote_port = 0;
};

// The ESTABLISHED connections (IPv4 and IPv6) among process `pid`'s descriptors.
std::vector<TcpConnection> EstablishedTcpConnectionList(pid_t pid);
// How many of them there are, only those to `remote_port` when one is given.
int EstablishedTcpConnections(pid_t pid, std::optional<uint16_t> remote_port = std::nullopt);

}  // namespace testsupport
