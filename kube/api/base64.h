// Standard base64 (RFC 4648 alphabet, '=' padding), with the decoding rules
// Go's encoding/json applies to []byte fields: the form Kubernetes uses for
// kubeconfig *-data fields and Secret data. Line breaks ('\r', '\n') are
// ignored, padding is required, anything else is an error. Error messages
// give only the offending offset, never the input, because inputs are keys
// and secrets.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace kube {

base::Result<std::string> DecodeBase64(std::string_view encoded);
std::string EncodeBase64(std::string_view data);

}  // namespace kube
