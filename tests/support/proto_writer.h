// ProtoWriter: a tiny protobuf encoder for tests and fuzz seeds - the bytes
// the API server would send, built field by field, so that the decoders of
// kube/api/proto/ are checked against hand-built input, malformed input
// included (Tag and Raw write anything).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace testsupport {

class ProtoWriter {
 public:
  ProtoWriter& Tag(uint32_t field, uint8_t wire_type) {
    return RawVarint((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  ProtoWriter& RawVarint(uint64_t value) {
    while (value >= 0x80) {
      bytes_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    bytes_ += static_cast<char>(value);
    return *this;
  }
  ProtoWriter& Raw(std::string_view bytes) {
    bytes_.append(bytes);
    return *this;
  }
  ProtoWriter& Varint(uint32_t field, uint64_t value) { return Tag(field, 0).RawVarint(value); }
  ProtoWriter& Fixed64(uint32_t field, uint64_t value) {
    Tag(field, 1);
    for (int i = 0; i < 8; ++i) bytes_ += static_cast<char>(value >> (8 * i));
    return *this;
  }
  ProtoWriter& Fixed32(uint32_t field, uint32_t value) {
    Tag(field, 5);
    for (int i = 0; i < 4; ++i) bytes_ += static_cast<char>(value >> (8 * i));
    return *this;
  }
  ProtoWriter& Bytes(uint32_t field, std::string_view value) {
    return Tag(field, 2).RawVarint(value.size()).Raw(value);
  }
  ProtoWriter& Message(uint32_t field, const ProtoWriter& message) {
    return Bytes(field, message.bytes());
  }
  // A map<string, string> entry.
  ProtoWriter& MapEntry(uint32_t field, std::string_view key, std::string_view value) {
    return Message(field, ProtoWriter().Bytes(1, key).Bytes(2, value));
  }

  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// "k8s\0" + runtime.Unknown{typeMeta{apiVersion, kind}, raw}.
inline std::string Enveloped(std::string_view api_version, std::string_view kind,
                             const ProtoWriter& object) {
  return std::string("k8s\0", 4) +
         ProtoWriter()
             .Message(1, ProtoWriter().Bytes(1, api_version).Bytes(2, kind))
             .Bytes(2, object.bytes())
             .bytes();
}

// One frame of a protobuf watch stream: 4-byte big-endian length, then
// metav1.WatchEvent{type, object{raw}}.
inline std::string WatchFrame(std::string_view type, std::string_view enveloped) {
  std::string event =
      ProtoWriter().Bytes(1, type).Message(2, ProtoWriter().Bytes(1, enveloped)).bytes();
  std::string frame;
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>(event.size() >> shift);
  return frame + event;
}

}  // namespace testsupport
