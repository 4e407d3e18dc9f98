#include "csi_lite/grpc_framing.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>

namespace csi_lite {

std::string LengthPrefixed(std::string_view message) {
  std::string out;
  out.reserve(kMessagePrefix + message.size());
  out.push_back(0);  // not compressed
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((message.size() >> shift) & 0xFF));
  }
  out.append(message);
  return out;
}

std::optional<std::string_view> SingleMessage(std::string_view body) {
  if (body.size() < kMessagePrefix || body[0] != 0) return std::nullopt;
  uint32_t length = 0;
  for (size_t i = 1; i < kMessagePrefix; ++i) {
    length = (length << 8) | static_cast<unsigned char>(body[i]);
  }
  if (body.size() != kMessagePrefix + length) return std::nullopt;
  return body.substr(kMessagePrefix);
}

std::string PercentEncode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte > 0x7E || c == '%') {
      out += fmt::format("%{:02X}", byte);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned value = 0;
    if (s[i] == '%' && i + 2 < s.size() &&
        std::from_chars(s.data() + i + 1, s.data() + i + 3, value, 16).ptr == s.data() + i + 3) {
      out.push_back(static_cast<char>(value));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

}  // namespace csi_lite
