#include "tests/support/http_get.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "tests/support/cluster_polls.h"

namespace testsupport {

std::string HttpGet(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return "";
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    char buf[8192];
    for (ssize_t n; (n = recv(fd, buf, sizeof(buf), 0)) > 0;) response.append(buf, n);
  }
  close(fd);
  return response;
}

namespace {

std::string JoinChunks(const std::string& body) {
  std::string joined;
  size_t at = 0;
  while (at < body.size()) {
    const size_t line_end = body.find("\r\n", at);
    if (line_end == std::string::npos) break;
    const size_t size = std::stoul(body.substr(at, line_end - at), nullptr, 16);
    if (size == 0) break;
    joined += body.substr(line_end + 2, size);
    at = line_end + 2 + size + 2;  // the chunk and its CRLF
  }
  return joined;
}

}  // namespace

std::string HttpBody(const std::string& response) {
  auto blank = response.find("\r\n\r\n");
  if (blank == std::string::npos) return "";
  std::string body = response.substr(blank + 4);
  const bool chunked =
      response.substr(0, blank).find("Transfer-Encoding: chunked") != std::string::npos;
  return chunked ? JoinChunks(body) : body;
}

std::optional<double> SeriesValue(const std::string& body, const std::string& family,
                                  const std::vector<std::string>& labels) {
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(family + "{")) continue;
    bool all = true;
    for (const std::string& label : labels) all = all && line.find(label) != std::string::npos;
    const size_t value_at = line.rfind(' ');
    if (all && value_at != std::string::npos)
      return std::strtod(line.c_str() + value_at + 1, nullptr);
  }
  return std::nullopt;
}

std::string AwaitSeries(int port, const std::string& family, const std::vector<std::string>& labels,
                        std::chrono::milliseconds timeout) {
  std::string body;
  PollUntil(
      [&] {
        body = HttpBody(HttpGet(port, "/metrics"));
        return HasSeries(body, family, labels);
      },
      timeout);
  return body;
}

}  // namespace testsupport
