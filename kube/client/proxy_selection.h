// Proxy selection from the environment, as client-go (Go's
// http.ProxyFromEnvironment) and libcurl do it: HTTPS_PROXY for https targets,
// HTTP_PROXY for http ones (upper case wins over lower case), and NO_PROXY, a
// comma-separated list whose entries each exempt a target:
//   "*"                   every target;
//   an IP or CIDR         a target host that is that address or in that block;
//   "example.com"         that host and its subdomains;
//   ".example.com", "*.example.com"  its subdomains only;
//   any of these with ":port"       only targets on that port.
// "localhost" and loopback addresses never use a proxy. A proxy without a
// scheme is taken as http://; only http:// proxies are supported (https
// targets tunnel through them with CONNECT).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/client/http_url.h"

namespace kube {

struct ProxyEnvironment {
  std::string https_proxy;
  std::string http_proxy;
  std::string no_proxy;

  static ProxyEnvironment FromProcess();
};

// Whether NO_PROXY's `no_proxy` exempts `host` (lower case, no brackets) on `port`.
bool NoProxyMatches(std::string_view no_proxy, std::string_view host, uint16_t port);

// The proxy for `target`, or nullopt for a direct connection. Errors name the
// variable and what is wrong with it, never its userinfo.
base::Result<std::optional<HttpUrl>> SelectProxy(const ProxyEnvironment& env,
                                                 const HttpUrl& target);

}  // namespace kube
