#include "tests/support/connect_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include "tests/support/loopback_listener.h"

namespace testsupport {
namespace {

constexpr int kSafetySeconds = 10;

bool SendAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

int ConnectLoopback(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
  if (fd >= 0) ::close(fd);
  return -1;
}

}  // namespace

ConnectProxy::ConnectProxy() {
  LoopbackListener listener = ListenOnLoopback("ConnectProxy");
  listen_fd_ = listener.fd;
  port_ = listener.port;
  thread_ = std::jthread([this](std::stop_token stop) { Serve(stop); });
}

ConnectProxy::~ConnectProxy() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
}

std::vector<std::string> ConnectProxy::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

void ConnectProxy::Serve(std::stop_token stop) {
  while (!stop.stop_requested()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    Tunnel(fd, stop);
    ::close(fd);
  }
}

void ConnectProxy::Tunnel(int client, std::stop_token stop) {
  timeval safety{kSafetySeconds, 0};
  ::setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
  std::string head;
  char buffer[16384];
  while (head.find("\r\n\r\n") == std::string::npos) {
    ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
    if (n <= 0) return;
    head.append(buffer, static_cast<size_t>(n));
  }
  {
    std::lock_guard lock(mu_);
    requests_.push_back(head.substr(0, head.find("\r\n\r\n")));
  }
  // "CONNECT host:port HTTP/1.1"
  size_t target_end = head.find(' ', 8);
  size_t colon = head.rfind(':', target_end);
  if (!head.starts_with("CONNECT ") || target_end == std::string::npos ||
      colon == std::string::npos) {
    SendAll(client, "HTTP/1.1 405 Method Not Allowed\r\n\r\n", 36);
    return;
  }
  int upstream = ConnectLoopback(std::atoi(head.c_str() + colon + 1));
  if (upstream < 0) {
    SendAll(client, "HTTP/1.1 502 Bad Gateway\r\n\r\n", 28);
    return;
  }
  constexpr std::string_view kEstablished = "HTTP/1.1 200 Connection established\r\n\r\n";
  SendAll(client, kEstablished.data(), kEstablished.size());
  pollfd fds[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
  while (!stop.stop_requested()) {
    if (frozen_) {
      ::poll(nullptr, 0, 100);
      continue;
    }
    if (::poll(fds, 2, 100) <= 0) continue;
    bool open = true;
    for (int i = 0; i < 2 && open; ++i) {
      if (fds[i].revents == 0) continue;
      ssize_t n = ::recv(fds[i].fd, buffer, sizeof buffer, 0);
      open = n > 0 && SendAll(fds[1 - i].fd, buffer, static_cast<size_t>(n));
    }
    if (!open) break;
  }
  ::close(upstream);
}

}  // namespace testsupport
