// HttpResponseParser: reads one HTTP/1.1 response from the bytes of a
// connection, fed in pieces of any size (a split at any byte gives the same
// result). It parses the status line and headers, then delimits the body as
// RFC 9112 §6.3 says: none for 1xx (skipped), 204 and 304; chunked when
// Transfer-Encoding ends in "chunked" (chunk extensions and trailers are read
// and dropped); Content-Length bytes; otherwise until the connection closes.
// Body bytes go to the caller's sink as they arrive, decoded.
//
// The head (status line plus headers) and each chunk-size or trailer line are
// bounded, so a misbehaving server cannot make it buffer without end. Errors
// describe the protocol violation; they quote at most a short, sanitised
// prefix of the offending line.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace kube {

struct ResponseHead {
  int status = 0;
  // Whether the connection may carry another request after this response.
  bool keep_alive = true;
  std::optional<int> retry_after_seconds;  // Retry-After in seconds (dates are ignored)
  std::string content_type;                // "" when absent
};

// A Retry-After value in seconds; nullopt for anything else (dates included).
std::optional<int> ParseRetryAfterSeconds(std::string_view value);

class HttpResponseParser {
 public:
  static constexpr size_t kMaxHeadBytes = 256 * 1024;
  static constexpr size_t kMaxLineBytes = 16 * 1024;  // a chunk-size or trailer line

  // Receives decoded body bytes; returning false stops the parser (Feed returns at once).
  using BodySink = std::function<bool(std::string_view)>;

  // `head_only`: the answer to CONNECT, which ends with its head.
  explicit HttpResponseParser(bool head_only = false) : head_only_(head_only) {}

  // Consumes bytes from the front of `data` and returns how many: all of them
  // unless the response completed (the rest belongs to no response) or the
  // sink returned false.
  base::Result<size_t> Feed(std::string_view data, const BodySink& sink);

  // The peer closed the connection: ends a close-delimited body; before the
  // response is complete otherwise, it is an error.
  base::Status FinishAtEof();

  bool started() const { return started_; }
  bool head_complete() const { return state_ > State::kHeaders; }
  bool complete() const { return state_ == State::kDone; }
  bool stopped_by_sink() const { return stopped_by_sink_; }
  const ResponseHead& head() const { return head_; }

 private:
  enum class State {
    kStatusLine,
    kHeaders,
    kFixedBody,
    kChunkSize,
    kChunkData,
    kChunkDataEnd,
    kTrailers,
    kUntilClose,
    kDone,
  };

  // Appends to line_ up to a '\n'; true once a whole line (without CR LF) is in line_.
  base::Result<bool> TakeLine(std::string_view& data, size_t limit, std::string_view what);
  base::Status OnStatusLine();
  base::Status OnHeaderLine();
  base::Status OnHeadEnd();
  base::Status OnChunkSizeLine();
  size_t HeadBudget() const;  // what the head (or trailer section) may still take
  bool Deliver(std::string_view bytes, const BodySink& sink);

  const bool head_only_;
  State state_ = State::kStatusLine;
  bool started_ = false;
  bool stopped_by_sink_ = false;
  std::string line_;
  size_t head_bytes_ = 0;
  ResponseHead head_;
  bool http10_ = false;
  bool chunked_ = false;
  std::optional<size_t> content_length_;
  size_t remaining_ = 0;  // of the fixed body or the current chunk
};

}  // namespace kube
