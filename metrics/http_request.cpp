#include "metrics/http_request.h"

#include <algorithm>
#include <cctype>

#include "base/ascii.h"

namespace metrics {
namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Whether the comma-separated `list` holds `token` (case-insensitive).
bool HasToken(std::string_view list, std::string_view token) {
  while (!list.empty()) {
    size_t comma = std::min(list.find(','), list.size());
    if (EqualsIgnoringCase(base::TrimOptionalWhitespace(list.substr(0, comma)), token)) return true;
    list.remove_prefix(std::min(comma + 1, list.size()));
  }
  return false;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Splits "METHOD SP target SP HTTP/1.x" into `head`; false when malformed.
bool ParseRequestLine(std::string_view line, HttpRequestHead& head, bool& http10) {
  size_t first = line.find(' ');
  if (first == std::string_view::npos || first == 0) return false;
  size_t second = line.find(' ', first + 1);
  if (second == std::string_view::npos || second == first + 1) return false;
  std::string_view version = line.substr(second + 1);
  if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || !AllDigits(version.substr(7))) {
    return false;
  }
  std::string_view target = line.substr(first + 1, second - first - 1);
  head.method = line.substr(0, first);
  head.path = target.substr(0, target.find('?'));
  http10 = version == "HTTP/1.0";
  return true;
}

}  // namespace

RequestHeadParse ParseRequestHead(std::string_view input, size_t max_head_bytes) {
  HttpRequestHead head;
  bool http10 = false;
  bool connection_close = false;
  bool connection_keep_alive = false;
  bool has_body = false;
  for (size_t line_start = 0;;) {
    size_t newline = input.find('\n', line_start);
    if (newline == std::string_view::npos || newline >= max_head_bytes) {
      if (input.size() >= max_head_bytes) return HeadTooLarge{};
      return HeadIncomplete{};
    }
    std::string_view line = input.substr(line_start, newline - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_start == 0) {
      if (!ParseRequestLine(line, head, http10)) return HeadMalformed{};
    } else if (line.empty()) {
      head.head_bytes = newline + 1;
      break;
    } else {
      size_t colon = line.find(':');
      // A field name has no whitespace; a leading space would be the
      // obsolete line folding, which RFC 9112 lets a server reject.
      if (colon == std::string_view::npos || colon == 0 || line.front() == ' ' ||
          line.front() == '\t') {
        return HeadMalformed{};
      }
      std::string_view name = line.substr(0, colon);
      std::string_view value = base::TrimOptionalWhitespace(line.substr(colon + 1));
      if (EqualsIgnoringCase(name, "Connection")) {
        connection_close = connection_close || HasToken(value, "close");
        connection_keep_alive = connection_keep_alive || HasToken(value, "keep-alive");
      } else if (EqualsIgnoringCase(name, "Content-Length")) {
        if (!AllDigits(value)) return HeadMalformed{};
        has_body = has_body || value.find_first_not_of('0') != std::string_view::npos;
      } else if (EqualsIgnoringCase(name, "Transfer-Encoding")) {
        has_body = true;
      }
    }
    line_start = newline + 1;
  }
  head.keep_alive = !has_body && !connection_close && (http10 ? connection_keep_alive : true);
  return head;
}

}  // namespace metrics
