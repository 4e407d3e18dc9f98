// ParseRequestHead: reads one HTTP/1.x request head (request line + header
// fields, up to the blank line) from the front of a connection's input.
//
// Only what the endpoint needs is extracted: the method (HEAD gets no body),
// the path (query string dropped: routes match the path exactly) and whether
// the connection may carry another request afterwards. Request bodies are
// never read: a request announcing one (Content-Length > 0 or any
// Transfer-Encoding) is answered and its connection closed, which keeps
// pipelined input unambiguous without a body parser.
//
// Keep-alive follows RFC 9112 §9.3: HTTP/1.1 persists unless "Connection:
// close"; HTTP/1.0 closes unless "Connection: keep-alive". Lines may end in
// CRLF or a bare LF, as Go's server accepts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace metrics {

struct HttpRequestHead {
  std::string method;
  std::string path;
  bool keep_alive = true;
  size_t head_bytes = 0;  // length of the head including its blank line
};

struct HeadIncomplete {};  // no blank line yet and the limit not reached
struct HeadTooLarge {};    // no blank line within the limit: answer 431
struct HeadMalformed {};   // not an HTTP/1.x request: answer 400

using RequestHeadParse = std::variant<HttpRequestHead, HeadIncomplete, HeadTooLarge, HeadMalformed>;

// Parses the head at the front of `input`; a head longer than
// `max_head_bytes` is too large even when complete.
RequestHeadParse ParseRequestHead(std::string_view input, size_t max_head_bytes);

}  // namespace metrics
