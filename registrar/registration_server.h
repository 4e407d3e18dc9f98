// RegistrationServer: the registration socket kubelet's plugin watcher finds
// (docs/node-sidecars.md §3.2 steps 7-9, §3.5, §9.2). Start removes a socket left
// by an earlier run (anything else at the path is an error), listens with
// umask 0077 so the socket is mode 0700, and serves the Registration service
// on it. While it runs, a watcher re-creates the socket when its file
// vanishes (a preStop `rm`, another instance's clean-up; upstream #57), so
// kubelet can always find the driver. Stop ends serving and removes the
// socket, which makes kubelet deregister the driver. The service is served
// by csi_lite::GrpcServer (no gRPC, docs/node-sidecars.md §3, memory).
//
// Thread-safety: Stop may be called from any thread, once; the service must
// outlive this object. The destructor stops serving and the watcher; only
// Stop promises that the socket file is gone.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

#include "base/result.h"
#include "csi_lite/grpc_server.h"
#include "registrar/registration_service.h"

namespace registrar {

inline constexpr auto kSocketWatchInterval = std::chrono::seconds(1);

class RegistrationServer {
 public:
  static base::Result<std::unique_ptr<RegistrationServer>> Start(
      std::string path, RegistrationService& service,
      std::chrono::nanoseconds watch_interval = kSocketWatchInterval);
  ~RegistrationServer();
  RegistrationServer(const RegistrationServer&) = delete;
  RegistrationServer& operator=(const RegistrationServer&) = delete;

  // Stops the watcher and the server and removes the socket file.
  base::Status Stop();

  const std::string& path() const { return path_; }

 private:
  RegistrationServer(std::string path, RegistrationService& service);
  // Listens at path_ (umask 0077) and starts serving.
  base::Status Listen();
  void Watch(std::stop_token stop, std::chrono::nanoseconds interval);

  const std::string path_;
  RegistrationService& service_;
  std::mutex mu_;  // guards server_
  std::unique_ptr<csi_lite::GrpcServer> server_;
  std::jthread watcher_;  // last: stopped before the server goes
};

}  // namespace registrar
