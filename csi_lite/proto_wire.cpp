#include "csi_lite/proto_wire.h"

namespace csi_lite {
namespace {

void AppendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void AppendTag(std::string& out, uint32_t number, WireType wire_type) {
  AppendVarint(out, (static_cast<uint64_t>(number) << 3) | wire_type);
}

}  // namespace

bool FieldReader::Next(uint32_t& number, uint32_t& wire_type) {
  if (rest_.empty() || !error_.empty()) return false;
  uint64_t tag = 0;
  if (!Varint(tag)) return false;
  number = static_cast<uint32_t>(tag >> 3);
  wire_type = static_cast<uint32_t>(tag & 7);
  if (number == 0) return Fail("field number 0");
  return true;
}

bool FieldReader::Varint(uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (rest_.empty()) return Fail("truncated varint");
    auto byte = static_cast<unsigned char>(rest_[0]);
    rest_.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return Fail("varint over 10 bytes");
}

bool FieldReader::Bytes(std::string_view& value) {
  uint64_t length = 0;
  if (!Varint(length)) return false;
  if (length > rest_.size()) return Fail("truncated length-delimited field");
  value = rest_.substr(0, length);
  rest_.remove_prefix(length);
  return true;
}

bool FieldReader::Skip(uint32_t wire_type) {
  uint64_t ignored = 0;
  std::string_view ignored_bytes;
  switch (wire_type) {
    case kVarint:
      return Varint(ignored);
    case kLengthDelimited:
      return Bytes(ignored_bytes);
    case kFixed64:
    case kFixed32: {
      size_t width = wire_type == kFixed64 ? 8 : 4;
      if (rest_.size() < width) return Fail("truncated fixed-width field");
      rest_.remove_prefix(width);
      return true;
    }
    default:
      return Fail("unsupported wire type " + std::to_string(wire_type));
  }
}

bool FieldReader::Expect(uint32_t wire_type, uint32_t want) {
  if (wire_type == want) return true;
  Fail("wrong wire type " + std::to_string(wire_type));
  return false;
}

bool FieldReader::Message(uint32_t wire_type, std::string_view& bytes) {
  return Expect(wire_type, kLengthDelimited) && Bytes(bytes);
}

bool FieldReader::String(uint32_t wire_type, std::string& value) {
  std::string_view bytes;
  if (!Message(wire_type, bytes)) return false;
  value = bytes;
  return true;
}

bool FieldReader::Bool(uint32_t wire_type, bool& value) {
  uint64_t v = 0;
  if (!Expect(wire_type, kVarint) || !Varint(v)) return false;
  value = v != 0;
  return true;
}

bool FieldReader::Fail(std::string why) {
  if (error_.empty()) error_ = std::move(why);
  return false;
}

base::Status FieldReader::Done() const {
  if (error_.empty()) return base::Status::Ok();
  return base::Error("proto: cannot parse invalid wire-format data: " + error_);
}

void AppendString(std::string& out, uint32_t number, std::string_view value) {
  if (!value.empty()) AppendRepeatedString(out, number, value);
}

void AppendBool(std::string& out, uint32_t number, bool value) {
  if (!value) return;
  AppendTag(out, number, kVarint);
  AppendVarint(out, 1);
}

void AppendRepeatedString(std::string& out, uint32_t number, std::string_view value) {
  AppendTag(out, number, kLengthDelimited);
  AppendVarint(out, value.size());
  out.append(value);
}

}  // namespace csi_lite
