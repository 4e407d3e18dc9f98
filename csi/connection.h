// A connection to the CSI driver's unix socket, set up like upstream's
// connection.Connect with ExitOnConnectionLoss (docs/attacher.md §2):
//   - Connect blocks until the channel is READY, for at most
//     `connect_timeout` (30 s), logging "Still connecting" every
//     `log_interval` (10 s); no TLS, reconnect backoff capped at 1 s, no idle
//     timeout, gRPC's default 4 MiB receive limit. A stop request ends
//     the wait within kConnectStopLatency (an error), so a SIGTERM while the
//     driver is still starting never waits out the timeout.
//   - Once connected, a watcher notices the channel leaving READY (the driver
//     closed its socket or died), logs "Lost connection", writes "Lost
//     connection to CSI driver, exiting" to `termination_log_path` (0644;
//     failure only logged), logs that message and calls `on_connection_loss`
//     (default: exit 1). It fires at most once.
//   - Invoke runs one unary call under its own deadline, the way upstream's
//     interceptor chain does: a V(5) "GRPC call" / "GRPC response" log pair
//     (secrets stripped, response capped at max_grpc_log_length characters
//     when > 0) around a report to the metrics hook.
// Thread-safe: any number of threads may Invoke at once. The Connection must
// be destroyed before anything its callbacks use.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>

#include "base/clock.h"
#include "base/log.h"
#include "base/result.h"
#include "csi/address.h"
#include "csi/call_record.h"

namespace google::protobuf {
class Message;
}
namespace grpc {
class Channel;
class ClientContext;
class Status;
}  // namespace grpc

namespace csi {

struct ConnectOptions {
  std::chrono::nanoseconds connect_timeout = std::chrono::seconds(30);
  std::chrono::nanoseconds log_interval = std::chrono::seconds(10);
  MetricsHook metrics;  // may be empty
  int max_grpc_log_length = -1;
  std::string termination_log_path = "/dev/termination-log";
  std::function<void()> on_connection_loss = [] { base::FlushAndExit(1); };
  // False: no loss watcher at all (no thread, no termination message, no
  // callback); for short-lived connections and callers that notice a lost
  // driver through their own calls or the channel's state.
  bool watch_for_loss = true;
  // Measures call durations and paces ProbeForever's retries.
  base::Clock* clock = &base::Clock::Real();
  // Ends Connect's wait (see above).
  std::stop_token stop;
};

// How long Connect may take to notice a stop request: gRPC's wait for a
// channel state cannot be interrupted, so Connect waits in slices this long.
inline constexpr std::chrono::milliseconds kConnectStopLatency{100};

struct CallOptions {
  std::chrono::nanoseconds timeout;
  bool migrated = false;  // passed through to CallRecord::migrated
};

class Connection;

base::Result<std::unique_ptr<Connection>> Connect(std::string_view address,
                                                  ConnectOptions options = {});

class Connection {
 public:
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::shared_ptr<grpc::Channel>& channel() const { return channel_; }
  base::Clock& clock() const { return *options_.clock; }

  // Runs `rpc` (a generated stub call filling `response`) with a deadline of
  // options.timeout from now, logging and reporting it as described above.
  // A failed call becomes ErrorFromStatus(status).
  base::Status Invoke(std::string_view method, const google::protobuf::Message& request,
                      const google::protobuf::Message& response, const CallOptions& options,
                      const std::function<grpc::Status(grpc::ClientContext*)>& rpc);

  // Invoke for one method of a generated stub, returning its response:
  //   connection.Call(*stub, &v1::Controller::Stub::ListVolumes, kListVolumesMethod,
  //                   request, options)
  template <class Stub, class Request, class Response>
  base::Result<Response> Call(
      Stub& stub, grpc::Status (Stub::*rpc)(grpc::ClientContext*, const Request&, Response*),
      std::string_view method, const Request& request, const CallOptions& options) {
    Response response;
    base::Status status = Invoke(
        method, request, response, options,
        [&](grpc::ClientContext* context) { return (stub.*rpc)(context, request, &response); });
    if (!status.ok()) return status.error();
    return response;
  }

 private:
  friend base::Result<std::unique_ptr<Connection>> Connect(std::string_view, ConnectOptions);
  Connection(UnixAddress address, ConnectOptions options, std::shared_ptr<grpc::Channel> channel);

  void WatchForLoss(std::stop_token stop);
  // Whether a call is running or ended less than `window` ago: then the
  // callers' threads poll the channel and the watcher need not.
  bool CallsRanWithin(std::chrono::nanoseconds window) const;
  void HandleLoss();

  const UnixAddress address_;
  const ConnectOptions options_;
  const std::shared_ptr<grpc::Channel> channel_;
  std::atomic<int> calls_in_flight_ = 0;
  std::atomic<int64_t> last_call_end_ = 0;  // steady_clock ticks
  std::jthread watcher_;                    // declared last: stopped before the channel goes
};

}  // namespace csi
