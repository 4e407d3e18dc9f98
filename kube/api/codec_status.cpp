#include "kube/api/codec.h"

namespace kube {

using codec_internal::PutIfNonZero;
using codec_internal::PutIfNotEmpty;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, Status& status) {
  ReadField(j, "code", status.code);
  ReadField(j, "reason", status.reason);
  ReadField(j, "message", status.message);
}

void to_json(nlohmann::json& j, const Status& status) {
  j = codec_internal::NewObjectJson<Status>();
  PutIfNonZero(j, "code", status.code);
  PutIfNotEmpty(j, "reason", status.reason);
  PutIfNotEmpty(j, "message", status.message);
}

}  // namespace kube
