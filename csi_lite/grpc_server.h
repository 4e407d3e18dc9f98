// GrpcServer: unary gRPC calls served on a unix socket without gRPC - HTTP/2
// prior knowledge on nghttp2's server side, one thread polling the listening
// socket and every connection - for the registrar's registration service
// (docs/node-sidecars.md §3.3 and §3's memory), whose two small calls do not justify
// gRPC's resident code and threads.
//
// A call is POST <method> with content-type application/grpc and one
// uncompressed length-prefixed message; its handler runs on the server's
// thread. The answer is headers (:status 200, content-type
// application/grpc), the response message and the trailer grpc-status 0; a
// failed call is a trailers-only answer with grpc-status and the
// percent-encoded grpc-message:
//   unknown method                     Unimplemented
//   not a gRPC request, malformed or   Internal
//   compressed body, trailing bytes
//   request over 4 MiB                 ResourceExhausted, gRPC's default limit
//   handler error                      its code (csi/status_error.h; Unknown
//                                      for one that is not a gRPC status)
// Any :authority is accepted, as gRPC servers do (kubelet's grpc-go sends
// the socket path). A connection that breaks HTTP/2 is closed; the others
// keep being served.
//
// Thread-safety: Stop may be called from any thread; the handlers must be
// safe to run on the server's thread and outlive the server.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "base/result.h"

namespace csi_lite {

// The request message's bytes to the response's, or the call's error.
using UnaryHandler = std::function<base::Result<std::string>(std::string_view request)>;
// Full method names ("/pluginregistration.Registration/GetInfo") to handlers.
using UnaryMethods = std::map<std::string, UnaryHandler, std::less<>>;

class GrpcServer {
 public:
  // Listens at `path` (the file must not exist; the caller's umask sets its
  // mode) and serves `methods` until Stop; "listen unix <path>: ..." errors.
  static base::Result<std::unique_ptr<GrpcServer>> Start(const std::string& path,
                                                         UnaryMethods methods);
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // Closes every connection and the listening socket at once, calls in
  // flight included. The socket file stays: its owner removes it.
  void Stop();

 private:
  GrpcServer(int listen_fd, int wake_fd, UnaryMethods methods);
  void Serve();

  const int listen_fd_;
  const int wake_fd_;  // an eventfd: Stop's write ends Serve's poll
  const UnaryMethods methods_;
  std::thread thread_;
};

}  // namespace csi_lite
