#include "csi_lite/identity_messages.h"

#include <cstdint>

#include "csi/go_json.h"
#include "csi_lite/proto_wire.h"

namespace csi_lite {
namespace {

// google.protobuf.BoolValue's `value` (field 1) merged into `value`.
void ReadBoolValue(std::string_view bytes, FieldReader& outer, bool& value) {
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    if (number == 1) {
      reader.Bool(wire_type, value);
    } else {
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
  return DecodeMessage<ProbeResponse>(
      bytes, [](FieldReader& reader, ProbeResponse& response, uint32_t number, uint32_t wire_type) {
        std::string_view ready;
        if (number != 1) return reader.Skip(wire_type);
        if (!reader.Message(wire_type, ready)) return false;
        // A repeated message field merges into what came before.
        ReadBoolValue(ready, reader, response.ready.emplace(response.ready.value_or(false)));
        return reader.error().empty();
      });
}

base::Result<PluginInfo> DecodePluginInfo(std::string_view bytes) {
  return DecodeMessage<PluginInfo>(
      bytes, [](FieldReader& reader, PluginInfo& info, uint32_t number, uint32_t wire_type) {
        std::string_view entry;
        switch (number) {
          case 1:
            return reader.String(wire_type, info.name);
          case 2:
            return reader.String(wire_type, info.vendor_version);
          case 3:
            if (!reader.Message(wire_type, entry)) return false;
            ReadMapEntry(entry, reader, info.manifest);
            return reader.error().empty();
          default:
            return reader.Skip(wire_type);
        }
      });
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
