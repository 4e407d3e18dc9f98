#include "csi_lite/identity_messages.h"

#include <cstdint>

#include "csi/go_json.h"

namespace csi_lite {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// Reads one message's fields in order; the first malformed byte stops it.
class FieldReader {
 public:
  explicit FieldReader(std::string_view bytes) : rest_(bytes) {}

  // The next field's number and wire type; false at the end or on an error.
  bool Next(uint32_t& number, uint32_t& wire_type) {
    if (rest_.empty() || !error_.empty()) return false;
    uint64_t tag = 0;
    if (!Varint(tag)) return false;
    number = static_cast<uint32_t>(tag >> 3);
    wire_type = static_cast<uint32_t>(tag & 7);
    if (number == 0) return Fail("field number 0");
    return true;
  }
  bool Varint(uint64_t& value) {
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
  bool Bytes(std::string_view& value) {
    uint64_t length = 0;
    if (!Varint(length)) return false;
    if (length > rest_.size()) return Fail("truncated length-delimited field");
    value = rest_.substr(0, length);
    rest_.remove_prefix(length);
    return true;
  }
  // Skips a field this decoder does not read; groups (3, 4) are long gone from protobuf.
  bool Skip(uint32_t wire_type) {
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
  // Whether a field came with the wire type its type has; an error if not.
  bool Expect(uint32_t wire_type, uint32_t want) {
    if (wire_type == want) return true;
    Fail("wrong wire type " + std::to_string(wire_type));
    return false;
  }
  bool Fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  const std::string& error() const { return error_; }
  base::Status Done() const {
    if (error_.empty()) return base::Status::Ok();
    return base::Error("proto: cannot parse invalid wire-format data: " + error_);
  }

 private:
  std::string_view rest_;
  std::string error_;
};

// google.protobuf.BoolValue's `value` (field 1) merged into `value`.
void ReadBoolValue(std::string_view bytes, FieldReader& outer, bool& value) {
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    uint64_t v = 0;
    if (number == 1 && reader.Expect(wire_type, kVarint) && reader.Varint(v)) {
      value = v != 0;
    } else if (number != 1) {
      reader.Skip(wire_type);
    }
  }
  if (!reader.error().empty()) outer.Fail(reader.error());
}

// One map<string, string> entry: 1 key, 2 value.
void ReadMapEntry(std::string_view bytes, FieldReader& outer,
                  std::map<std::string, std::string>& map) {
  FieldReader reader(bytes);
  std::string_view key, value;
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    if (number == 1 || number == 2) {
      if (reader.Expect(wire_type, kLengthDelimited)) reader.Bytes(number == 1 ? key : value);
    } else {
      reader.Skip(wire_type);
    }
  }
  if (!reader.error().empty()) {
    outer.Fail(reader.error());
    return;
  }
  map[std::string(key)] = std::string(value);
}

}  // namespace

base::Result<ProbeResponse> DecodeProbeResponse(std::string_view bytes) {
  ProbeResponse response;
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    std::string_view ready;
    if (number == 1) {
      if (reader.Expect(wire_type, kLengthDelimited) && reader.Bytes(ready)) {
        // A repeated message field merges into what came before.
        ReadBoolValue(ready, reader, response.ready.emplace(response.ready.value_or(false)));
      }
    } else {
      reader.Skip(wire_type);
    }
  }
  if (base::Status done = reader.Done(); !done.ok()) return done.error();
  return response;
}

base::Result<PluginInfo> DecodePluginInfo(std::string_view bytes) {
  PluginInfo info;
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    std::string_view value;
    if (number >= 1 && number <= 3) {
      if (!reader.Expect(wire_type, kLengthDelimited) || !reader.Bytes(value)) break;
      if (number == 1) info.name = value;
      if (number == 2) info.vendor_version = value;
      if (number == 3) ReadMapEntry(value, reader, info.manifest);
    } else {
      reader.Skip(wire_type);
    }
  }
  if (base::Status done = reader.Done(); !done.ok()) return done.error();
  return info;
}

std::string LogJson(const ProbeResponse& response) {
  if (!response.ready) return "{}";
  return *response.ready ? R"({"ready":{"value":true}})" : R"({"ready":{}})";
}

std::string LogJson(const PluginInfo& info) {
  std::string out = "{";
  auto key = [&out](std::string_view name) {
    if (out.size() > 1) out.push_back(',');
    csi::AppendGoJsonString(&out, name);
    out.push_back(':');
  };
  if (!info.manifest.empty()) {
    key("manifest");
    out.push_back('{');
    bool first = true;
    for (const auto& [k, v] : info.manifest) {  // std::map: sorted bytewise
      if (!first) out.push_back(',');
      first = false;
      csi::AppendGoJsonString(&out, k);
      out.push_back(':');
      csi::AppendGoJsonString(&out, v);
    }
    out.push_back('}');
  }
  if (!info.name.empty()) {
    key("name");
    csi::AppendGoJsonString(&out, info.name);
  }
  if (!info.vendor_version.empty()) {
    key("vendor_version");
    csi::AppendGoJsonString(&out, info.vendor_version);
  }
  out.push_back('}');
  return out;
}

}  // namespace csi_lite
