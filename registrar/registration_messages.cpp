#include "registrar/registration_messages.h"

#include <cstdint>

#include "csi/go_json.h"
#include "csi_lite/proto_wire.h"

namespace registrar {

using csi_lite::FieldReader;

std::string Encode(const PluginInfo& info) {
  std::string out;
  csi_lite::AppendString(out, 1, info.type);
  csi_lite::AppendString(out, 2, info.name);
  csi_lite::AppendString(out, 3, info.endpoint);
  for (const std::string& version : info.supported_versions) {
    csi_lite::AppendRepeatedString(out, 4, version);
  }
  return out;
}

base::Result<PluginInfo> DecodePluginInfo(std::string_view bytes) {
  return csi_lite::DecodeMessage<PluginInfo>(
      bytes, [](FieldReader& reader, PluginInfo& info, uint32_t number, uint32_t wire_type) {
        switch (number) {
          case 1:
            return reader.String(wire_type, info.type);
          case 2:
            return reader.String(wire_type, info.name);
          case 3:
            return reader.String(wire_type, info.endpoint);
          case 4:
            return reader.String(wire_type, info.supported_versions.emplace_back());
          default:
            return reader.Skip(wire_type);
        }
      });
}

base::Result<RegistrationStatus> DecodeRegistrationStatus(std::string_view bytes) {
  return csi_lite::DecodeMessage<RegistrationStatus>(
      bytes,
      [](FieldReader& reader, RegistrationStatus& status, uint32_t number, uint32_t wire_type) {
        switch (number) {
          case 1:
            return reader.Bool(wire_type, status.plugin_registered);
          case 2:
            return reader.String(wire_type, status.error);
          default:
            return reader.Skip(wire_type);
        }
      });
}

base::Status DecodeEmpty(std::string_view bytes) {
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) reader.Skip(wire_type);
  return reader.Done();
}

std::string LogJson(const PluginInfo& info) {
  std::string out = "{";
  auto field = [&out](std::string_view name, std::string_view value) {
    if (value.empty()) return;
    if (out.size() > 1) out.push_back(',');
    csi::AppendGoJsonString(&out, name);
    out.push_back(':');
    csi::AppendGoJsonString(&out, value);
  };
  field("endpoint", info.endpoint);
  field("name", info.name);
  if (!info.supported_versions.empty()) {
    if (out.size() > 1) out.push_back(',');
    out += R"("supported_versions":[)";
    for (size_t i = 0; i < info.supported_versions.size(); ++i) {
      if (i > 0) out.push_back(',');
      csi::AppendGoJsonString(&out, info.supported_versions[i]);
    }
    out.push_back(']');
  }
  field("type", info.type);
  out.push_back('}');
  return out;
}

}  // namespace registrar
