#include "csi/connection.h"

#include <absl/synchronization/mutex.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/completion_queue.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <mutex>

#include "csi/errors.h"
#include "csi/proto_sanitizer.h"

namespace csi {
namespace {

constexpr std::string_view kTerminationMessage = "Lost connection to CSI driver, exiting";
// How often the loss watcher reads the channel's state, and so how late it
// may notice a lost driver. A stop ends its waits at once.
constexpr auto kWatchPollInterval = std::chrono::seconds(1);

// gRPC guards its state with absl::Mutex, and Debian builds abseil without
// NDEBUG, which leaves abseil's deadlock detector on: every lock and unlock
// updates a process-wide graph of lock order (2-3% of a busy attacher's CPU),
// and a cycle it suspects aborts the process. Neither belongs in a sidecar.
void TurnOffAbseilDeadlockDetection() {
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

std::chrono::system_clock::time_point After(std::chrono::nanoseconds d) {
  return std::chrono::system_clock::now() +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(d);
}

grpc::ChannelArguments ChannelArgs() {
  grpc::ChannelArguments args;
  // Retry a missing or refusing socket every second, like upstream's
  // backoff.DefaultConfig with MaxDelay 1 s.
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  // INT_MAX disables the idle timeout: an idle channel would leave READY and
  // look like a lost driver.
  args.SetInt(GRPC_ARG_CLIENT_IDLE_TIMEOUT_MS, INT_MAX);
  return args;
}

// os.WriteFile(path, message, 0644).
base::Status WriteTerminationMessage(const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return base::Error(fmt::format("open {}: {}", path, std::strerror(errno)));
  ssize_t written = ::write(fd, kTerminationMessage.data(), kTerminationMessage.size());
  int write_errno = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(kTerminationMessage.size())) {
    return base::Error(fmt::format("write {}: {}", path,
                                   written < 0 ? std::strerror(write_errno) : "short write"));
  }
  return base::Status::Ok();
}

std::string CappedResponse(std::string json, int max_length) {
  if (max_length > 0 && json.size() > static_cast<size_t>(max_length)) {
    json.resize(max_length);
    json += fmt::format(" [response body too large, log capped to {} chars]", max_length);
  }
  return json;
}

}  // namespace

base::Result<std::unique_ptr<Connection>> Connect(std::string_view address,
                                                  ConnectOptions options) {
  auto parsed = ParseAddress(address);
  if (!parsed.ok()) return parsed.error();
  const UnixAddress& unix_address = *parsed;
  TurnOffAbseilDeadlockDetection();

  LOG_V(5, "Connecting").With("address", unix_address.uri);
  auto channel = grpc::CreateCustomChannel(unix_address.GrpcTarget(),
                                           grpc::InsecureChannelCredentials(), ChannelArgs());
  auto deadline = After(options.connect_timeout);
  auto next_log = After(options.log_interval);
  while (!channel->WaitForConnected(std::min({deadline, next_log, After(kConnectStopLatency)}))) {
    if (options.stop.stop_requested()) {
      return base::Error::Transport(fmt::format("connecting to {}: stopped", unix_address.uri));
    }
    const auto now = std::chrono::system_clock::now();
    if (now >= deadline) {
      return base::Error::Transport(
          fmt::format("connecting to {}: context deadline exceeded", unix_address.uri));
    }
    if (now >= next_log) {
      LOG_INFO("Still connecting").With("address", unix_address.uri);
      next_log = After(options.log_interval);
    }
  }
  return std::unique_ptr<Connection>(
      new Connection(std::move(parsed).value(), std::move(options), std::move(channel)));
}

Connection::Connection(UnixAddress address, ConnectOptions options,
                       std::shared_ptr<grpc::Channel> channel)
    : address_(std::move(address)),
      options_(std::move(options)),
      channel_(std::move(channel)),
      watcher_(options_.watch_for_loss
                   ? std::jthread([this](std::stop_token stop) { WatchForLoss(stop); })
                   : std::jthread()) {}

Connection::~Connection() = default;

void Connection::WatchForLoss(std::stop_token stop) {
  // Any state but READY after a successful connect means the transport to
  // the driver is gone; gRPC would quietly redial, upstream exits instead.
  // Someone must poll the socket for gRPC to notice it closed. While calls
  // run, their own threads do, and the watcher only reads the state gRPC
  // keeps, sleeping on a condition variable of its own: as one of gRPC's
  // pollers it would be woken by most replies before their callers
  // (docs/design.md §5). On an idle channel nobody else polls, so there it
  // polls, waiting on a completion queue that never gets an event: that
  // polls every socket of gRPC's, and its deadline is the poll's timeout.
  // Reading the state alone once missed a stopped driver for over 10 s in 20
  // runs. A wait for a state change would notice at once, but its deadline
  // is a gRPC timer, whose thread then wakes several times a second: a third
  // of an idle sidecar's CPU.
  std::mutex mu;
  std::condition_variable_any sleeper;
  grpc::CompletionQueue idle_poll;
  std::stop_callback end_idle_poll(stop, [&] { idle_poll.Shutdown(); });
  while (!stop.stop_requested()) {
    grpc_connectivity_state state = channel_->GetState(/*try_to_connect=*/false);
    if (state != GRPC_CHANNEL_READY) {
      HandleLoss();
      return;
    }
    if (CallsRanWithin(kWatchPollInterval)) {
      std::unique_lock lock(mu);
      sleeper.wait_for(lock, stop, kWatchPollInterval, [] { return false; });
    } else {
      void* tag;
      bool ok;
      if (idle_poll.AsyncNext(&tag, &ok, After(kWatchPollInterval)) ==
          grpc::CompletionQueue::SHUTDOWN) {
        return;
      }
    }
  }
}

bool Connection::CallsRanWithin(std::chrono::nanoseconds window) const {
  if (calls_in_flight_.load() > 0) return true;
  auto last_end = std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(last_call_end_.load()));
  return std::chrono::steady_clock::now() - last_end < window;
}

void Connection::HandleLoss() {
  LOG_ERROR("Lost connection").With("address", address_.uri);
  if (auto written = WriteTerminationMessage(options_.termination_log_path); !written.ok()) {
    LOG_ERROR("Failed to write a message to the termination logfile")
        .With("err", written.error().message)
        .With("terminationLogPath", options_.termination_log_path);
  }
  LOG_ERROR(kTerminationMessage);
  options_.on_connection_loss();
}

base::Status Connection::Invoke(std::string_view method, const google::protobuf::Message& request,
                                const google::protobuf::Message& response,
                                const CallOptions& options,
                                const std::function<grpc::Status(grpc::ClientContext*)>& rpc) {
  LOG_V(5, "GRPC call").With("method", method).With("request", StripSecrets(request));

  grpc::ClientContext context;
  context.set_deadline(After(options.timeout));
  auto start = options_.clock->Now();
  ++calls_in_flight_;
  grpc::Status status = rpc(&context);
  last_call_end_ = std::chrono::steady_clock::now().time_since_epoch().count();
  --calls_in_flight_;
  std::chrono::duration<double> elapsed = options_.clock->Now() - start;
  if (options_.metrics) {
    options_.metrics(CallRecord{method, status.error_code(), elapsed.count(), options.migrated});
  }

  base::Status result = status.ok() ? base::Status::Ok() : base::Status(ErrorFromStatus(status));
  // Go logs a nil error as null; our logger has strings only, hence "<nil>".
  LOG_V(5, "GRPC response")
      .With("response", CappedResponse(StripSecrets(response), options_.max_grpc_log_length))
      .With("err", result.ok() ? std::string("<nil>") : result.error().message);
  return result;
}

}  // namespace csi
