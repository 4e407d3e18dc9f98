#include "tests/support/scripted_http_server.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "tests/support/loopback_listener.h"

namespace testsupport {
namespace {

void WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return;
    data.remove_prefix(static_cast<size_t>(n));
  }
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

const char* ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 404:
      return "Not Found";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

}  // namespace

std::string StatusBody(int code, std::string_view reason, std::string_view message) {
  return nlohmann::json{{"kind", "Status"},   {"apiVersion", "v1"}, {"status", "Failure"},
                        {"message", message}, {"reason", reason},   {"code", code}}
      .dump();
}

ScriptedHttpServer::ScriptedHttpServer() {
  LoopbackListener listener = ListenOnLoopback("ScriptedHttpServer");
  listen_fd_ = listener.fd;
  port_ = listener.port;
  thread_ = std::jthread([this] { Serve(); });
}

ScriptedHttpServer::~ScriptedHttpServer() {
  thread_.request_stop();
  ::shutdown(listen_fd_, SHUT_RDWR);
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
}

std::string ScriptedHttpServer::url() const { return fmt::format("http://127.0.0.1:{}", port_); }

void ScriptedHttpServer::Script(ScriptedResponse response) {
  std::lock_guard lock(mu_);
  script_.push_back(std::move(response));
}

std::vector<RecordedRequest> ScriptedHttpServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

bool ScriptedHttpServer::CloseIdleConnection() {
  std::unique_lock lock(mu_);
  close_idle_requested_ = true;
  bool closed = idle_closed_.wait_for(lock, std::chrono::seconds(10),
                                      [this] { return !close_idle_requested_; });
  close_idle_requested_ = false;
  return closed;
}

bool ScriptedHttpServer::AwaitNextRequest(int fd) {
  while (!thread_.get_stop_token().stop_requested()) {
    {
      std::lock_guard lock(mu_);
      if (close_idle_requested_) {
        close_idle_requested_ = false;
        idle_closed_.notify_all();
        return false;
      }
    }
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20) > 0) return true;  // a request, or the client's close
  }
  return false;
}

void ScriptedHttpServer::Serve() {
  int connections = 0;
  while (!thread_.get_stop_token().stop_requested()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    ++connections;
    while (Handle(fd, connections) && AwaitNextRequest(fd)) {
    }
    ::close(fd);
  }
}

bool ScriptedHttpServer::Handle(int fd, int connection) {
  std::string data;
  char buf[4096];
  size_t header_end;
  while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return false;
    data.append(buf, static_cast<size_t>(n));
  }
  RecordedRequest request;
  request.connection = connection;
  std::string head = data.substr(0, header_end);
  size_t line_end = head.find("\r\n");
  std::string request_line = head.substr(0, line_end);
  size_t sp1 = request_line.find(' '), sp2 = request_line.rfind(' ');
  request.method = request_line.substr(0, sp1);
  request.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
  size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
  while (pos < head.size()) {
    size_t end = head.find("\r\n", pos);
    if (end == std::string::npos) end = head.size();
    std::string line = head.substr(pos, end - pos);
    if (size_t colon = line.find(':'); colon != std::string::npos) {
      std::string value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      request.headers[Lower(line.substr(0, colon))] = value;
    }
    pos = end + 2;
  }
  size_t content_length = 0;
  if (auto it = request.headers.find("content-length"); it != request.headers.end()) {
    content_length = std::stoul(it->second);
  }
  request.body = data.substr(header_end + 4);
  while (request.body.size() < content_length) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    request.body.append(buf, static_cast<size_t>(n));
  }

  ScriptedResponse response;
  {
    std::lock_guard lock(mu_);
    requests_.push_back(std::move(request));
    if (script_.empty()) {
      response.status = 500;
      response.body_chunks = {StatusBody(500, "InternalError", "no scripted response")};
    } else {
      response = std::move(script_.front());
      script_.pop_front();
    }
  }
  if (response.drop_without_answer) return false;
  std::string out =
      fmt::format("HTTP/1.1 {} {}\r\n", response.status, ReasonPhrase(response.status));
  if (!response.keep_alive) {
    out += "Connection: close\r\n";
  } else if (!response.headers.contains("Content-Length") &&
             !response.headers.contains("Transfer-Encoding")) {
    size_t length = 0;
    for (const auto& chunk : response.body_chunks) length += chunk.size();
    out += fmt::format("Content-Length: {}\r\n", length);
  }
  for (const auto& [name, value] : response.headers) out += fmt::format("{}: {}\r\n", name, value);
  out += "\r\n";
  WriteAll(fd, out);
  for (const auto& chunk : response.body_chunks) WriteAll(fd, chunk);
  return response.keep_alive;
}

}  // namespace testsupport
