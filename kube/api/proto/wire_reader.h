// WireReader: the protobuf wire format (docs/design.md §4.1), read in place
// over a byte view: one field at a time, its tag first (Next), then its value
// by the reader its wire type calls for. Nested messages are readers over
// their own bytes (ReadMessage), so a length that runs past its parent is
// refused where it is read. Fields a decoder does not know are skipped (Skip),
// groups included. Bad bytes - a truncated or overlong varint, a length past
// the end, wire types 6 and 7, field number 0, a value of the wrong wire type -
// throw DecodeError (decode_error.h), caught at the decoder's Result boundary.
#pragma once

#include <cstdint>
#include <string_view>

namespace kube::proto {

enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes)
      : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  // Reads the next tag; false once the bytes are used up.
  bool Next();
  uint32_t field() const { return field_; }
  WireType wire_type() const { return wire_type_; }

  // The value of the field whose tag Next read; each checks the wire type.
  uint64_t ReadVarint();
  int64_t ReadInt64() { return static_cast<int64_t>(ReadVarint()); }
  // As Go reads an int32: the low 32 bits of the varint.
  int32_t ReadInt32() { return static_cast<int32_t>(ReadVarint()); }
  bool ReadBool() { return ReadVarint() != 0; }
  uint64_t ReadFixed64();
  uint32_t ReadFixed32();
  std::string_view ReadBytes();  // bytes, string or an embedded message
  WireReader ReadMessage() { return WireReader(ReadBytes()); }
  // Skips the value of the field whose tag Next read, whatever its wire type.
  void Skip();

 private:
  uint64_t RawVarint(const char* what);
  void Expect(WireType type, const char* what) const;
  void SkipGroup();

  const char* at_;
  const char* end_;
  uint32_t field_ = 0;
  WireType wire_type_ = WireType::kVarint;
};

}  // namespace kube::proto
