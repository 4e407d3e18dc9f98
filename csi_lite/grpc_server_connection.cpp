#include "csi_lite/grpc_server_connection.h"

#include <fmt/format.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "base/log.h"
#include "csi/status_error.h"
#include "csi_lite/grpc_framing.h"

namespace csi_lite {
namespace {

using namespace csi::codes;

constexpr int32_t kMaxConcurrentCalls = 100;

nghttp2_nv Field(std::string_view name, std::string_view value) {
  return nghttp2_nv{reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(),
                    value.size(), NGHTTP2_NV_FLAG_NONE};
}

bool IsGrpcContentType(std::string_view type) {
  constexpr std::string_view kGrpc = "application/grpc";
  return type.substr(0, kGrpc.size()) == kGrpc &&
         (type.size() == kGrpc.size() || type[kGrpc.size()] == '+' || type[kGrpc.size()] == ';');
}

}  // namespace

struct ServerConnection::Call {
  std::string method;  // :method
  std::string path;    // :path, the gRPC method
  std::string content_type;
  std::string request;  // the body as it came
  bool too_large = false;
  std::string response;  // the length-prefixed answer
  size_t response_sent = 0;

  // The call's outcome: the response message or its error.
  base::Result<std::string> Run(const UnaryMethods& methods) const {
    if (method != "POST" || !IsGrpcContentType(content_type)) {
      return csi::StatusError(kInternal, "not a gRPC request");
    }
    auto handler = methods.find(path);
    if (handler == methods.end()) {
      return csi::StatusError(kUnimplemented, fmt::format("unknown method {}", path));
    }
    if (too_large) {
      return csi::StatusError(
          kResourceExhausted,
          fmt::format("grpc: received message larger than max ({} bytes)", kMaxMessage));
    }
    std::optional<std::string_view> message = SingleMessage(request);
    if (!message) return csi::StatusError(kInternal, "grpc: malformed request message");
    return handler->second(*message);
  }

  // Sends the response, then the trailers ending the stream.
  static ssize_t ReadResponse(nghttp2_session* session, int32_t stream_id, uint8_t* buffer,
                              size_t length, uint32_t* flags, nghttp2_data_source* source, void*) {
    Call& call = *static_cast<Call*>(source->ptr);
    size_t n = std::min(length, call.response.size() - call.response_sent);
    std::memcpy(buffer, call.response.data() + call.response_sent, n);
    call.response_sent += n;
    if (call.response_sent == call.response.size()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
      const nghttp2_nv trailers[] = {Field("grpc-status", "0")};
      if (nghttp2_submit_trailer(session, stream_id, trailers, std::size(trailers)) != 0) {
        return NGHTTP2_ERR_CALLBACK_FAILURE;
      }
    }
    return static_cast<ssize_t>(n);
  }
};

std::unique_ptr<ServerConnection> ServerConnection::Open(int fd, const UnaryMethods& methods) {
  std::unique_ptr<ServerConnection> connection(new ServerConnection(fd, methods));
  nghttp2_session_callbacks* callbacks = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0) return nullptr;
  nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &OnBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &OnHeader);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &OnData);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &OnFrame);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &OnClose);
  nghttp2_option* option = nullptr;
  int rc = nghttp2_option_new(&option);
  if (rc == 0) {
    // HTTP's rules would reset kubelet's calls: grpc-go sends the dialled
    // socket path as :authority, which gRPC servers do not read. Call::Run
    // checks what a gRPC call needs instead.
    nghttp2_option_set_no_http_messaging(option, 1);
    rc = nghttp2_session_server_new2(&connection->session_, callbacks, connection.get(), option);
    nghttp2_option_del(option);
  }
  nghttp2_session_callbacks_del(callbacks);
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, kMaxConcurrentCalls}};
  if (rc == 0) rc = nghttp2_submit_settings(connection->session_, NGHTTP2_FLAG_NONE, settings, 1);
  if (rc != 0) return nullptr;
  return connection;
}

ServerConnection::~ServerConnection() {
  nghttp2_session_del(session_);
  ::close(fd_);
}

short ServerConnection::Events() const {
  return static_cast<short>(POLLIN | (unsent_.empty() ? 0 : POLLOUT));
}

bool ServerConnection::OnReady(short revents) {
  if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 && !Read()) return false;
  if (!Flush()) return false;
  // The session is over once neither side has more to say (a GOAWAY both ways).
  return !unsent_.empty() || nghttp2_session_want_read(session_) ||
         nghttp2_session_want_write(session_);
}

bool ServerConnection::Read() {
  char buffer[16 * 1024];
  while (true) {
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n == 0) return false;  // the client is gone, calls in flight with it
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    ssize_t rc = nghttp2_session_mem_recv(session_, reinterpret_cast<uint8_t*>(buffer), n);
    if (rc < 0) {
      LOG_V(4, "Closing a gRPC connection").With("err", nghttp2_strerror(static_cast<int>(rc)));
      (void)Flush();  // best effort: the GOAWAY nghttp2 may have queued
      return false;
    }
  }
}

bool ServerConnection::Flush() {
  while (true) {
    if (unsent_.empty()) {
      const uint8_t* data = nullptr;
      ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) return false;
      if (n == 0) return true;
      unsent_.assign(reinterpret_cast<const char*>(data), n);
    }
    ssize_t wrote = ::send(fd_, unsent_.data(), unsent_.size(), MSG_NOSIGNAL);
    if (wrote < 0) return errno == EAGAIN || errno == EINTR;
    unsent_.erase(0, wrote);
  }
}

void ServerConnection::Answer(int32_t stream_id, Call& call) {
  base::Result<std::string> response = call.Run(methods_);
  if (response.ok()) {
    call.response = LengthPrefixed(*response);
    const nghttp2_nv headers[] = {Field(":status", "200"),
                                  Field("content-type", "application/grpc")};
    nghttp2_data_provider provider{};
    provider.source.ptr = &call;
    provider.read_callback = &Call::ReadResponse;
    nghttp2_submit_response(session_, stream_id, headers, std::size(headers), &provider);
    return;
  }
  const base::Error& error = response.error();
  const std::string code = std::to_string(error.IsGrpc() ? error.code : kUnknown);
  const std::string message = PercentEncode(csi::GrpcMessage(error));
  const nghttp2_nv trailers_only[] = {Field(":status", "200"),
                                      Field("content-type", "application/grpc"),
                                      Field("grpc-status", code), Field("grpc-message", message)};
  nghttp2_submit_response(session_, stream_id, trailers_only, std::size(trailers_only), nullptr);
}

int ServerConnection::OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* self) {
  if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
    static_cast<ServerConnection*>(self)->calls_[frame->hd.stream_id] = std::make_unique<Call>();
  }
  return 0;
}

int ServerConnection::OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                               size_t name_length, const uint8_t* value, size_t value_length,
                               uint8_t, void* self) {
  auto& calls = static_cast<ServerConnection*>(self)->calls_;
  auto call = calls.find(frame->hd.stream_id);
  if (call == calls.end() || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  std::string_view key(reinterpret_cast<const char*>(name), name_length);
  std::string text(reinterpret_cast<const char*>(value), value_length);
  if (key == ":method") call->second->method = std::move(text);
  if (key == ":path") call->second->path = std::move(text);
  if (key == "content-type") call->second->content_type = std::move(text);
  return 0;
}

int ServerConnection::OnData(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                             size_t length, void* self) {
  auto& calls = static_cast<ServerConnection*>(self)->calls_;
  auto call = calls.find(stream_id);
  if (call == calls.end()) return 0;
  Call& c = *call->second;
  if (c.request.size() + length > kMessagePrefix + kMaxMessage) {
    c.too_large = true;  // answered once the request ends; its bytes are dropped
  } else {
    c.request.append(reinterpret_cast<const char*>(data), length);
  }
  return 0;
}

int ServerConnection::OnFrame(nghttp2_session*, const nghttp2_frame* frame, void* self) {
  auto* connection = static_cast<ServerConnection*>(self);
  const bool request_ended =
      (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
      (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
  auto call = connection->calls_.find(frame->hd.stream_id);
  if (request_ended && call != connection->calls_.end()) {
    connection->Answer(frame->hd.stream_id, *call->second);
  }
  return 0;
}

int ServerConnection::OnClose(nghttp2_session*, int32_t stream_id, uint32_t, void* self) {
  static_cast<ServerConnection*>(self)->calls_.erase(stream_id);
  return 0;
}

}  // namespace csi_lite
