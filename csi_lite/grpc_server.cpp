#include "csi_lite/grpc_server.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "base/log.h"
#include "csi_lite/grpc_server_connection.h"

namespace csi_lite {
namespace {

// Connections waiting for accept: kubelet holds one, a probe or test a few more.
constexpr int kBacklog = 16;
constexpr auto kAcceptRetryPause = std::chrono::milliseconds(100);

base::Error ListenError(const std::string& path, std::string_view step, int error) {
  return base::Error(fmt::format("listen unix {}: {}: {}", path, step, std::strerror(error)));
}

// Accepts every connection waiting on `listen_fd` into `connections`.
void AcceptAll(int listen_fd, const UnaryMethods& methods,
               std::vector<std::unique_ptr<ServerConnection>>& connections) {
  while (true) {
    int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno != EAGAIN) {
        LOG_ERROR("Accepting a gRPC connection failed").With("err", std::strerror(errno));
        // Out of descriptors, say: the listening socket stays readable, and
        // without a pause the loop would spin and log at full speed.
        std::this_thread::sleep_for(kAcceptRetryPause);
      }
      return;
    }
    auto connection = ServerConnection::Open(fd, methods);
    if (!connection) continue;  // no memory for a session: Open closed it; keep serving
    // The server's SETTINGS go out at once, as gRPC's do.
    if (connection->OnReady(0)) connections.push_back(std::move(connection));
  }
}

}  // namespace

base::Result<std::unique_ptr<GrpcServer>> GrpcServer::Start(const std::string& path,
                                                            UnaryMethods methods) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) {
    return base::Error(fmt::format("listen unix {}: socket path too long", path));
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return ListenError(path, "socket", errno);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(fd, kBacklog) != 0) {
    int error = errno;
    ::close(fd);
    return ListenError(path, "bind", error);
  }
  int wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (wake < 0) {
    int error = errno;
    ::close(fd);
    return ListenError(path, "eventfd", error);
  }
  std::unique_ptr<GrpcServer> server(new GrpcServer(fd, wake, std::move(methods)));
  server->thread_ = std::thread([raw = server.get()] { raw->Serve(); });
  return server;
}

GrpcServer::GrpcServer(int listen_fd, int wake_fd, UnaryMethods methods)
    : listen_fd_(listen_fd), wake_fd_(wake_fd), methods_(std::move(methods)) {}

GrpcServer::~GrpcServer() {
  Stop();
  ::close(wake_fd_);
  ::close(listen_fd_);
}

void GrpcServer::Stop() {
  const uint64_t one = 1;
  (void)::write(wake_fd_, &one, sizeof(one));
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void GrpcServer::Serve() {
  std::vector<std::unique_ptr<ServerConnection>> connections;
  std::vector<pollfd> polled;
  while (true) {
    polled.assign({{wake_fd_, POLLIN, 0}, {listen_fd_, POLLIN, 0}});
    for (const auto& connection : connections) {
      polled.push_back({connection->fd(), connection->Events(), 0});
    }
    if (::poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) continue;
      LOG_ERROR("gRPC server poll failed").With("err", std::strerror(errno));
      return;
    }
    if (polled[0].revents != 0) return;  // Stop; the connections close with this scope
    // Connections first: accepting appends to the list `polled` indexes.
    for (size_t i = connections.size(); i-- > 0;) {
      short revents = polled[i + 2].revents;
      if (revents != 0 && !connections[i]->OnReady(revents)) {
        connections.erase(connections.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    if (polled[1].revents != 0) AcceptAll(listen_fd_, methods_, connections);
  }
}

}  // namespace csi_lite
