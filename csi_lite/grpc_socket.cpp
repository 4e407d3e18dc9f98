#include "csi_lite/grpc_socket.h"

#include <fmt/format.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <optional>

#include "csi/status_error.h"
#include "csi_lite/grpc_framing.h"

namespace csi_lite {
namespace {

using SteadyClock = std::chrono::steady_clock;

using namespace csi::codes;

base::Error DeadlineError() {
  return csi::StatusError(kDeadlineExceeded, csi::kDeadlineExceededMessage);
}

// grpc-timeout: at most 8 digits, so the unit grows with the time left.
std::string GrpcTimeout(SteadyClock::duration left) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count();
  if (ms < 100'000'000) return fmt::format("{}m", std::max<int64_t>(ms, 1));
  auto s = ms / 1000;
  if (s < 100'000'000) return fmt::format("{}S", s);
  return fmt::format("{}M", std::min<int64_t>(s / 60, 99'999'999));
}

// What gRPC makes of an answer without grpc-status, by its HTTP status.
int CodeForHttpStatus(int status) {
  switch (status) {
    case 400:
      return kInternal;
    case 401:
      return kUnauthenticated;
    case 403:
      return kPermissionDenied;
    case 404:
      return kUnimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return kUnavailable;
    default:
      return kUnknown;
  }
}

}  // namespace

struct GrpcSocket::Stream {
  int32_t id = -1;
  std::string request;  // the length-prefixed message
  size_t request_sent = 0;
  int http_status = 0;
  std::optional<int> grpc_status;
  std::string grpc_message;
  std::string body;
  bool too_large = false;
  bool closed = false;
  uint32_t reset_code = 0;  // NGHTTP2_NO_ERROR unless the stream was reset

  static Stream& Of(void* user_data) { return *static_cast<Stream*>(user_data); }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t name_length, const uint8_t* value, size_t value_length, uint8_t,
                      void* user_data) {
    Stream& stream = Of(user_data);
    if (frame->hd.stream_id != stream.id) return 0;
    std::string_view key(reinterpret_cast<const char*>(name), name_length);
    std::string_view text(reinterpret_cast<const char*>(value), value_length);
    int number = 0;
    if (key == ":status" || key == "grpc-status") {
      if (std::from_chars(text.data(), text.data() + text.size(), number).ptr !=
          text.data() + text.size()) {
        number = kUnknown;  // gRPC's reading of a grpc-status it cannot parse
      }
      (key == ":status" ? stream.http_status : stream.grpc_status.emplace()) = number;
    } else if (key == "grpc-message") {
      stream.grpc_message = PercentDecode(text);
    }
    return 0;
  }

  static int OnData(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                    size_t length, void* user_data) {
    Stream& stream = Of(user_data);
    if (stream_id != stream.id) return 0;
    if (stream.body.size() + length > kMessagePrefix + kMaxMessage) {
      stream.too_large = true;
    } else {
      stream.body.append(reinterpret_cast<const char*>(data), length);
    }
    return 0;
  }

  static int OnClose(nghttp2_session*, int32_t stream_id, uint32_t error_code, void* user_data) {
    Stream& stream = Of(user_data);
    if (stream_id != stream.id) return 0;
    stream.closed = true;
    stream.reset_code = error_code;
    return 0;
  }

  static ssize_t ReadRequest(nghttp2_session*, int32_t, uint8_t* buffer, size_t length,
                             uint32_t* flags, nghttp2_data_source*, void* user_data) {
    Stream& stream = Of(user_data);
    size_t n = std::min(length, stream.request.size() - stream.request_sent);
    std::memcpy(buffer, stream.request.data() + stream.request_sent, n);
    stream.request_sent += n;
    if (stream.request_sent == stream.request.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  // The call's outcome once the stream closed.
  base::Result<std::string> Outcome() const {
    if (!grpc_status) {
      if (reset_code == NGHTTP2_REFUSED_STREAM) {
        return csi::StatusError(kUnavailable, "the driver refused the stream");
      }
      if (reset_code != NGHTTP2_NO_ERROR) {
        return csi::StatusError(kInternal,
                                fmt::format("stream terminated by RST_STREAM with error code: {}",
                                            nghttp2_http2_strerror(reset_code)));
      }
      if (http_status != 200) {
        return csi::StatusError(
            CodeForHttpStatus(http_status),
            fmt::format("unexpected HTTP status code received from server: {}", http_status));
      }
      return csi::StatusError(kInternal, "server closed the stream without sending trailers");
    }
    if (*grpc_status != kOk) return csi::StatusError(*grpc_status, grpc_message);
    if (too_large) {
      return csi::StatusError(
          kResourceExhausted,
          fmt::format("grpc: received message larger than max ({} bytes)", kMaxMessage));
    }
    if (body.size() < kMessagePrefix || body[0] != 0) {
      return csi::StatusError(kInternal, "grpc: no uncompressed response message");
    }
    std::optional<std::string_view> message = SingleMessage(body);
    if (!message) {
      return csi::StatusError(kInternal, "grpc: the response is not exactly one message");
    }
    return std::string(*message);
  }
};

base::Result<std::unique_ptr<GrpcSocket>> GrpcSocket::Open(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) {
    return base::Error::Transport(fmt::format("socket path too long: {}", path));
  }
  std::memcpy(address.sun_path, path.data(), path.size());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return base::Error::Transport(fmt::format("socket: {}", std::strerror(errno)));
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    int error = errno;
    ::close(fd);
    return base::Error::Transport(fmt::format("dial unix {}: {}", path, std::strerror(error)),
                                  error);
  }

  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session* session = nullptr;
  int rc = nghttp2_session_callbacks_new(&callbacks);
  if (rc == 0) {
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &Stream::OnHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Stream::OnData);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Stream::OnClose);
    rc = nghttp2_session_client_new(&session, callbacks, nullptr);
    nghttp2_session_callbacks_del(callbacks);
  }
  const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  if (rc == 0) rc = nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings, 1);
  if (rc != 0) {
    nghttp2_session_del(session);
    ::close(fd);
    return base::Error::Transport(fmt::format("HTTP/2: {}", nghttp2_strerror(rc)));
  }
  return std::unique_ptr<GrpcSocket>(new GrpcSocket(fd, session));
}

GrpcSocket::~GrpcSocket() {
  nghttp2_session_del(session_);
  ::close(fd_);
}

base::Status GrpcSocket::Wait(short events, SteadyClock::time_point deadline) {
  while (true) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - SteadyClock::now());
    if (left.count() <= 0) return DeadlineError();
    pollfd p{fd_, events, 0};
    int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), INT32_MAX)));
    if (n > 0) return base::Status::Ok();
    if (n < 0 && errno != EINTR) {
      return csi::StatusError(kUnavailable, fmt::format("poll: {}", std::strerror(errno)));
    }
  }
}

base::Status GrpcSocket::Flush(SteadyClock::time_point deadline) {
  while (true) {
    const uint8_t* data = nullptr;
    ssize_t n = nghttp2_session_mem_send(session_, &data);
    if (n < 0) return csi::StatusError(kInternal, fmt::format("HTTP/2: {}", nghttp2_strerror(n)));
    if (n == 0) return base::Status::Ok();
    for (ssize_t done = 0; done < n;) {
      ssize_t wrote = ::send(fd_, data + done, n - done, MSG_NOSIGNAL);
      if (wrote >= 0) {
        done += wrote;
      } else if (errno == EAGAIN) {
        if (base::Status ready = Wait(POLLOUT, deadline); !ready.ok()) return ready;
      } else if (errno != EINTR) {
        return csi::StatusError(kUnavailable,
                                fmt::format("write to the driver: {}", std::strerror(errno)));
      }
    }
  }
}

base::Result<std::string> GrpcSocket::Call(std::string_view method, std::string_view request,
                                           SteadyClock::time_point deadline) {
  const auto left = deadline - SteadyClock::now();
  if (left <= SteadyClock::duration::zero()) return DeadlineError();

  Stream stream;
  stream.request = LengthPrefixed(request);
  nghttp2_session_set_user_data(session_, &stream);

  const std::string timeout = GrpcTimeout(left);
  auto field = [](std::string_view name, std::string_view value) {
    return nghttp2_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                      reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(),
                      value.size(), NGHTTP2_NV_FLAG_NONE};
  };
  const nghttp2_nv headers[] = {
      field(":method", "POST"),
      field(":scheme", "http"),
      field(":path", method),
      field(":authority", "localhost"),
      field("content-type", "application/grpc"),
      field("te", "trailers"),
      field("grpc-timeout", timeout),
  };
  nghttp2_data_provider provider{};
  provider.read_callback = &Stream::ReadRequest;
  stream.id =
      nghttp2_submit_request(session_, nullptr, headers, std::size(headers), &provider, nullptr);
  if (stream.id < 0) {
    return csi::StatusError(kUnavailable, fmt::format("HTTP/2: {}", nghttp2_strerror(stream.id)));
  }

  base::Status failed = base::Status::Ok();
  char buffer[16 * 1024];
  while (failed.ok() && !stream.closed) {
    if (failed = Flush(deadline); !failed.ok() || stream.closed) break;
    if (!nghttp2_session_want_read(session_)) {
      failed = csi::StatusError(kUnavailable, "the driver closed the HTTP/2 connection");
      break;
    }
    if (failed = Wait(POLLIN, deadline); !failed.ok()) break;
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n == 0) {
      failed = csi::StatusError(kUnavailable, "error reading from server: EOF");
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
      failed = csi::StatusError(kUnavailable,
                                fmt::format("error reading from server: {}", std::strerror(errno)));
    } else if (n > 0) {
      ssize_t rc = nghttp2_session_mem_recv(session_, reinterpret_cast<uint8_t*>(buffer), n);
      if (rc < 0) {
        failed = csi::StatusError(kInternal, fmt::format("HTTP/2: {}", nghttp2_strerror(rc)));
      }
    }
  }
  if (!stream.closed) {
    // Tell the driver the call is over (best effort: the socket may be
    // full or gone), and no later callback may see this stream's state.
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream.id, NGHTTP2_CANCEL);
    (void)Flush(SteadyClock::now());
  }
  nghttp2_session_set_user_data(session_, nullptr);
  if (!failed.ok()) return failed.error();
  return stream.Outcome();
}

}  // namespace csi_lite
