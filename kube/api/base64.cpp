#include "kube/api/base64.h"

#include <algorithm>
#include <cstdint>

namespace kube {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int SextetOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool IsLineBreak(char c) { return c == '\r' || c == '\n'; }

base::Error IllegalAt(size_t offset) {
  return base::Error("illegal base64 data at input byte " + std::to_string(offset));
}

// Appends the bytes carried by the first `sextets` (2..4) sextets of `bits`,
// which holds them left-aligned in its low 24 bits.
void AppendBytes(std::string& out, uint32_t bits, int sextets) {
  out.push_back(static_cast<char>(bits >> 16));
  if (sextets > 2) out.push_back(static_cast<char>(bits >> 8));
  if (sextets > 3) out.push_back(static_cast<char>(bits));
}

}  // namespace

base::Result<std::string> DecodeBase64(std::string_view encoded) {
  std::string out;
  out.reserve(encoded.size() / 4 * 3);
  uint32_t bits = 0;
  int sextets = 0;  // sextets collected in the current 4-character quantum
  for (size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (IsLineBreak(c)) continue;
    if (c == '=') {
      // Padding may only complete a quantum that already carries a byte, and
      // nothing but the rest of the padding and line breaks may follow it.
      if (sextets < 2) return IllegalAt(i);
      AppendBytes(out, bits << (6 * (4 - sextets)), sextets);
      int missing = 4 - sextets - 1;
      for (size_t j = i + 1; j < encoded.size(); ++j) {
        if (IsLineBreak(encoded[j])) continue;
        if (encoded[j] != '=' || missing == 0) return IllegalAt(j);
        --missing;
      }
      if (missing != 0) return IllegalAt(encoded.size());
      return out;
    }
    int sextet = SextetOf(c);
    if (sextet < 0) return IllegalAt(i);
    bits = (bits << 6) | static_cast<uint32_t>(sextet);
    if (++sextets == 4) {
      AppendBytes(out, bits, 4);
      bits = 0;
      sextets = 0;
    }
  }
  if (sextets != 0) return IllegalAt(encoded.size());
  return out;
}

std::string EncodeBase64(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  for (size_t i = 0; i < data.size(); i += 3) {
    size_t chunk = std::min<size_t>(3, data.size() - i);
    uint32_t bits = 0;
    for (size_t k = 0; k < 3; ++k) {
      uint32_t byte = k < chunk ? static_cast<unsigned char>(data[i + k]) : 0;
      bits = (bits << 8) | byte;
    }
    for (size_t k = 0; k < 4; ++k) {
      out.push_back(k <= chunk ? kAlphabet[(bits >> (18 - 6 * k)) & 0x3F] : '=');
    }
  }
  return out;
}

}  // namespace kube
