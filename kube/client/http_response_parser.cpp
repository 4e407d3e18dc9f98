#include "kube/client/http_response_parser.h"

#include <charconv>
#include <cstring>

#include "base/ascii.h"

namespace kube {
namespace {

constexpr size_t kQuotedPrefix = 40;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// A short printable prefix of a line the server sent, for an error message.
std::string Quote(std::string_view line) {
  std::string out = "\"";
  for (char c : line.substr(0, kQuotedPrefix)) out += c >= 0x20 && c < 0x7f ? c : '?';
  if (line.size() > kQuotedPrefix) out += "...";
  return out + "\"";
}

// Calls `visit` on each comma-separated, trimmed token of a header value.
template <class Visit>
void ForEachToken(std::string_view value, Visit visit) {
  while (true) {
    size_t comma = value.find(',');
    if (std::string_view token = base::TrimOptionalWhitespace(value.substr(0, comma));
        !token.empty())
      visit(token);
    if (comma == std::string_view::npos) return;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace

std::optional<int> ParseRetryAfterSeconds(std::string_view value) {
  constexpr size_t kMaxDigits = 6;
  value = base::TrimOptionalWhitespace(value);
  int seconds = 0;
  size_t digits = 0;
  for (char c : value) {
    if (c < '0' || c > '9') break;
    seconds = seconds * 10 + (c - '0');
    if (++digits > kMaxDigits) return std::nullopt;
  }
  if (digits == 0) return std::nullopt;
  return seconds;
}

base::Result<bool> HttpResponseParser::TakeLine(std::string_view& data, size_t limit,
                                                std::string_view what) {
  size_t newline = data.find('\n');
  size_t take = newline == std::string_view::npos ? data.size() : newline + 1;
  if (line_.size() + take > limit) {
    return base::Error(std::string(what) + " exceeds " + std::to_string(limit) + " bytes");
  }
  line_.append(data.substr(0, take));
  data.remove_prefix(take);
  if (newline == std::string_view::npos) return false;
  line_.pop_back();
  if (!line_.empty() && line_.back() == '\r') line_.pop_back();
  return true;
}

base::Status HttpResponseParser::OnStatusLine() {
  // "HTTP/1.x SSS[ reason]"
  std::string_view line = line_;
  bool ok = line.size() >= 12 && line.starts_with("HTTP/1.") && line[7] >= '0' && line[7] <= '9' &&
            line[8] == ' ' && (line.size() == 12 || line[12] == ' ');
  int status = 0;
  if (ok) {
    auto [end, ec] = std::from_chars(line.data() + 9, line.data() + 12, status);
    ok = ec == std::errc() && end == line.data() + 12 && status >= 100;
  }
  if (!ok) return base::Error("malformed HTTP status line " + Quote(line));
  head_ = ResponseHead();
  head_.status = status;
  http10_ = line[7] == '0';
  head_.keep_alive = !http10_;
  chunked_ = false;
  content_length_.reset();
  state_ = State::kHeaders;
  return {};
}

base::Status HttpResponseParser::OnHeaderLine() {
  std::string_view line = line_;
  // An obsolete folded continuation line adds to a header we do not read.
  if (line.front() == ' ' || line.front() == '\t') return {};
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return base::Error("malformed HTTP header line " + Quote(line));
  }
  std::string_view name = line.substr(0, colon);
  std::string_view value = base::TrimOptionalWhitespace(line.substr(colon + 1));
  if (EqualsIgnoreCase(name, "content-length")) {
    size_t length = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() ||
        (content_length_ && *content_length_ != length)) {
      return base::Error("bad Content-Length " + Quote(value));
    }
    content_length_ = length;
  } else if (EqualsIgnoreCase(name, "transfer-encoding")) {
    ForEachToken(value, [&](std::string_view coding) {
      chunked_ = EqualsIgnoreCase(coding, "chunked");
      if (!chunked_) head_.keep_alive = false;  // only the close can end such a body
    });
  } else if (EqualsIgnoreCase(name, "connection")) {
    ForEachToken(value, [&](std::string_view option) {
      if (EqualsIgnoreCase(option, "close")) head_.keep_alive = false;
      if (EqualsIgnoreCase(option, "keep-alive") && http10_) head_.keep_alive = true;
    });
  } else if (EqualsIgnoreCase(name, "content-type")) {
    head_.content_type = value;
  } else if (EqualsIgnoreCase(name, "retry-after")) {
    head_.retry_after_seconds = ParseRetryAfterSeconds(value);
  }
  return {};
}

base::Status HttpResponseParser::OnHeadEnd() {
  const int status = head_.status;
  if (status < 200 && status != 101) {  // an interim answer: the real one follows
    state_ = State::kStatusLine;
    return {};
  }
  if (head_only_ || status == 101 || status == 204 || status == 304) {
    state_ = State::kDone;
    return {};
  }
  if (chunked_) {
    // RFC 9112 §6.1: a message with both must not reuse the connection.
    if (content_length_) head_.keep_alive = false;
    state_ = State::kChunkSize;
  } else if (content_length_) {
    remaining_ = *content_length_;
    state_ = remaining_ == 0 ? State::kDone : State::kFixedBody;
  } else {
    head_.keep_alive = false;
    state_ = State::kUntilClose;
  }
  return {};
}

base::Status HttpResponseParser::OnChunkSizeLine() {
  std::string_view line = line_;
  std::string_view size_text =
      base::TrimOptionalWhitespace(line.substr(0, line.find(';')));  // drop extensions
  size_t size = 0;
  auto [end, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
  if (size_text.empty() || ec != std::errc() || end != size_text.data() + size_text.size()) {
    return base::Error("malformed chunk size line " + Quote(line));
  }
  remaining_ = size;
  if (size == 0) {
    head_bytes_ = 0;
    state_ = State::kTrailers;
  } else {
    state_ = State::kChunkData;
  }
  return {};
}

size_t HttpResponseParser::HeadBudget() const {
  return head_bytes_ < kMaxHeadBytes ? kMaxHeadBytes - head_bytes_ : 0;
}

bool HttpResponseParser::Deliver(std::string_view bytes, const BodySink& sink) {
  if (bytes.empty() || sink(bytes)) return true;
  stopped_by_sink_ = true;
  return false;
}

base::Result<size_t> HttpResponseParser::Feed(std::string_view data, const BodySink& sink) {
  const size_t total = data.size();
  if (!data.empty()) started_ = true;
  auto consumed = [&] { return total - data.size(); };
  while (!data.empty() && state_ != State::kDone && !stopped_by_sink_) {
    switch (state_) {
      case State::kStatusLine:
      case State::kHeaders: {
        auto line = TakeLine(data, HeadBudget(), "HTTP response head");
        if (!line.ok()) return line.error();
        if (!*line) break;
        head_bytes_ += line_.size() + 2;
        base::Status status;
        if (state_ == State::kStatusLine) {
          status = OnStatusLine();
        } else {
          status = line_.empty() ? OnHeadEnd() : OnHeaderLine();
        }
        line_.clear();
        if (!status.ok()) return status.error();
        if (state_ == State::kStatusLine) head_bytes_ = 0;  // after an interim answer
        break;
      }
      case State::kFixedBody:
      case State::kChunkData: {
        std::string_view piece = data.substr(0, remaining_);
        data.remove_prefix(piece.size());
        remaining_ -= piece.size();
        if (remaining_ == 0)
          state_ = state_ == State::kFixedBody ? State::kDone : State::kChunkDataEnd;
        Deliver(piece, sink);
        break;
      }
      case State::kChunkSize:
      case State::kChunkDataEnd: {
        auto line = TakeLine(data, kMaxLineBytes, "chunk size line");
        if (!line.ok()) return line.error();
        if (!*line) break;
        base::Status status;
        if (state_ == State::kChunkDataEnd) {
          if (!line_.empty()) status = base::Error("chunk data longer than its size");
          state_ = State::kChunkSize;
        } else {
          status = OnChunkSizeLine();
        }
        line_.clear();
        if (!status.ok()) return status.error();
        break;
      }
      case State::kTrailers: {
        auto line = TakeLine(data, HeadBudget(), "HTTP trailer section");
        if (!line.ok()) return line.error();
        if (!*line) break;
        head_bytes_ += line_.size() + 2;
        if (line_.empty()) state_ = State::kDone;
        line_.clear();
        break;
      }
      case State::kUntilClose:
        Deliver(data, sink);
        data = {};
        break;
      case State::kDone:
        break;
    }
  }
  return consumed();
}

base::Status HttpResponseParser::FinishAtEof() {
  if (state_ == State::kUntilClose) state_ = State::kDone;
  if (state_ == State::kDone) return {};
  if (!started_) return base::Error("connection closed before any response");
  if (!head_complete()) return base::Error("connection closed inside the response head");
  return base::Error("connection closed before the end of the response body");
}

}  // namespace kube
