// The head of an HTTP/1.1 request as the transport writes it: request line,
// then Host, User-Agent, Accept, the authorizations, Content-Type and
// Content-Length, each only when it has a value. A value containing CR or LF
// is refused, so that no caller-provided text (a token read from a file, a
// path) can add a header line.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace kube {

struct RequestHead {
  std::string_view method;
  std::string_view target;  // origin form ("/api/v1/..."), or absolute through an http proxy
  std::string_view host;    // "host[:port]"
  std::string_view user_agent;
  std::string_view accept = "application/json";
  std::string_view authorization;        // full value ("Bearer ...")
  std::string_view proxy_authorization;  // full value ("Basic ...")
  std::string_view content_type;
  std::optional<size_t> content_length;
};

// Errors name the header, never its value.
base::Result<std::string> FormatRequestHead(const RequestHead& head);
// The checks FormatRequestHead makes, for a head sent another way (HTTP/2).
base::Status CheckRequestHead(const RequestHead& head);

}  // namespace kube
