// HttpRequest and HttpResponse: one request to the API server and its
// answer, as the transport (http_transport.h) takes and returns them whichever
// HTTP version carries them.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kube {

struct HttpRequest {
  std::string_view method = "GET";
  std::string path;  // path + query, appended to RestConfig::server
  std::string_view body;
  std::string_view content_type;
  std::chrono::milliseconds timeout{0};  // whole request; 0 = none (watches)
  std::string_view accept = "application/json";
};

struct HttpResponse {
  long status = 0;
  std::string body;
  std::optional<int> retry_after_seconds;  // from a Retry-After header in seconds
};

}  // namespace kube
