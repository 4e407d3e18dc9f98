// ASCII helpers for the texts the sidecars parse: flags, durations,
// quantities, HTTP heads, mounted files. Byte-wise and locale-free, as Go's
// strings and strconv functions are.
#pragma once

#include <string>
#include <string_view>

namespace base {

inline bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

inline char AsciiLower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = AsciiLower(c);
  return out;
}

// Go's strings.TrimSpace over ASCII whitespace: the token and namespace files
// Kubernetes mounts may end in a newline, and flag values may carry spaces.
inline std::string_view TrimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

// Strips the spaces and tabs HTTP allows around a header value or list item
// (RFC 9110 "OWS").
inline std::string_view TrimOptionalWhitespace(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace base
