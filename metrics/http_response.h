// HttpResponse: what a route answers, and its HTTP/1.1 wire form.
//
// The wire form always carries Content-Length (so a kept-alive connection
// knows where the next response starts) and "Connection: close" exactly when
// the server will close after it.
#pragma once

#include <string>

namespace metrics {

struct HttpResponse {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain; charset=utf-8";
};

// Status line, headers and, unless `head_only` (a HEAD request), the body.
std::string SerializeResponse(const HttpResponse& response, bool head_only, bool keep_alive);

}  // namespace metrics
