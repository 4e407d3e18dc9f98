#include "registrar/registration_server.h"

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
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
  if (server_) server_->Shutdown(std::chrono::system_clock::now());
}

base::Status RegistrationServer::Listen() {
  LOG_INFO("Starting Registration Server").With("socketPath", path_);
  grpc::ServerBuilder builder;
  // One completion queue and one poller: kubelet calls rarely and one at a time.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 1);
  int bound = 0;
  builder.AddListeningPort("unix:" + path_, grpc::InsecureServerCredentials(), &bound);
  builder.RegisterService(&service_);
  // Only the owner may connect (kubelet runs as root): the socket is made 0700.
  const mode_t old_mask = ::umask(0077);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ::umask(old_mask);
  if (!server || bound == 0) {
    return base::Error("listen unix " + path_ + ": cannot bind the registration socket");
  }
  LOG_INFO("Registration Server started").With("socketPath", path_);
  std::lock_guard lock(mu_);
  server_ = std::move(server);
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
      if (server_) server_->Shutdown(std::chrono::system_clock::now());
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
    if (server_) server_->Shutdown(std::chrono::system_clock::now());
    server_.reset();
  }
  return RemoveSocket(path_);
}

}  // namespace registrar
