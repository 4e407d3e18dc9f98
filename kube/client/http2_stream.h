// Http2Session::Stream: one request's state inside an Http2Session, shared
// by http2_session.cpp (the caller's side and the connection's thread) and
// http2_callbacks.cpp (what nghttp2's events do to it). Not for other users.
#pragma once

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "kube/client/http2_session.h"
#include "kube/client/http_response_parser.h"

namespace kube {

// One request's state, shared by the caller that waits on it and the
// session's callbacks (under the session's mutex).
struct Http2Session::Stream {
  int32_t id = -1;
  std::string request_body;
  size_t request_body_sent = 0;
  bool wants_stream = false;  // the caller takes a 2xx body as it comes
  bool headers_sent = false;  // the request left: the server may act on it
  ResponseHead head;
  bool head_complete = false;
  bool streaming = false;  // head complete, 2xx, and wants_stream
  std::string body;        // a body returned whole
  std::string pending;     // streamed bytes the caller has not taken
  bool closed = false;
  bool abandoned = false;           // the caller left; kept until nghttp2 closes it
  uint32_t error_code = 0;          // RST_STREAM's, once closed
  bool unprocessed = false;         // the server refused it or it never left
  std::string failure;              // the connection's failure, when that ended it
  bool signalled = false;           // in signalled_, to be notified
  std::condition_variable changed;  // with mu_

  // nghttp2's reader of the request body; `source->ptr` is the Stream.
  static ssize_t ReadBody(nghttp2_session*, int32_t, uint8_t* buffer, size_t length,
                          uint32_t* flags, nghttp2_data_source* source, void*) {
    auto* stream = static_cast<Stream*>(source->ptr);
    size_t n = std::min(length, stream->request_body.size() - stream->request_body_sent);
    std::memcpy(buffer, stream->request_body.data() + stream->request_body_sent, n);
    stream->request_body_sent += n;
    if (stream->request_body_sent == stream->request_body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
};

inline std::string_view Http2View(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace kube
