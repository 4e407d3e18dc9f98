#include "tests/support/http2_test_server.h"

#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "tests/support/loopback_listener.h"
#include "tests/support/tls_server_context.h"

namespace testsupport {
namespace {

constexpr int kConnectionSafetySeconds = 10;

// Ends our side and reads until the peer closes its own (at most a second):
// closing with bytes unread resets the connection, and a reset throws away
// what the peer has not read yet - such as the GOAWAY that tells it to send
// its request again elsewhere. Real servers linger the same way.
void DrainUntilPeerCloses(int fd) {
  ::shutdown(fd, SHUT_WR);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  char sink[4096];
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    if (::recv(fd, sink, sizeof sink, 0) <= 0) return;
  }
}

// Chooses "h2" when the client offers it, and nothing otherwise.
int SelectH2(SSL*, const unsigned char** out, unsigned char* out_length, const unsigned char* in,
             unsigned int in_length, void*) {
  for (unsigned int i = 0; i < in_length; i += 1 + in[i]) {
    if (in[i] == 2 && i + 2 < in_length && std::memcmp(in + i + 1, "h2", 2) == 0) {
      *out = in + i + 1;
      *out_length = 2;
      return SSL_TLSEXT_ERR_OK;
    }
  }
  return SSL_TLSEXT_ERR_NOACK;
}

}  // namespace

// One accepted connection's HTTP/2 server session; nghttp2's callbacks get it as user data.
struct Http2TestServer::Connection {
  struct Stream {
    Http2TestRequest request;
    std::string path;
    std::string out;
    size_t sent = 0;
    size_t reset_at = std::string::npos;  // kResetMidBody: where the body stops
    bool reset = false;
  };

  Http2TestServer& server;
  SSL* ssl;
  nghttp2_session* session = nullptr;
  std::map<int32_t, Stream> streams;

  static Connection& Self(void* user_data) { return *static_cast<Connection*>(user_data); }

  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Self(user_data).streams[frame->hd.stream_id];
    return 0;
  }
  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t name_length, const uint8_t* value, size_t value_length, uint8_t,
                      void* user_data) {
    Self(user_data)
        .streams[frame->hd.stream_id]
        .request.headers[std::string(reinterpret_cast<const char*>(name), name_length)] =
        std::string(reinterpret_cast<const char*>(value), value_length);
    return 0;
  }
  static int OnData(nghttp2_session*, uint8_t, int32_t stream_id, const uint8_t* data,
                    size_t length, void* user_data) {
    Self(user_data).streams[stream_id].request.body.append(reinterpret_cast<const char*>(data),
                                                           length);
    return 0;
  }
  static int OnFrameReceived(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    const bool request_ends =
        (frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM);
    if (request_ends) Self(user_data).Respond(frame->hd.stream_id);
    return 0;
  }
  static int OnStreamClose(nghttp2_session*, int32_t stream_id, uint32_t, void* user_data) {
    Self(user_data).streams.erase(stream_id);
    return 0;
  }
  static ssize_t ReadBody(nghttp2_session* session, int32_t stream_id, uint8_t* buffer,
                          size_t length, uint32_t* flags, nghttp2_data_source*, void* user_data) {
    Connection& self = Self(user_data);
    Stream& stream = self.streams[stream_id];
    const size_t end = std::min(stream.out.size(), stream.reset_at);
    const size_t n = std::min(length, end - stream.sent);
    std::memcpy(buffer, stream.out.data() + stream.sent, n);
    stream.sent += n;
    {
      std::lock_guard lock(self.server.mu_);
      self.server.sent_[stream.path] += n;
    }
    if (stream.sent == stream.out.size()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
    } else if (stream.sent == end) {
      if (!stream.reset) {
        nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_INTERNAL_ERROR);
        stream.reset = true;
      }
      if (n == 0) return NGHTTP2_ERR_DEFERRED;
    }
    return static_cast<ssize_t>(n);
  }

  void Respond(int32_t stream_id) {
    Stream& stream = streams[stream_id];
    stream.path = stream.request.headers[":path"];
    {
      std::lock_guard lock(server.mu_);
      server.requests_.push_back(stream.request);
    }
    Http2TestReply reply = server.handler_(stream.request);
    switch (reply.action) {
      case Http2TestReply::Action::kRefuse:
        nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_REFUSED_STREAM);
        return;
      case Http2TestReply::Action::kGoaway:
        // Refuses this stream and all later ones, then ends the connection.
        nghttp2_session_terminate_session2(session, std::max(0, stream_id - 2), NGHTTP2_NO_ERROR);
        return;
      case Http2TestReply::Action::kHold:
        return;
      case Http2TestReply::Action::kResetMidBody:
      case Http2TestReply::Action::kAnswer:
        break;
    }
    stream.out = reply.body + std::string(reply.filler_bytes, 'x');
    if (reply.action == Http2TestReply::Action::kResetMidBody)
      stream.reset_at = stream.out.size() / 2;
    const std::string status = std::to_string(reply.status);
    std::vector<nghttp2_nv> fields;
    auto add = [&](const std::string& name, const std::string& value) {
      fields.push_back({const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(name.data())),
                        const_cast<uint8_t*>(reinterpret_cast<const uint8_t*>(value.data())),
                        name.size(), value.size(), NGHTTP2_NV_FLAG_NONE});
    };
    const std::string status_name = ":status";
    add(status_name, status);
    for (const auto& [name, value] : reply.headers) add(name, value);
    nghttp2_data_provider provider{};
    provider.read_callback = &ReadBody;
    nghttp2_submit_response(session, stream_id, fields.data(), fields.size(), &provider);
  }

  // Until the client closes, the session ends (GOAWAY) or `stop`.
  void Run(std::stop_token stop) {
    nghttp2_session_callbacks* callbacks = nullptr;
    nghttp2_session_callbacks_new(&callbacks);
    nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, &OnBeginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(callbacks, &OnHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &OnData);
    nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &OnFrameReceived);
    nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &OnStreamClose);
    nghttp2_session_server_new(&session, callbacks, this);
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, nullptr, 0);
    char buffer[16384];
    while (!stop.stop_requested()) {
      const uint8_t* data = nullptr;
      ssize_t n;
      bool written = true;
      while (written && (n = nghttp2_session_mem_send(session, &data)) > 0) {
        written = SSL_write(ssl, data, static_cast<int>(n)) == n;
      }
      if (!written) break;
      if (!nghttp2_session_want_read(session) && !nghttp2_session_want_write(session)) break;
      if (SSL_pending(ssl) == 0) {
        pollfd p{SSL_get_fd(ssl), POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
      }
      int got = SSL_read(ssl, buffer, sizeof buffer);
      if (got <= 0) break;
      if (nghttp2_session_mem_recv(session, reinterpret_cast<const uint8_t*>(buffer),
                                   static_cast<size_t>(got)) < 0) {
        break;
      }
    }
    nghttp2_session_del(session);
  }
};

Http2TestServer::Http2TestServer(const CertifiedKey& server, Handler handler)
    : handler_(std::move(handler)) {
  ctx_ = NewTlsServerContext(server, "Http2TestServer");
  SSL_CTX_set_alpn_select_cb(ctx_, &SelectH2, nullptr);
  LoopbackListener listener = ListenOnLoopback("Http2TestServer");
  listen_fd_ = listener.fd;
  port_ = listener.port;
  thread_ = std::jthread([this](std::stop_token stop) { Serve(stop); });
}

Http2TestServer::~Http2TestServer() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  SSL_CTX_free(ctx_);
}

std::vector<Http2TestRequest> Http2TestServer::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

size_t Http2TestServer::body_bytes_sent(const std::string& path) const {
  std::lock_guard lock(mu_);
  auto it = sent_.find(path);
  return it == sent_.end() ? 0 : it->second;
}

void Http2TestServer::Serve(std::stop_token stop) {
  while (!stop.stop_requested()) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    timeval safety{kConnectionSafetySeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &safety, sizeof safety);
    SSL* ssl = SSL_new(ctx_);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      ++connections_;
      Connection connection{*this, ssl, nullptr, {}};
      connection.Run(stop);
      SSL_shutdown(ssl);
      if (!stop.stop_requested()) DrainUntilPeerCloses(fd);
    }
    ERR_clear_error();
    SSL_free(ssl);
    ::close(fd);
  }
}

}  // namespace testsupport
