// The Identity messages livenessprobe reads, decoded by hand from protobuf's
// wire format (field numbers from csi/proto/csi.proto), and their log JSON as
// csi::StripSecrets writes it (sorted proto field names, populated fields
// only). The requests (ProbeRequest, GetPluginInfoRequest) have no fields:
// their encoding is empty. Unknown fields are skipped; for a field seen twice
// the last wins, as protobuf merges.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace csi_lite {

// ProbeResponse: 1 ready (google.protobuf.BoolValue {1 value}).
struct ProbeResponse {
  std::optional<bool> ready;  // unset: the driver left `ready` out
};

// GetPluginInfoResponse: 1 name, 2 vendor_version, 3 manifest (map<string, string>).
struct PluginInfo {
  std::string name;
  std::string vendor_version;
  std::map<std::string, std::string> manifest;
};

// Malformed bytes are an error saying where decoding stopped.
base::Result<ProbeResponse> DecodeProbeResponse(std::string_view bytes);
base::Result<PluginInfo> DecodePluginInfo(std::string_view bytes);

std::string LogJson(const ProbeResponse& response);
std::string LogJson(const PluginInfo& info);

}  // namespace csi_lite
