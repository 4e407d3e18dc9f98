#include "kube/client/proxy_selection.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "base/ascii.h"

namespace kube {
namespace {

std::string Env(const char* upper, const char* lower) {
  if (const char* v = std::getenv(upper); v != nullptr && *v != '\0') return v;
  if (const char* v = std::getenv(lower); v != nullptr) return v;
  return "";
}

// An address in network byte order, 4 or 16 bytes long.
struct Address {
  int family = 0;
  unsigned char bytes[16] = {};
  int bits() const { return family == AF_INET ? 32 : 128; }
};

std::optional<Address> ParseAddress(std::string_view text) {
  Address a;
  std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), a.bytes) == 1) {
    a.family = AF_INET;
    return a;
  }
  if (inet_pton(AF_INET6, s.c_str(), a.bytes) == 1) {
    a.family = AF_INET6;
    return a;
  }
  return std::nullopt;
}

bool IsLoopback(const Address& a) {
  if (a.family == AF_INET) return a.bytes[0] == 127;
  static constexpr unsigned char kV6Loopback[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return std::memcmp(a.bytes, kV6Loopback, 16) == 0;
}

bool InPrefix(const Address& a, const Address& network, int prefix_bits) {
  if (a.family != network.family) return false;
  int full = prefix_bits / 8, rest = prefix_bits % 8;
  if (std::memcmp(a.bytes, network.bytes, static_cast<size_t>(full)) != 0) return false;
  if (rest == 0) return true;
  unsigned char mask = static_cast<unsigned char>(0xFF << (8 - rest));
  return (a.bytes[full] & mask) == (network.bytes[full] & mask);
}

// Splits "host:port", "[v6]:port", "[v6]" or a bare host/IP/CIDR entry.
void SplitEntryPort(std::string_view entry, std::string_view& host, std::string_view& port) {
  port = {};
  if (entry.starts_with('[')) {
    size_t close = entry.find(']');
    host = entry.substr(1, close == std::string_view::npos ? entry.npos : close - 1);
    if (close != std::string_view::npos && entry.substr(close + 1).starts_with(':')) {
      port = entry.substr(close + 2);
    }
    return;
  }
  size_t colon = entry.rfind(':');
  // More than one colon without brackets: an IPv6 address or CIDR, no port.
  if (colon == std::string_view::npos || entry.find(':') != colon) {
    host = entry;
    return;
  }
  host = entry.substr(0, colon);
  port = entry.substr(colon + 1);
}

bool EntryMatches(std::string_view entry, std::string_view host,
                  const std::optional<Address>& host_address, uint16_t port) {
  if (entry == "*") return true;
  if (size_t slash = entry.find('/'); slash != std::string_view::npos) {
    auto network = ParseAddress(entry.substr(0, slash));
    int bits = -1;
    std::string_view bits_text = entry.substr(slash + 1);
    auto [end, ec] = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
    if (!network || ec != std::errc() || end != bits_text.data() + bits_text.size() || bits < 0 ||
        bits > network->bits()) {
      return false;
    }
    return host_address && InPrefix(*host_address, *network, bits);
  }
  std::string_view entry_host, entry_port;
  SplitEntryPort(entry, entry_host, entry_port);
  if (!entry_port.empty() && entry_port != std::to_string(port)) return false;
  if (auto address = ParseAddress(entry_host)) {
    return host_address && InPrefix(*host_address, *address, address->bits());
  }
  std::string suffix = base::AsciiLower(entry_host);
  bool matches_host_itself = true;
  if (suffix.starts_with("*.")) suffix.erase(0, 1);
  if (suffix.starts_with('.')) {
    matches_host_itself = false;
  } else {
    suffix.insert(0, ".");
  }
  if (suffix.size() < 2) return false;
  return host.ends_with(suffix) || (matches_host_itself && host == suffix.substr(1));
}

}  // namespace

ProxyEnvironment ProxyEnvironment::FromProcess() {
  return {Env("HTTPS_PROXY", "https_proxy"), Env("HTTP_PROXY", "http_proxy"),
          Env("NO_PROXY", "no_proxy")};
}

bool NoProxyMatches(std::string_view no_proxy, std::string_view host, uint16_t port) {
  const auto host_address = ParseAddress(host);
  while (!no_proxy.empty()) {
    size_t comma = no_proxy.find(',');
    std::string_view entry = base::TrimOptionalWhitespace(no_proxy.substr(0, comma));
    no_proxy = comma == std::string_view::npos ? std::string_view() : no_proxy.substr(comma + 1);
    if (!entry.empty() && EntryMatches(entry, host, host_address, port)) return true;
  }
  return false;
}

base::Result<std::optional<HttpUrl>> SelectProxy(const ProxyEnvironment& env,
                                                 const HttpUrl& target) {
  const char* variable = target.tls() ? "HTTPS_PROXY" : "HTTP_PROXY";
  std::string_view value =
      base::TrimOptionalWhitespace(target.tls() ? env.https_proxy : env.http_proxy);
  if (value.empty()) return std::optional<HttpUrl>();
  if (target.host == "localhost") return std::optional<HttpUrl>();
  if (auto address = ParseAddress(target.host); address && IsLoopback(*address)) {
    return std::optional<HttpUrl>();
  }
  if (NoProxyMatches(env.no_proxy, target.host, target.port)) return std::optional<HttpUrl>();
  std::string url(value);
  if (url.find("://") == std::string::npos) url.insert(0, "http://");
  auto proxy = HttpUrl::Parse(url);
  if (!proxy.ok()) return proxy.error().Wrap(std::string(variable));
  if (proxy->tls()) {
    return base::Error(std::string(variable) +
                       ": https:// proxies are not supported, only http:// ones");
  }
  return std::optional<HttpUrl>(std::move(proxy).value());
}

}  // namespace kube
