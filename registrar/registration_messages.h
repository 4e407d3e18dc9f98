// kubelet's plugin registration messages (registrar/proto/pluginregistration.proto),
// encoded and decoded by hand in protobuf's wire format (csi_lite/proto_wire.h)
// so that the registrar links no protobuf (docs/node-sidecars.md §3, memory). InfoRequest
// and RegistrationStatusResponse have no fields: their encoding is empty.
// Unknown fields are skipped; for a field seen twice the last wins, as
// protobuf merges. Stateless functions, safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace registrar {

// PluginInfo: 1 type, 2 name, 3 endpoint, 4 supported_versions (repeated).
struct PluginInfo {
  std::string type;
  std::string name;
  std::string endpoint;
  std::vector<std::string> supported_versions;
};

// RegistrationStatus: 1 plugin_registered, 2 error.
struct RegistrationStatus {
  bool plugin_registered = false;
  std::string error;
};

std::string Encode(const PluginInfo& info);

// Malformed bytes are an error saying where decoding stopped.
base::Result<PluginInfo> DecodePluginInfo(std::string_view bytes);
base::Result<RegistrationStatus> DecodeRegistrationStatus(std::string_view bytes);
// A message with no fields of its own (InfoRequest): only well-formed bytes.
base::Status DecodeEmpty(std::string_view bytes);

// The log JSON of a PluginInfo (sorted proto field names, populated fields only).
std::string LogJson(const PluginInfo& info);

}  // namespace registrar
