// HttpServerLimits: how long and how much the HTTP endpoint grants each
// client (docs/attacher.md §7 row 9; upstream grants unlimited time). The
// defaults suit kubelet probes and Prometheus scrapes (one small request
// each, answered in milliseconds) while an attacker holding many idle or
// half-sent connections neither exhausts the process's descriptors nor
// delays anyone: waits end at a deadline and the connection cap drops the
// longest-waiting connection for a new one.
#pragma once

#include <chrono>
#include <cstddef>

namespace metrics {

struct HttpServerLimits {
  // From accept, or from the first byte of a later request on a kept-alive
  // connection, to the end of its request head. Bytes trickling in do not
  // extend it.
  std::chrono::milliseconds header_timeout{5000};
  // A kept-alive connection waiting for the first byte of its next request.
  std::chrono::milliseconds idle_timeout{10000};
  // Handing one whole response to a client that reads it.
  std::chrono::milliseconds write_timeout{10000};
  // After the last response of a closing connection: discarding what the
  // client still sends until it closes.
  std::chrono::milliseconds linger_timeout{2000};
  // A request head (request line + header fields) longer than this gets 431.
  size_t max_header_bytes = 16 * 1024;
  // Well below the usual 1024-descriptor soft limit, so the API server and
  // CSI connections of the process always find a descriptor.
  size_t max_connections = 256;
};

}  // namespace metrics
