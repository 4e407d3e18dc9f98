#include "migration/url_path.h"

#include "base/strconv.h"

namespace migration {
namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// An ASCII character a host may hold unescaped (RFC 3986 sub-delims and
// unreserved characters, plus the few more Go lets through).
bool IsHostChar(char c) {
  return static_cast<unsigned char>(c) >= 0x80 || IsAlnum(c) ||
         std::string_view("!$&'()*+,;=:[]<>\"-_.~").find(c) != std::string_view::npos;
}

enum class Part { kHost, kOther };

// Decodes the percent escapes of one URL part.
base::Result<std::string> Unescape(std::string_view s, Part part) {
  std::string decoded;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      if (i + 2 >= s.size() || HexValue(s[i + 1]) < 0 || HexValue(s[i + 2]) < 0) {
        return base::Error("invalid URL escape " + base::GoQuote(s.substr(i, 3)));
      }
      // A host may escape only non-ASCII bytes, and '%' itself (IPv6 zones).
      if (part == Part::kHost && HexValue(s[i + 1]) < 8 && s.substr(i, 3) != "%25") {
        return base::Error("invalid URL escape " + base::GoQuote(s.substr(i, 3)));
      }
      decoded += static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2]));
      i += 2;
    } else if (part == Part::kHost && !IsHostChar(s[i])) {
      return base::Error("invalid character " + base::GoQuote(s.substr(i, 1)) + " in host name");
    } else {
      decoded += s[i];
    }
  }
  return decoded;
}

// Go accepts "" or ":<digits>" after the host.
bool IsOptionalPort(std::string_view port) {
  if (port.empty()) return true;
  if (port[0] != ':') return false;
  return port.find_first_not_of("0123456789", 1) == std::string_view::npos;
}

base::Status CheckHost(std::string_view host) {
  size_t port_start = host.rfind(':');
  if (host.starts_with('[')) {
    size_t close = host.rfind(']');
    if (close == std::string_view::npos) return base::Error("missing ']' in host");
    port_start = close + 1;
  }
  if (port_start != std::string_view::npos) {
    std::string_view port = host.substr(port_start);
    if (!IsOptionalPort(port)) {
      return base::Error("invalid port " + base::GoQuote(port) + " after host");
    }
    host = host.substr(0, port_start);
  }
  if (auto decoded = Unescape(host, Part::kHost); !decoded.ok()) return decoded.error();
  return base::Status::Ok();
}

base::Status CheckAuthority(std::string_view authority) {
  size_t at = authority.rfind('@');
  if (auto host = CheckHost(at == std::string_view::npos ? authority : authority.substr(at + 1));
      !host.ok()) {
    return host;
  }
  if (at == std::string_view::npos) return base::Status::Ok();
  std::string_view userinfo = authority.substr(0, at);
  for (char c : userinfo) {
    if (!IsAlnum(c) && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos) {
      return base::Error("net/url: invalid userinfo");
    }
  }
  if (auto decoded = Unescape(userinfo, Part::kOther); !decoded.ok()) return decoded.error();
  return base::Status::Ok();
}

// The path of `url`, which has no fragment.
base::Result<std::string> PathOf(std::string_view url) {
  for (unsigned char c : url) {
    if (c < 0x20 || c == 0x7f) return base::Error("net/url: invalid control character in URL");
  }
  size_t scheme_end = url.find("://");
  std::string_view rest = scheme_end == std::string_view::npos ? url : url.substr(scheme_end + 3);
  rest = rest.substr(0, rest.find('?'));
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (auto checked = CheckAuthority(authority); !checked.ok()) return checked.error();
  if (slash == std::string_view::npos) return std::string();
  return Unescape(rest.substr(slash), Part::kOther);
}

}  // namespace

base::Result<std::string> UrlPathOf(std::string_view url) {
  // Go parses the fragment last, and names the URL without it in the errors
  // of the other parts.
  size_t hash = url.find('#');
  std::string_view without_fragment = url.substr(0, hash);
  auto path = PathOf(without_fragment);
  if (!path.ok()) return path.error().Wrap("parse " + base::GoQuote(without_fragment));
  if (hash != std::string_view::npos) {
    if (auto fragment = Unescape(url.substr(hash + 1), Part::kOther); !fragment.ok()) {
      return fragment.error().Wrap("parse " + base::GoQuote(url));
    }
  }
  return path;
}

}  // namespace migration
