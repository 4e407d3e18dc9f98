// Http2Session's nghttp2 callbacks: what each frame nghttp2 parsed or sent
// does to the streams.
#include <nghttp2/nghttp2.h>

#include "kube/client/http2_session.h"
#include "kube/client/http2_stream.h"

namespace kube {
namespace {

bool IsSuccess(int status) { return status >= 200 && status < 300; }

}  // namespace

// nghttp2's callbacks, given the session as user data; each runs with mu_ held.
struct Http2Session::Callbacks {
  static Http2Session& Self(void* user_data) { return *static_cast<Http2Session*>(user_data); }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                      size_t name_length, const uint8_t* value, size_t value_length, uint8_t,
                      void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_RESPONSE) return 0;
    auto stream = Self(user_data).Find(frame->hd.stream_id);
    if (!stream) return 0;
    const std::string_view key = Http2View(name, name_length),
                           text = Http2View(value, value_length);
    if (key == ":status") {
      int status = 0;
      for (char c : text) status = c >= '0' && c <= '9' ? status * 10 + (c - '0') : 0;
      stream->head.status = status;
    } else if (key == "content-type") {
      stream->head.content_type = text;
    } else if (key == "retry-after") {
      stream->head.retry_after_seconds = ParseRetryAfterSeconds(text);
    }
    return 0;
  }

  static int OnFrameReceived(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Http2Session& self = Self(user_data);
    switch (frame->hd.type) {
      case NGHTTP2_HEADERS:
        if (frame->headers.cat == NGHTTP2_HCAT_RESPONSE) {
          if (auto stream = self.Find(frame->hd.stream_id)) {
            stream->head_complete = true;
            stream->streaming = stream->wants_stream && IsSuccess(stream->head.status);
            self.Signal(stream);
          }
        }
        break;
      case NGHTTP2_GOAWAY:
        self.goaway_ = true;
        break;
      case NGHTTP2_PING:
        if (frame->hd.flags & NGHTTP2_FLAG_ACK) self.ping_sent_.reset();
        break;
      default:
        break;
    }
    return 0;
  }

  static int OnData(nghttp2_session* session, uint8_t, int32_t stream_id, const uint8_t* data,
                    size_t length, void* user_data) {
    Http2Session& self = Self(user_data);
    auto stream = self.Find(stream_id);
    if (stream && stream->abandoned) stream.reset();
    if (stream && stream->streaming) {
      stream->pending.append(Http2View(data, length));  // released once the caller took it
      self.Signal(stream);
      return 0;
    }
    if (stream) stream->body.append(Http2View(data, length));
    nghttp2_session_consume(session, stream_id, length);
    return 0;
  }

  static int OnFrameSent(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    if (auto stream = Self(user_data).Find(frame->hd.stream_id)) stream->headers_sent = true;
    return 0;
  }

  static int OnFrameNotSent(nghttp2_session*, const nghttp2_frame* frame, int, void* user_data) {
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    if (auto stream = Self(user_data).Find(frame->hd.stream_id)) stream->unprocessed = true;
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, int32_t stream_id, uint32_t error_code,
                           void* user_data) {
    Http2Session& self = Self(user_data);
    auto stream = self.Find(stream_id);
    if (!stream) return 0;
    stream->closed = true;
    stream->error_code = error_code;
    if (error_code == NGHTTP2_REFUSED_STREAM) stream->unprocessed = true;
    self.streams_.erase(stream_id);
    self.Signal(stream);
    return 0;
  }
};

nghttp2_session_callbacks* Http2Session::NewCallbacks() {
  nghttp2_session_callbacks* callbacks = nullptr;
  if (nghttp2_session_callbacks_new(&callbacks) != 0) return nullptr;
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &Callbacks::OnHeader);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &Callbacks::OnFrameReceived);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &Callbacks::OnData);
  nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, &Callbacks::OnFrameSent);
  nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks, &Callbacks::OnFrameNotSent);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &Callbacks::OnStreamClose);
  return callbacks;
}

}  // namespace kube
