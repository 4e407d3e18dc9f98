// One-line JSON for logging a CSI message without its secrets — what
// csi-lib-utils' protosanitizer prints, byte for byte where it matters:
//   - only populated fields (proto3: non-default scalars, set messages and
//     oneof members, non-empty repeated and map fields), keyed by the proto
//     field name (`volume_id`), keys sorted bytewise at every level;
//   - enums by value name (the number when the value is unknown), 64-bit
//     integers as JSON numbers, bytes as base64;
//   - a field marked [(csi.v1.csi_secret) = true] becomes "***stripped***",
//     whatever its type, in nested messages, lists and map values too;
//   - strings escaped like Go's encoding/json (<, >, & as \u003c...).
#pragma once

#include <string>

namespace google::protobuf {
class Message;
}

namespace csi {

std::string StripSecrets(const google::protobuf::Message& message);

}  // namespace csi
