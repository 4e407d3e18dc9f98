#include "registrar/registration_messages.h"

#include <cstdint>

#include "csi/go_json.h"
#include "csi_lite/proto_wire.h"

namespace registrar {

using csi_lite::FieldReader;
using csi_lite::kLengthDelimited;
using csi_lite::kVarint;

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
  PluginInfo info;
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    std::string_view value;
    if (number < 1 || number > 4) {
      reader.Skip(wire_type);
      continue;
    }
    if (!reader.Expect(wire_type, kLengthDelimited) || !reader.Bytes(value)) break;
    if (number == 1) info.type = value;
    if (number == 2) info.name = value;
    if (number == 3) info.endpoint = value;
    if (number == 4) info.supported_versions.emplace_back(value);
  }
  if (base::Status done = reader.Done(); !done.ok()) return done.error();
  return info;
}

base::Result<RegistrationStatus> DecodeRegistrationStatus(std::string_view bytes) {
  RegistrationStatus status;
  FieldReader reader(bytes);
  uint32_t number = 0, wire_type = 0;
  while (reader.Next(number, wire_type)) {
    uint64_t flag = 0;
    std::string_view error;
    if (number == 1) {
      if (reader.Expect(wire_type, kVarint) && reader.Varint(flag)) {
        status.plugin_registered = flag != 0;
      }
    } else if (number == 2) {
      if (reader.Expect(wire_type, kLengthDelimited) && reader.Bytes(error)) status.error = error;
    } else {
      reader.Skip(wire_type);
    }
  }
  if (base::Status done = reader.Done(); !done.ok()) return done.error();
  return status;
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
