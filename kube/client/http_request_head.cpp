#include "kube/client/http_request_head.h"

#include <array>
#include <utility>

namespace kube {
namespace {

// Two scans for one character each: find_first_of("\r\n") calls memchr once
// per character of `value`, and a bearer token is a kilobyte long.
bool HasLineBreak(std::string_view value) {
  return value.find('\n') != std::string_view::npos || value.find('\r') != std::string_view::npos;
}

// The header lines after the request line, in the order they are written.
std::array<std::pair<std::string_view, std::string_view>, 6> Fields(const RequestHead& head) {
  return {{
      {"Host", head.host},
      {"User-Agent", head.user_agent},
      {"Accept", head.accept},
      {"Authorization", head.authorization},
      {"Proxy-Authorization", head.proxy_authorization},
      {"Content-Type", head.content_type},
  }};
}

}  // namespace

base::Status CheckRequestHead(const RequestHead& head) {
  if (HasLineBreak(head.method) || HasLineBreak(head.target) ||
      head.target.find(' ') != std::string_view::npos) {
    return base::Error("the request method or path holds a space or line break");
  }
  for (const auto& [name, value] : Fields(head)) {
    if (HasLineBreak(value))
      return base::Error("the " + std::string(name) + " value holds a line break");
  }
  return {};
}

base::Result<std::string> FormatRequestHead(const RequestHead& head) {
  if (auto status = CheckRequestHead(head); !status.ok()) return status.error();
  std::string out;
  out.reserve(256 + head.target.size() + head.authorization.size());
  out.append(head.method).append(" ").append(head.target).append(" HTTP/1.1\r\n");
  for (const auto& [name, value] : Fields(head)) {
    if (!value.empty()) out.append(name).append(": ").append(value).append("\r\n");
  }
  if (head.content_length) {
    out.append("Content-Length: ").append(std::to_string(*head.content_length)).append("\r\n");
  }
  out.append("\r\n");
  return out;
}

}  // namespace kube
