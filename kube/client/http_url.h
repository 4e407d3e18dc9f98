// HttpUrl: the parts of an "http://" or "https://" URL the transport needs to
// connect and to address requests: the API server's URL (RestConfig::server)
// and a proxy's (HTTPS_PROXY, HTTP_PROXY). IPv6 hosts are written in brackets
// ("https://[::1]:6443"); the host is kept without them. A port defaults to
// the scheme's (443, 80). Userinfo ("user:password@") is kept, decoded, for
// proxy authentication; error messages never repeat it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace kube {

struct HttpUrl {
  std::string scheme;  // "http" or "https", lower case
  std::string host;    // lower case, without IPv6 brackets
  uint16_t port = 0;
  std::string path;      // "" or starting with '/', no trailing slash added or removed
  std::string userinfo;  // "user:password" percent-decoded, or ""

  bool tls() const { return scheme == "https"; }
  // "host:port" as the Host header and CONNECT write it (IPv6 in brackets).
  std::string Authority() const;
  // Authority() without the port when it is the scheme's default.
  std::string HostHeader() const;

  static base::Result<HttpUrl> Parse(std::string_view url);
};

// Whether `host` is an IPv4 or IPv6 literal (no brackets).
bool IsIpLiteral(std::string_view host);

}  // namespace kube
