// Protobuf's wire format by hand, for the few messages the gRPC-free binaries
// read and write (csi_lite/identity_messages.h, registrar/registration_messages.h):
// FieldReader walks one message's fields, the Append* functions write one
// field. Only what those messages use: varints, length-delimited fields and
// skipping the fixed-width ones. Not thread-safe; stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace csi_lite {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// Reads one message's fields in order; the first malformed byte stops it and
// is remembered as the error Done() reports.
class FieldReader {
 public:
  explicit FieldReader(std::string_view bytes) : rest_(bytes) {}

  // The next field's number and wire type; false at the end or on an error.
  bool Next(uint32_t& number, uint32_t& wire_type);
  bool Varint(uint64_t& value);
  bool Bytes(std::string_view& value);
  // Skips a field the caller does not read; groups (3, 4) are long gone from protobuf.
  bool Skip(uint32_t wire_type);
  // Whether a field came with the wire type its type has; an error if not.
  bool Expect(uint32_t wire_type, uint32_t want);
  // A field of its type, checked against its `wire_type`: a nested
  // message's bytes, a string, a bool.
  bool Message(uint32_t wire_type, std::string_view& bytes);
  bool String(uint32_t wire_type, std::string& value);
  bool Bool(uint32_t wire_type, bool& value);
  bool Fail(std::string why);

  const std::string& error() const { return error_; }
  // Ok, or protobuf's "cannot parse invalid wire-format data" with the reason.
  base::Status Done() const;

 private:
  std::string_view rest_;
  std::string error_;
};

// Decodes one message: `read_field(reader, message, number, wire_type)` reads
// each field into `message` (Skip for one it does not know) and returns false
// on an error; the first malformed byte is the error returned.
template <typename Message, typename ReadField>
base::Result<Message> DecodeMessage(std::string_view bytes, const ReadField& read_field) {
  Message message{};
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type) && read_field(reader, message, number, wire_type)) {
  }
  if (base::Status done = reader.Done(); !done.ok()) return done.error();
  return message;
}

// Appends field `number` to `out`; proto3 leaves out empty strings and false,
// so these write nothing for them.
void AppendString(std::string& out, uint32_t number, std::string_view value);
void AppendBool(std::string& out, uint32_t number, bool value);
// A repeated string's element: written even when empty.
void AppendRepeatedString(std::string& out, uint32_t number, std::string_view value);

}  // namespace csi_lite
