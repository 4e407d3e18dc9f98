// HttpServer: the sidecars' small plain-HTTP/1.1 endpoint (/metrics,
// /healthz/...; docs/attacher.md §4, its limits §7 row 9). Serves exactly the
// registered paths (exact match, query string ignored, any method; HEAD gets
// headers only) and 404 "404 page not found" for everything else.
//
// Clients never wait on each other: one thread runs an epoll loop over
// non-blocking sockets (HttpConnectionLoop), every wait on a client has a
// deadline, and a capped number of connections drops the longest-waiting one
// for a new client (HttpServerLimits). Keep-alive and pipelining are served
// in order; a request head over the limit gets 431.
//
// Thread-safety: Handle() may be called at any time from any thread (the
// leader-election health check is registered after the server starts);
// handlers run on the server's thread, must be quick and must be thread-safe
// against the rest of the program.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/result.h"
#include "metrics/http_limits.h"
#include "metrics/http_response.h"

namespace metrics {

class HttpConnectionLoop;

using HttpHandler = std::function<HttpResponse()>;

class HttpServer {
 public:
  // Listens on `address` ("host:port"; empty host = all interfaces, IPv6
  // literals in brackets, port 0 = any free port) and starts serving. A listen
  // failure is an error (the caller exits 1).
  static base::Result<std::unique_ptr<HttpServer>> Start(std::string_view address,
                                                         const HttpServerLimits& limits = {});
  // Stops serving, closes every connection and the listening socket.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Serves `path` with `handler`, replacing any earlier handler for it.
  void Handle(std::string path, HttpHandler handler);
  // The port actually bound (useful with port 0).
  int port() const { return port_; }

 private:
  HttpServer(int listen_fd, int wake_fd, int port);
  HttpResponse Respond(std::string_view path);

  const int listen_fd_;
  const int wake_fd_;  // eventfd: written once to stop the loop
  const int port_;
  std::mutex mu_;  // guards handlers_
  std::map<std::string, HttpHandler, std::less<>> handlers_;
  std::unique_ptr<HttpConnectionLoop> loop_;
  std::thread thread_;  // runs loop_ until wake_fd_ is written
};

}  // namespace metrics
