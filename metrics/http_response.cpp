#include "metrics/http_response.h"

#include <string_view>

namespace metrics {
namespace {

std::string_view Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

}  // namespace

std::string SerializeResponse(const HttpResponse& response, bool head_only, bool keep_alive) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " ";
  out.append(Reason(response.status)).append("\r\nContent-Type: ").append(response.content_type);
  out.append("\r\nContent-Length: ").append(std::to_string(response.body.size()));
  out.append(keep_alive ? "\r\n\r\n" : "\r\nConnection: close\r\n\r\n");
  if (!head_only) out.append(response.body);
  return out;
}

}  // namespace metrics
