#include "kube/api/proto/wire_reader.h"

#include <string>

#include "kube/api/decode_error.h"

namespace kube::proto {
namespace {

constexpr int kMaxVarintBytes = 10;
// Groups (wire types 3 and 4) are long deprecated; a stream nesting more is refused.
constexpr int kMaxGroupDepth = 100;

const char* WireTypeName(WireType type) {
  switch (type) {
    case WireType::kVarint:
      return "varint";
    case WireType::kFixed64:
      return "fixed64";
    case WireType::kLengthDelimited:
      return "length-delimited";
    case WireType::kStartGroup:
      return "start-group";
    case WireType::kEndGroup:
      return "end-group";
    case WireType::kFixed32:
      return "fixed32";
  }
  return "unknown";
}

}  // namespace

uint64_t WireReader::RawVarint(const char* what) {
  uint64_t value = 0;
  for (int i = 0; i < kMaxVarintBytes - 1; ++i) {
    if (at_ == end_) throw DecodeError(std::string("truncated ") + what);
    auto byte = static_cast<uint8_t>(*at_++);
    value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if (byte < 0x80) return value;
  }
  // The tenth byte holds bit 63 alone and ends the varint.
  if (at_ == end_) throw DecodeError(std::string("truncated ") + what);
  auto last = static_cast<uint8_t>(*at_++);
  if (last > 1) throw DecodeError(std::string(what) + " overflows 64 bits");
  return value | static_cast<uint64_t>(last) << 63;
}

bool WireReader::Next() {
  if (at_ == end_) return false;
  uint64_t tag = RawVarint("tag");
  uint64_t field = tag >> 3;
  auto type = static_cast<uint8_t>(tag & 7);
  if (field == 0 || field > 0x1fffffff) {
    throw DecodeError("field number " + std::to_string(field) + " out of range");
  }
  if (type > 5)
    throw DecodeError("field " + std::to_string(field) + ": wire type " + std::to_string(type) +
                      " does not exist");
  field_ = static_cast<uint32_t>(field);
  wire_type_ = static_cast<WireType>(type);
  if (wire_type_ == WireType::kEndGroup) {
    throw DecodeError("field " + std::to_string(field) + ": end-group without a start-group");
  }
  return true;
}

void WireReader::Expect(WireType type, const char* what) const {
  if (wire_type_ != type) {
    throw DecodeError("field " + std::to_string(field_) + ": " + WireTypeName(wire_type_) +
                      " value where " + what + " is expected");
  }
}

uint64_t WireReader::ReadVarint() {
  Expect(WireType::kVarint, "a varint");
  return RawVarint("varint");
}

uint64_t WireReader::ReadFixed64() {
  Expect(WireType::kFixed64, "a fixed64");
  if (end_ - at_ < 8) throw DecodeError("truncated fixed64");
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(at_[i]);
  at_ += 8;
  return value;
}

uint32_t WireReader::ReadFixed32() {
  Expect(WireType::kFixed32, "a fixed32");
  if (end_ - at_ < 4) throw DecodeError("truncated fixed32");
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | static_cast<uint8_t>(at_[i]);
  at_ += 4;
  return value;
}

std::string_view WireReader::ReadBytes() {
  Expect(WireType::kLengthDelimited, "a length-delimited value");
  uint64_t length = RawVarint("length");
  auto left = static_cast<uint64_t>(end_ - at_);
  if (length > left) {
    throw DecodeError("field " + std::to_string(field_) + ": length " + std::to_string(length) +
                      " runs past the end of its message (" + std::to_string(left) +
                      " bytes left)");
  }
  std::string_view bytes(at_, length);
  at_ += length;
  return bytes;
}

void WireReader::Skip() {
  switch (wire_type_) {
    case WireType::kVarint:
      RawVarint("varint");
      return;
    case WireType::kFixed64:
      ReadFixed64();
      return;
    case WireType::kLengthDelimited:
      ReadBytes();
      return;
    case WireType::kStartGroup:
      SkipGroup();
      return;
    case WireType::kFixed32:
      ReadFixed32();
      return;
    case WireType::kEndGroup:
      break;  // Next refuses a lone end-group
  }
  throw DecodeError("end-group without a start-group");
}

// Iterative, so that nesting costs no stack: each start-group opens a level,
// each end-group must close the innermost one with the same field number.
void WireReader::SkipGroup() {
  uint32_t open[kMaxGroupDepth];
  int depth = 0;
  open[depth++] = field_;
  while (depth > 0) {
    if (at_ == end_) throw DecodeError("truncated group of field " + std::to_string(open[0]));
    uint64_t tag = RawVarint("tag");
    uint64_t field = tag >> 3;
    auto type = static_cast<uint8_t>(tag & 7);
    if (field == 0 || field > 0x1fffffff || type > 5) {
      throw DecodeError("bad tag inside the group of field " + std::to_string(open[0]));
    }
    field_ = static_cast<uint32_t>(field);
    wire_type_ = static_cast<WireType>(type);
    if (wire_type_ == WireType::kStartGroup) {
      if (depth == kMaxGroupDepth) throw DecodeError("groups nested too deep");
      open[depth++] = field_;
    } else if (wire_type_ == WireType::kEndGroup) {
      if (open[depth - 1] != field_) {
        throw DecodeError("end-group of field " + std::to_string(field_) +
                          " closes the group of field " + std::to_string(open[depth - 1]));
      }
      --depth;
    } else {
      Skip();
    }
  }
}

}  // namespace kube::proto
