#include "csi_lite/connection.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/clock.h"
#include "base/log.h"
#include "csi/status_error.h"

namespace csi_lite {
namespace {

// csi::Connect caps gRPC's reconnect backoff at a second, as upstream does.
constexpr auto kRedialInterval = std::chrono::seconds(1);

}  // namespace

base::Result<std::unique_ptr<Connection>> Connection::Connect(std::string_view address,
                                                              ConnectOptions options) {
  auto parsed = csi::ParseAddress(address);
  if (!parsed.ok()) return parsed.error();
  const csi::UnixAddress& unix_address = *parsed;
  base::Clock& clock = base::Clock::Real();

  LOG_V(5, "Connecting").With("address", unix_address.uri);
  const auto deadline = clock.Now() + options.connect_timeout;
  auto next_log = clock.Now() + options.log_interval;
  while (true) {
    auto socket = GrpcSocket::Open(unix_address.path);
    if (socket.ok()) {
      return std::unique_ptr<Connection>(
          new Connection(std::move(socket).value(), std::move(options.metrics)));
    }
    if (clock.Now() >= deadline) {
      return base::Error::Transport(
          fmt::format("connecting to {}: context deadline exceeded", unix_address.uri));
    }
    if (!clock.SleepUntil(std::min({clock.Now() + kRedialInterval, deadline, next_log}),
                          options.stop)) {
      return base::Error::Transport(fmt::format("connecting to {}: stopped", unix_address.uri));
    }
    if (clock.Now() >= next_log) {
      LOG_INFO("Still connecting").With("address", unix_address.uri);
      next_log = clock.Now() + options.log_interval;
    }
  }
}

base::Status Connection::Invoke(std::string_view method, std::string_view request,
                                std::string_view request_json, std::chrono::nanoseconds timeout,
                                const ResponseReader& read) {
  LOG_V(5, "GRPC call").With("method", method).With("request", request_json);
  const auto start = std::chrono::steady_clock::now();
  auto response = socket_->Call(method, request, start + timeout);
  base::Status result = base::Status::Ok();
  std::string response_json = "{}";
  if (!response.ok()) {
    result = response.error();
  } else if (auto decoded = read(*response); !decoded.ok()) {
    result =
        csi::StatusError(csi::codes::kInternal, "grpc: failed to unmarshal the received message: " +
                                                    decoded.error().message);
  } else {
    response_json = *std::move(decoded);
  }
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  if (metrics_) {
    metrics_(csi::CallRecord{method, result.ok() ? 0 : result.error().code, elapsed.count(),
                             /*migrated=*/false});
  }
  // Go logs a nil error as null; our logger has strings only, hence "<nil>".
  LOG_V(5, "GRPC response")
      .With("response", response_json)
      .With("err", result.ok() ? std::string("<nil>") : result.error().message);
  return result;
}

}  // namespace csi_lite
