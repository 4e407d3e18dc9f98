#include "metrics/http_server.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace metrics {
namespace {

constexpr size_t kMaxHeaderBytes = 16 * 1024;
constexpr int kSocketTimeoutSeconds = 5;

std::string Errno(std::string_view what) { return std::string(what) + ": " + std::strerror(errno); }

std::string_view Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

void WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    data.remove_prefix(static_cast<size_t>(n));
  }
}

// Binds and listens on `host`:`port`; an empty host means every interface
// (IPv6 wildcard, dual-stack where available, as Go does).
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
        last_error = Errno("socket");
        continue;
      }
      int on = 1, off = 0;
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
      if (family == AF_INET6 && host.empty()) {
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
      }
      if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0) break;
      last_error = Errno("bind");
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

base::Result<std::unique_ptr<HttpServer>> HttpServer::Start(std::string_view address) {
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
  int wake = eventfd(0, EFD_CLOEXEC);
  if (wake < 0) {
    std::string error = Errno("eventfd");
    close(*fd);
    return base::Error(error);
  }
  return std::unique_ptr<HttpServer>(new HttpServer(*fd, wake, BoundPort(*fd)));
}

HttpServer::HttpServer(int listen_fd, int wake_fd, int port)
    : listen_fd_(listen_fd), wake_fd_(wake_fd), port_(port), acceptor_([this] { AcceptLoop(); }) {}

HttpServer::~HttpServer() {
  uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof(one));
  acceptor_.join();
  close(listen_fd_);
  close(wake_fd_);
}

void HttpServer::Handle(std::string path, HttpHandler handler) {
  std::lock_guard lock(mu_);
  handlers_[std::move(path)] = std::move(handler);
}

void HttpServer::AcceptLoop() {
  pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  while (true) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    timeval timeout{kSocketTimeoutSeconds, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
    Serve(fd);
    close(fd);
  }
}

void HttpServer::Serve(int fd) {
  std::string request;
  char buf[4096];
  while (request.find("\r\n\r\n") == std::string::npos) {
    if (request.size() > kMaxHeaderBytes) return;
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    request.append(buf, static_cast<size_t>(n));
  }
  // Request line: METHOD SP target SP version.
  size_t method_end = request.find(' ');
  size_t target_end =
      method_end == std::string::npos ? method_end : request.find(' ', method_end + 1);
  if (target_end == std::string::npos) {
    WriteAll(fd, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    return;
  }
  std::string_view method(request.data(), method_end);
  std::string_view target(request.data() + method_end + 1, target_end - method_end - 1);
  target = target.substr(0, target.find('?'));
  HttpResponse response = Respond(target);

  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " ";
  head.append(Reason(response.status)).append("\r\nContent-Type: ").append(response.content_type);
  head.append("\r\nContent-Length: ").append(std::to_string(response.body.size()));
  head.append("\r\nConnection: close\r\n\r\n");
  WriteAll(fd, head);
  if (method != "HEAD") WriteAll(fd, response.body);
  shutdown(fd, SHUT_WR);
}

HttpResponse HttpServer::Respond(std::string_view path) {
  HttpHandler handler;
  {
    std::lock_guard lock(mu_);
    auto it = handlers_.find(path);
    if (it != handlers_.end()) handler = it->second;
  }
  if (!handler) return HttpResponse{404, "404 page not found\n"};
  return handler();
}

}  // namespace metrics
