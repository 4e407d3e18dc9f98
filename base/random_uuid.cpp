#include "base/random_uuid.h"

#include <array>
#include <cstdint>
#include <random>

namespace base {

std::string RandomUuid() {
  std::random_device source;
  std::array<uint8_t, 16> bytes;
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(source());
  bytes[6] = (bytes[6] & 0x0f) | 0x40;  // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80;  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0x0f];
  }
  return out;
}

}  // namespace base
