#include "kube/api/resource.h"

namespace kube {

void AppendEscapedPathSegment(std::string& out, std::string_view segment) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : segment) {
    bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
}

std::string GroupVersionPath(const KindFacts& facts) {
  std::string path = facts.group().empty() ? "/api/" : "/apis/";
  path += facts.api_version;
  return path;
}

}  // namespace kube
