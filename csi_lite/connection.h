// csi_lite::Connection: a connection to the CSI driver's unix socket without
// gRPC (csi_lite/grpc_socket.h), for a binary whose few unary calls do not
// justify gRPC's resident code (livenessprobe, docs/node-sidecars.md §4). It
// makes its calls the way csi::Connection does, with the same logs, metrics
// and errors:
//   - Connect dials until the socket accepts, for at most `connect_timeout`,
//     logging "Still connecting" every `log_interval` (10 s); it redials every
//     second, csi::Connect's reconnect backoff cap. A stop request ends the
//     wait at once ("connecting to <uri>: stopped"); the timeout is the error
//     "connecting to <uri>: context deadline exceeded" (both transport errors).
//     There is no loss watcher: callers hold a connection for one check or
//     one start-up call.
//   - Invoke runs one unary call under its own deadline with a V(5) "GRPC
//     call" / "GRPC response" log pair around a report to the metrics hook. A
//     response that does not decode fails the call with Internal, as gRPC's
//     unmarshalling does.
// Not thread-safe: one call at a time.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "base/result.h"
#include "csi/address.h"
#include "csi/call_record.h"
#include "csi_lite/grpc_socket.h"

namespace csi_lite {

struct ConnectOptions {
  std::chrono::nanoseconds connect_timeout = std::chrono::seconds(30);
  std::chrono::nanoseconds log_interval = std::chrono::seconds(10);
  csi::MetricsHook metrics;  // may be empty
  std::stop_token stop;      // ends Connect's wait
};

// Decodes a response's bytes into the caller's message; returns its log JSON.
using ResponseReader = std::function<base::Result<std::string>(std::string_view)>;

class Connection {
 public:
  static base::Result<std::unique_ptr<Connection>> Connect(std::string_view address,
                                                           ConnectOptions options);

  // Calls `method` with the serialized `request` (logged as `request_json`)
  // and hands the response to `read`; the call's error otherwise.
  base::Status Invoke(std::string_view method, std::string_view request,
                      std::string_view request_json, std::chrono::nanoseconds timeout,
                      const ResponseReader& read);

 private:
  Connection(std::unique_ptr<GrpcSocket> socket, csi::MetricsHook metrics)
      : socket_(std::move(socket)), metrics_(std::move(metrics)) {}

  const std::unique_ptr<GrpcSocket> socket_;
  const csi::MetricsHook metrics_;
};

}  // namespace csi_lite
