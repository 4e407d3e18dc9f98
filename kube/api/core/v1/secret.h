// Secret (core/v1): read with a direct GET for the controller-publish secrets
// of a PV. `data` holds the decoded bytes (the JSON carries base64);
// stringData is write-only in the API and never arrives, so it is not kept.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <tuple>

#include "kube/api/base64.h"
#include "kube/api/codec_extern.h"
#include "kube/api/decode_error.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"
#include "kube/api/string_map.h"

namespace kube {

struct Secret;

// The hook (field.h) of Secret.data: base64 values on the wire, bytes here.
struct SecretDataField {
  static constexpr std::array<std::string_view, 1> kKeys = {"data"};

  template <class Codec>
  static void Decode(std::string_view, const typename Codec::Value& value, Secret& secret);
  template <class Codec>
  static void Encode(typename Codec::Object& object, const Secret& secret);
};

struct Secret {
  static constexpr KindFacts kFacts{
      .api_version = "v1", .kind = "Secret", .plural = "secrets", .scope = Scope::kNamespaced};

  ObjectMeta metadata;
  std::string type;
  StringMap data;

  bool operator==(const Secret&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &Secret::metadata),
        Field("type", &Secret::type),
        SecretDataField{},
    };
  }
};

template <class Codec>
void SecretDataField::Decode(std::string_view, const typename Codec::Value& value, Secret& secret) {
  StringMap encoded;
  Codec::Decode(value, encoded);
  secret.data = StringMap();
  secret.data.reserve(encoded.size());
  for (const auto& [key, text] : encoded) {
    auto bytes = DecodeBase64(text);
    if (!bytes.ok()) {
      DecodeError error(bytes.error().message);
      error.AddParent(key);
      throw error;
    }
    secret.data[key] = std::move(bytes).value();
  }
}

template <class Codec>
void SecretDataField::Encode(typename Codec::Object& object, const Secret& secret) {
  if (secret.data.empty()) return;
  StringMap encoded;
  encoded.reserve(secret.data.size());
  for (const auto& [key, bytes] : secret.data) encoded[key] = EncodeBase64(bytes);
  Codec::Put(object, "data", encoded);
}

KUBE_EXTERN_CODEC(Secret);
KUBE_EXTERN_CODEC(ObjectList<Secret>);

}  // namespace kube
