#include "csi_lite/identity_client.h"

#include "csi/methods.h"
#include "csi_lite/identity_messages.h"

namespace csi_lite {
namespace {

// Both requests have no fields: empty bytes, logged as an empty object.
constexpr std::string_view kEmptyRequest;
constexpr std::string_view kEmptyRequestJson = "{}";

// A ResponseReader that decodes into `out` with `decode`.
template <class Message>
ResponseReader ReadInto(Message& out, base::Result<Message> (*decode)(std::string_view)) {
  return [&out, decode](std::string_view bytes) -> base::Result<std::string> {
    auto decoded = decode(bytes);
    if (!decoded.ok()) return decoded.error();
    out = *std::move(decoded);
    return LogJson(out);
  };
}

}  // namespace

base::Result<bool> IdentityClient::Probe(std::chrono::nanoseconds timeout) {
  ProbeResponse response;
  base::Status status = connection_.Invoke(csi::kProbeMethod, kEmptyRequest, kEmptyRequestJson,
                                           timeout, ReadInto(response, &DecodeProbeResponse));
  if (!status.ok()) return status.error();
  // The spec: "If not present, the caller SHALL assume that the plugin is in
  // a ready state".
  return response.ready.value_or(true);
}

base::Result<std::string> IdentityClient::GetDriverName(std::chrono::nanoseconds timeout) {
  PluginInfo info;
  base::Status status =
      connection_.Invoke(csi::kGetPluginInfoMethod, kEmptyRequest, kEmptyRequestJson, timeout,
                         ReadInto(info, &DecodePluginInfo));
  if (!status.ok()) return status.error();
  if (info.name.empty()) return base::Error("driver name is empty");
  return info.name;
}

}  // namespace csi_lite
