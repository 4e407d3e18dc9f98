// The JSON codec of every table struct (field.h) - built-in kinds, custom
// resources and their parts alike. The Result-returning functions are the
// boundary: they never throw, and a failure reads
// "decoding <Kind>: <field path>: <problem>", e.g.
// "decoding VolumeAttachment: spec.attacher: type must be string, but is number".
// Unknown fields are ignored; missing or null fields decode to empty values.
// Encoding writes apiVersion and kind for kinds (KindFacts) and follows each
// field's Emit rule, so CreateMergePatch(json(old), json(new)) yields the
// patch Go would compute for the fields these structs hold. Encoding is not
// lossless for what decoding dropped (unknown fields, the body of an
// OtherVolumeSource, extra volume sources).
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/dom_codec.h"
#include "kube/api/object_list.h"
#include "kube/api/status.h"
#include "kube/api/string_map.h"

namespace kube {

// nlohmann ADL hooks, so `nlohmann::json(object)` and `json.get<T>()` work for
// the structs of namespace kube. from_json throws on a wrong field type;
// prefer ObjectFromJson below.
template <TableStruct T>
void to_json(nlohmann::json& j, const T& value) {
  codec_internal::EncodeValue(j, value);
}
template <TableStruct T>
void from_json(const nlohmann::json& j, T& value) {
  codec_internal::DecodeValue(j, value);
}
void to_json(nlohmann::json& j, const StringMap& map);

namespace codec_internal {

// The kind named in error messages; a list is "<Kind>List", as in the API.
template <class T>
struct KindName {
  static std::string Get() { return std::string(T::kFacts.kind); }
};
template <class T>
struct KindName<ObjectList<T>> {
  static std::string Get() { return std::string(T::kFacts.kind) + "List"; }
};

// Parses `text` into `doc`; the error is nlohmann's description of the syntax error.
base::Status Parse(std::string_view text, nlohmann::json& doc);
// The message of an exception thrown by a decoder, without nlohmann's "[json.exception...]" tag.
base::Error DescribeFailure(const std::exception& e);

}  // namespace codec_internal

// Decodes an already parsed object, e.g. the `object` member of a watch event.
template <class T>
base::Result<T> ObjectFromJson(const nlohmann::json& j) {
  try {
    T object;
    codec_internal::DecodeValue(j, object);
    return object;
  } catch (const std::exception& e) {
    return codec_internal::DescribeFailure(e).Wrap("decoding " +
                                                   codec_internal::KindName<T>::Get());
  }
}

template <class T>
base::Result<T> DecodeObject(std::string_view json) {
  nlohmann::json doc;
  if (auto parsed = codec_internal::Parse(json, doc); !parsed.ok()) {
    return parsed.error().Wrap("decoding " + codec_internal::KindName<T>::Get());
  }
  return ObjectFromJson<T>(doc);
}

template <class T>
base::Result<ObjectList<T>> DecodeList(std::string_view json) {
  return DecodeObject<ObjectList<T>>(json);
}

template <class T>
std::string EncodeObject(const T& object) {
  nlohmann::json j;
  codec_internal::EncodeValue(j, object);
  return j.dump();
}

inline base::Result<Status> DecodeStatus(std::string_view json) {
  return DecodeObject<Status>(json);
}

inline base::Result<Status> StatusFromJson(const nlohmann::json& j) {
  return ObjectFromJson<Status>(j);
}

}  // namespace kube
