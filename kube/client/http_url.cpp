#include "kube/client/http_url.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

#include "base/ascii.h"

namespace kube {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

base::Result<std::string> PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    int high = i + 2 < s.size() ? HexValue(s[i + 1]) : -1;
    int low = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
    if (high < 0 || low < 0) return base::Error("bad percent escape in URL userinfo");
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

bool IsIpLiteral(std::string_view host) {
  std::string text(host);
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(AF_INET, text.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

std::string HttpUrl::Authority() const {
  std::string out = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return out + ":" + std::to_string(port);
}

std::string HttpUrl::HostHeader() const {
  if (port != (tls() ? 443 : 80)) return Authority();
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

base::Result<HttpUrl> HttpUrl::Parse(std::string_view url) {
  HttpUrl out;
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return base::Error("URL has no scheme://");
  out.scheme = base::AsciiLower(url.substr(0, scheme_end));
  if (out.scheme != "http" && out.scheme != "https") {
    return base::Error("URL scheme \"" + out.scheme + "\" is not http or https");
  }
  std::string_view rest = url.substr(scheme_end + 3);
  size_t authority_end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, authority_end);
  if (authority_end != std::string_view::npos) {
    out.path = std::string(rest.substr(authority_end));
    if (out.path.front() != '/') out.path.insert(0, "/");
  }
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    auto userinfo = PercentDecode(authority.substr(0, at));
    if (!userinfo.ok()) return userinfo.error();
    out.userinfo = std::move(userinfo).value();
    authority.remove_prefix(at + 1);
  }
  std::string_view port_text;
  if (authority.starts_with('[')) {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return base::Error("URL has an unclosed IPv6 bracket");
    out.host = base::AsciiLower(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return base::Error("URL has text after its IPv6 host");
      port_text = after.substr(1);
    }
  } else {
    size_t colon = authority.rfind(':');
    out.host = base::AsciiLower(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (out.host.empty()) return base::Error("URL has no host");
  if (port_text.empty()) {
    out.port = out.tls() ? 443 : 80;
  } else {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 ||
        value > 65535) {
      return base::Error("URL port \"" + std::string(port_text) + "\" is not a port number");
    }
    out.port = static_cast<uint16_t>(value);
  }
  return out;
}

}  // namespace kube
