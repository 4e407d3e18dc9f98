#include "registrar/registration_server.h"

#include <sys/stat.h>

#include <cerrno>
#include <condition_variable>

#include "base/log.h"
#include "registrar/socket_file.h"

namespace registrar {

base::Result<std::unique_ptr<RegistrationServer>> RegistrationServer::Start(
    std::string path, RegistrationService& service, std::chrono::nanoseconds watch_interval) {
  if (base::Status s = RemoveStaleSocket(path); !s.ok()) return s.error();
  std::unique_ptr<RegistrationServer> server(new RegistrationServer(std::move(path), service));
  if (base::Status s = server->Listen(); !s.ok()) return s.error();
  server->watcher_ = std::jthread([raw = server.get(), watch_interval](std::stop_token stop) {
    raw->Watch(stop, watch_interval);
  });
  return server;
}

RegistrationServer::RegistrationServer(std::string path, RegistrationService& service)
    : path_(std::move(path)), service_(service) {}

RegistrationServer::~RegistrationServer() {
  watcher_ = {};
  std::lock_guard lock(mu_);
  server_.reset();
}

base::Status RegistrationServer::Listen() {
  LOG_INFO("Starting Registration Server").With("socketPath", path_);
  // Only the owner may connect (kubelet runs as root): the socket is made 0700.
  const mode_t old_mask = ::umask(0077);
  auto server = csi_lite::GrpcServer::Start(path_, service_.Methods());
  ::umask(old_mask);
  if (!server.ok()) return server.error();
  LOG_INFO("Registration Server started").With("socketPath", path_);
  std::lock_guard lock(mu_);
  server_ = std::move(server).value();
  return base::Status::Ok();
}

void RegistrationServer::Watch(std::stop_token stop, std::chrono::nanoseconds interval) {
  std::mutex mu;
  std::condition_variable_any wake;
  while (true) {
    {
      std::unique_lock lock(mu);
      wake.wait_for(lock, stop, interval, [] { return false; });
    }
    if (stop.stop_requested()) return;
    struct stat st {};
    if (::lstat(path_.c_str(), &st) == 0 || errno != ENOENT) continue;
    // Whatever is at the path now is someone else's; only a vanished file is re-created.
    LOG_ERROR("Registration socket vanished, creating it again").With("socketPath", path_);
    {
      std::lock_guard lock(mu_);
      server_.reset();
    }
    if (base::Status s = Listen(); !s.ok()) {
      LOG_ERROR("Failed to listen on socket")
          .With("err", s.error().message)
          .With("socketPath", path_);
    }
  }
}

base::Status RegistrationServer::Stop() {
  watcher_ = {};
  {
    std::lock_guard lock(mu_);
    server_.reset();
  }
  return RemoveSocket(path_);
}

}  // namespace registrar
