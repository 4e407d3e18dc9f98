// RawHttpClient: a raw loopback TCP client for tests of the HTTP endpoint,
// able to send partial or pipelined requests and to read responses one at a
// time by their Content-Length. Every blocking call gives up after a
// generous safety bound, so a broken server fails a test instead of hanging
// it.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace testsupport {

class RawHttpClient {
 public:
  static constexpr int kSafetySeconds = 10;

  explicit RawHttpClient(int port) : fd_(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    timeval safety{kSafetySeconds, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof(safety));
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &safety, sizeof(safety));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  }
  ~RawHttpClient() { close(fd_); }
  RawHttpClient(const RawHttpClient&) = delete;
  RawHttpClient& operator=(const RawHttpClient&) = delete;

  bool connected() const { return connected_; }

  // Sends all of `data`; false if the connection failed first.
  bool Send(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }

  // One whole response (head, then Content-Length bytes of body unless it
  // answers a HEAD request); "" if the connection ended or the safety bound
  // passed first.
  std::string ReadResponse(bool answers_head = false) {
    size_t head_end;
    while ((head_end = buffered_.find("\r\n\r\n")) == std::string::npos) {
      if (!Receive()) return "";
    }
    head_end += 4;
    size_t length = 0;
    const std::string head = buffered_.substr(0, head_end);
    if (size_t at = head.find("Content-Length: "); at != std::string::npos && !answers_head) {
      length = std::strtoul(head.c_str() + at + 16, nullptr, 10);
    }
    while (buffered_.size() < head_end + length) {
      if (!Receive()) return "";
    }
    std::string response = buffered_.substr(0, head_end + length);
    buffered_.erase(0, head_end + length);
    return response;
  }

  // Whether the server closes the connection (end of stream or reset) within
  // the safety bound; what arrives until then is appended to `received`.
  bool AwaitClosed(std::string* received = nullptr) {
    while (Receive()) {
    }
    if (received != nullptr) received->append(buffered_);
    buffered_.clear();
    return closed_by_server_;
  }

  int fd() const { return fd_; }

 private:
  bool Receive() {
    char buffer[65536];
    ssize_t n;
    do {
      n = recv(fd_, buffer, sizeof(buffer), 0);
    } while (n < 0 && errno == EINTR);
    closed_by_server_ = n == 0 || (n < 0 && errno == ECONNRESET);
    if (n <= 0) return false;
    buffered_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  const int fd_;
  bool connected_ = false;
  bool closed_by_server_ = false;
  std::string buffered_;
};

// `count` connections that each sent `first_bytes` (an unfinished request,
// say) and wait; empty if any failed to connect or send.
inline std::vector<std::unique_ptr<RawHttpClient>> OpenWaitingClients(
    int port, int count, std::string_view first_bytes) {
  std::vector<std::unique_ptr<RawHttpClient>> clients;
  for (int i = 0; i < count; ++i) {
    clients.push_back(std::make_unique<RawHttpClient>(port));
    if (!clients.back()->connected() || !clients.back()->Send(first_bytes)) return {};
  }
  return clients;
}

}  // namespace testsupport
