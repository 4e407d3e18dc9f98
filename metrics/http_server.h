// HttpServer: the sidecar's small plain-HTTP/1.1 endpoint (BEHAVIOR.md §4).
// Serves exactly the registered paths (exact match, query string ignored, any
// method; HEAD gets headers only) and 404 "404 page not found" for everything
// else. One acceptor thread handles each connection to completion, one
// request per connection ("Connection: close"), with 5 s socket timeouts so a
// stalled client cannot hold it for long: scrapes and probes are rare and
// cheap.
//
// Thread-safety: Handle() may be called at any time from any thread (the
// leader-election health check is registered after the server starts);
// handlers run on the acceptor thread and must be thread-safe against the
// rest of the program.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/result.h"

namespace metrics {

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain; charset=utf-8";
};
using HttpHandler = std::function<HttpResponse()>;

class HttpServer {
 public:
  // Listens on `address` ("host:port"; empty host = all interfaces, IPv6
  // literals in brackets, port 0 = any free port) and starts serving. A listen
  // failure is an error (the caller exits 1).
  static base::Result<std::unique_ptr<HttpServer>> Start(std::string_view address);
  // Stops accepting, waits for the request being handled, closes the socket.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Serves `path` with `handler`, replacing any earlier handler for it.
  void Handle(std::string path, HttpHandler handler);
  // The port actually bound (useful with port 0).
  int port() const { return port_; }

 private:
  HttpServer(int listen_fd, int wake_fd, int port);
  void AcceptLoop();
  void Serve(int fd);
  HttpResponse Respond(std::string_view path);

  const int listen_fd_;
  const int wake_fd_;  // eventfd: written once to stop the acceptor
  const int port_;
  std::mutex mu_;  // guards handlers_
  std::map<std::string, HttpHandler, std::less<>> handlers_;
  std::thread acceptor_;  // last: starts after everything it uses
};

}  // namespace metrics
