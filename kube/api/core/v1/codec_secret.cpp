#include "kube/api/base64.h"
#include "kube/api/codec.h"

namespace kube {

using codec_internal::DecodeError;
using codec_internal::PutIfNotEmpty;
using codec_internal::ReadField;

void from_json(const nlohmann::json& j, Secret& secret) {
  ReadField(j, "metadata", secret.metadata);
  ReadField(j, "type", secret.type);
  StringMap encoded;
  ReadField(j, "data", encoded);
  secret.data = StringMap();
  secret.data.reserve(encoded.size());
  for (const auto& [key, value] : encoded) {
    auto bytes = DecodeBase64(value);
    if (!bytes.ok()) {
      DecodeError error(bytes.error().message);
      error.AddParent(key);
      error.AddParent("data");
      throw error;
    }
    secret.data[key] = std::move(bytes).value();
  }
}

void to_json(nlohmann::json& j, const Secret& secret) {
  j = codec_internal::NewObjectJson<Secret>();
  j["metadata"] = secret.metadata;
  PutIfNotEmpty(j, "type", secret.type);
  if (!secret.data.empty()) {
    nlohmann::json& data = j["data"];
    for (const auto& [key, value] : secret.data) data[key] = EncodeBase64(value);
  }
}

}  // namespace kube
