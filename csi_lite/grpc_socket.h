// GrpcSocket: one HTTP/2 connection (prior knowledge, no TLS) to a CSI
// driver's unix socket, carrying unary gRPC calls one at a time on the
// caller's thread - no thread of its own, no gRPC, no protobuf: what
// livenessprobe needs of gRPC (docs/node-sidecars.md §4), for a fraction of
// gRPC's resident code.
//
// A call is POST <method> with content-type application/grpc, te: trailers
// and grpc-timeout, its body the request in one length-prefixed message
// (uncompressed). The answer is the response message, or the call's status
// as a csi::StatusError (csi/status_error.h):
//   grpc-status != 0 (trailers, or a trailers-only answer)  that code, the
//                                     percent-decoded grpc-message
//   `deadline` passed                 DeadlineExceeded "context deadline exceeded"
//   connection closed or failed       Unavailable
//   no grpc-status: HTTP status 200   Internal; others mapped as gRPC does
//                                     (404 Unimplemented, 503 Unavailable, ...)
//   stream reset, malformed body      Internal (refused stream: Unavailable)
//   response over 4 MiB               ResourceExhausted, gRPC's default limit
//
// Not thread-safe: one caller at a time.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"

struct nghttp2_session;

namespace csi_lite {

class GrpcSocket {
 public:
  // Connects to the unix socket at `path` (non-blocking: a socket nobody
  // listens on, or whose backlog is full, is an error at once) and queues
  // the client preface, sent with the first call.
  static base::Result<std::unique_ptr<GrpcSocket>> Open(const std::string& path);
  ~GrpcSocket();
  GrpcSocket(const GrpcSocket&) = delete;
  GrpcSocket& operator=(const GrpcSocket&) = delete;

  // One unary call of `method` ("/csi.v1.Identity/Probe") with the
  // serialized `request`: the serialized response, or the status (above).
  base::Result<std::string> Call(std::string_view method, std::string_view request,
                                 std::chrono::steady_clock::time_point deadline);

 private:
  struct Stream;  // one call's state, seen by nghttp2's callbacks

  GrpcSocket(int fd, nghttp2_session* session) : fd_(fd), session_(session) {}

  // Writes what nghttp2 has queued by `deadline`; the call's error otherwise.
  base::Status Flush(std::chrono::steady_clock::time_point deadline);
  // Waits for the socket to be ready for `events` until `deadline`.
  base::Status Wait(short events, std::chrono::steady_clock::time_point deadline);

  const int fd_;
  nghttp2_session* const session_;
};

}  // namespace csi_lite
