#include "metrics/http_listener.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace metrics {
namespace {

std::string ErrnoMessage(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

base::Result<int> Listen(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* result = nullptr;
  int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &result);
  if (rc != 0) return base::Error("listen tcp " + host + ":" + port + ": " + gai_strerror(rc));
  std::string last_error = "no usable address";
  int fd = -1;
  // For the wildcard, prefer IPv6 (dual-stack) and fall back to IPv4.
  for (int family : {AF_INET6, AF_INET}) {
    for (addrinfo* ai = result; ai != nullptr && fd < 0; ai = ai->ai_next) {
      if (ai->ai_family != family) continue;
      fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd < 0) {
        last_error = ErrnoMessage("socket");
        continue;
      }
      int on = 1, off = 0;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
      if (family == AF_INET6 && host.empty()) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
      }
      // The kernel caps the backlog at net.core.somaxconn, the value Go uses:
      // a burst of connections waits there instead of being refused.
      if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0) break;
      last_error = ErrnoMessage("bind");
      close(fd);
      fd = -1;
    }
    if (fd >= 0) break;
  }
  freeaddrinfo(result);
  if (fd < 0) return base::Error("listen tcp " + host + ":" + port + ": " + last_error);
  return fd;
}

int BoundPort(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

}  // namespace

base::Result<TcpListener> ListenTcp(std::string_view address) {
  size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) {
    return base::Error("listen tcp " + std::string(address) + ": missing port in address");
  }
  std::string host(address.substr(0, colon));
  std::string port(address.substr(colon + 1));
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  base::Result<int> fd = Listen(host, port.empty() ? "0" : port);
  if (!fd.ok()) return fd.error();
  return TcpListener{*fd, BoundPort(*fd)};
}

}  // namespace metrics
