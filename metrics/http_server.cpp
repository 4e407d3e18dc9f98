#include "metrics/http_server.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "metrics/http_connection_loop.h"
#include "metrics/http_listener.h"

namespace metrics {

base::Result<std::unique_ptr<HttpServer>> HttpServer::Start(std::string_view address,
                                                            const HttpServerLimits& limits) {
  base::Result<TcpListener> listener = ListenTcp(address);
  if (!listener.ok()) return listener.error();
  int wake = eventfd(0, EFD_CLOEXEC);
  if (wake < 0) {
    std::string error = std::string("eventfd: ") + std::strerror(errno);
    close(listener->fd);
    return base::Error(error);
  }
  std::unique_ptr<HttpServer> server(new HttpServer(listener->fd, wake, listener->port));
  base::Result<std::unique_ptr<HttpConnectionLoop>> loop = HttpConnectionLoop::Create(
      listener->fd, wake, limits,
      [raw = server.get()](std::string_view path) { return raw->Respond(path); });
  if (!loop.ok()) return loop.error();  // the server, not yet serving, closes both
  server->loop_ = std::move(loop).value();
  server->thread_ = std::thread([raw = server.get()] { raw->loop_->Run(); });
  return server;
}

HttpServer::HttpServer(int listen_fd, int wake_fd, int port)
    : listen_fd_(listen_fd), wake_fd_(wake_fd), port_(port) {}

HttpServer::~HttpServer() {
  if (thread_.joinable()) {
    uint64_t one = 1;
    (void)!write(wake_fd_, &one, sizeof(one));
    thread_.join();
  }
  loop_.reset();
  close(listen_fd_);
  close(wake_fd_);
}

void HttpServer::Handle(std::string path, HttpHandler handler) {
  std::lock_guard lock(mu_);
  handlers_[std::move(path)] = std::move(handler);
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
