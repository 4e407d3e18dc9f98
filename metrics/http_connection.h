// HttpConnection: one client's HTTP/1.1 exchange over a non-blocking socket,
// driven by the server's loop. Each OnReadable/OnWritable call does one
// bounded step and answers at most one request, so a client pipelining many
// requests gets one answer per turn of the loop, like everyone else.
//
// Life of a connection: read a request head; answer it; write the answer out
// while reading nothing more; then either the next request (already buffered
// when pipelined, answered in order; else awaited) or, when the connection
// closes (Connection: close, HTTP/1.0, a request with a body, 400, 431), shut
// down the sending side and discard input until the client closes. That
// lingering close matters: closing a socket with unread input resets the
// connection, which can destroy the answer before the client has read it.
//
// wait() says what the connection waits for from its client; waits_begun()
// changes whenever a new wait begins, which is when its deadline restarts.
// Not thread-safe: used by the loop thread only. Closes its socket when
// destroyed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "metrics/http_client_waits.h"
#include "metrics/http_response.h"

namespace metrics {

class HttpConnection {
 public:
  using Responder = std::function<HttpResponse(std::string_view path)>;

  // Takes ownership of the non-blocking socket `fd`; `respond` must outlive
  // the connection.
  HttpConnection(int fd, size_t max_header_bytes, const Responder& respond);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  void OnReadable();
  void OnWritable();

  // The client went away or broke the protocol: drop the connection.
  bool closed() const { return closed_; }
  // Poll for writability (an answer to write or a buffered request to
  // answer) rather than readability.
  bool wants_write() const { return !out_.empty() || answer_buffered_request_; }
  ClientWait wait() const { return wait_; }
  uint64_t waits_begun() const { return waits_begun_; }

 private:
  void Begin(ClientWait wait);
  void Answer();
  void Send(const HttpResponse& response, bool head_only, bool keep_alive);
  void Flush();
  void Discard();

  const int fd_;
  const size_t max_header_bytes_;
  const Responder& respond_;
  std::string in_;   // received, not yet answered
  std::string out_;  // the answer being written
  size_t out_written_ = 0;
  bool keep_alive_ = true;  // of the answer being written
  bool answer_buffered_request_ = false;
  bool closed_ = false;
  ClientWait wait_ = ClientWait::kRequestHead;
  uint64_t waits_begun_ = 0;
};

}  // namespace metrics
