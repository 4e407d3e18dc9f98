#include "metrics/http_connection.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <variant>

#include "metrics/http_request.h"

namespace metrics {
namespace {

constexpr size_t kReadChunk = 16 * 1024;

bool WouldBlock() { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR; }

}  // namespace

HttpConnection::HttpConnection(int fd, size_t max_header_bytes, const Responder& respond)
    : fd_(fd), max_header_bytes_(max_header_bytes), respond_(respond) {
  Begin(ClientWait::kRequestHead);
}

HttpConnection::~HttpConnection() { close(fd_); }

void HttpConnection::Begin(ClientWait wait) {
  wait_ = wait;
  ++waits_begun_;
}

void HttpConnection::OnReadable() {
  if (wait_ == ClientWait::kLinger) {
    Discard();
    return;
  }
  // A head never exceeds max_header_bytes_, so never buffer more than that:
  // the parser reports "too large" once the buffer is full without one.
  char buffer[kReadChunk];
  size_t room = std::min(sizeof(buffer), max_header_bytes_ - in_.size());
  ssize_t n = recv(fd_, buffer, room, 0);
  if (n < 0 && WouldBlock()) return;
  if (n <= 0) {
    closed_ = true;  // gone (or failed) before a whole request arrived
    return;
  }
  in_.append(buffer, static_cast<size_t>(n));
  if (wait_ == ClientWait::kNextRequest) Begin(ClientWait::kRequestHead);
  Answer();
}

void HttpConnection::OnWritable() {
  if (!out_.empty()) {
    Flush();
  } else if (answer_buffered_request_) {
    answer_buffered_request_ = false;
    Answer();
  }
}

void HttpConnection::Answer() {
  RequestHeadParse parsed = ParseRequestHead(in_, max_header_bytes_);
  if (std::holds_alternative<HeadIncomplete>(parsed)) return;
  if (std::holds_alternative<HeadTooLarge>(parsed)) {
    Send({431, "431 Request Header Fields Too Large"}, false, false);
  } else if (std::holds_alternative<HeadMalformed>(parsed)) {
    Send({400, "400 Bad Request"}, false, false);
  } else {
    const HttpRequestHead& head = std::get<HttpRequestHead>(parsed);
    in_.erase(0, head.head_bytes);
    Send(respond_(head.path), head.method == "HEAD", head.keep_alive);
  }
}

void HttpConnection::Send(const HttpResponse& response, bool head_only, bool keep_alive) {
  out_ = SerializeResponse(response, head_only, keep_alive);
  out_written_ = 0;
  keep_alive_ = keep_alive;
  if (!keep_alive) in_.clear();
  Begin(ClientWait::kResponseRead);
  Flush();
}

void HttpConnection::Flush() {
  while (out_written_ < out_.size()) {
    ssize_t n = send(fd_, out_.data() + out_written_, out_.size() - out_written_, MSG_NOSIGNAL);
    if (n < 0 && WouldBlock()) return;
    if (n < 0) {
      closed_ = true;
      return;
    }
    out_written_ += static_cast<size_t>(n);
  }
  out_ = std::string();  // a scrape's capacity is not kept per idle connection
  if (!keep_alive_) {
    shutdown(fd_, SHUT_WR);
    Begin(ClientWait::kLinger);
  } else if (in_.empty()) {
    Begin(ClientWait::kNextRequest);
  } else {
    // Pipelined: the next request is answered on the next turn.
    Begin(ClientWait::kRequestHead);
    answer_buffered_request_ = true;
  }
}

void HttpConnection::Discard() {
  char buffer[kReadChunk];
  ssize_t n = recv(fd_, buffer, sizeof(buffer), 0);
  if (n < 0 && WouldBlock()) return;
  if (n <= 0) closed_ = true;  // the client closed (or reset): done
}

}  // namespace metrics
