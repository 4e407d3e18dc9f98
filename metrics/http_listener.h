// ListenTcp: the listening socket of the HTTP endpoint, from a Go-style
// "host:port" address (empty host = every interface, dual-stack where
// available, as Go listens; IPv6 literals in brackets; port 0 = any free
// port). Errors read like Go's "listen tcp ...".
#pragma once

#include <string_view>

#include "base/result.h"

namespace metrics {

struct TcpListener {
  int fd;    // owned by the caller
  int port;  // the port actually bound
};

base::Result<TcpListener> ListenTcp(std::string_view address);

}  // namespace metrics
