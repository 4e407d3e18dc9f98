// The JSON codec of every table struct (field.h) - built-in kinds, custom
// resources and their parts alike. The Result-returning functions are the
// boundary: they never throw, and a failure reads
// "decoding <Kind>: <field path>: <problem>", e.g.
// "decoding VolumeAttachment: spec.attacher: type must be string, but is number".
// Unknown fields are ignored; missing or null fields decode to empty values.
// Text is decoded by the stream codec (stream_codec.h), a DOM that already
// exists by the DOM codec (dom_codec.h); both give the same result.
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
#include "kube/api/json_reader.h"
#include "kube/api/object_list.h"
#include "kube/api/status.h"
#include "kube/api/stream_codec.h"
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

// The message of an exception thrown by a decoder, without nlohmann's "[json.exception...]" tag.
base::Error DescribeFailure(const std::exception& e);

// Reads all of `text` into `object` with the stream codec (stream_codec.h);
// throws as ReadValue does, and when more than whitespace follows the value.
template <class T>
void ReadText(std::string_view text, T& object) {
  JsonReader in(text);
  ReadValue(in, object);
  in.ExpectEnd();
}

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

// Reads the text once, straight into T (stream_codec.h); no DOM is built.
template <class T>
base::Result<T> DecodeObject(std::string_view json) {
  try {
    T object;
    codec_internal::ReadText(json, object);
    return object;
  } catch (const std::exception& e) {
    return codec_internal::DescribeFailure(e).Wrap("decoding " +
                                                   codec_internal::KindName<T>::Get());
  }
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

inline base::Result<Status> StatusFromJson(const nlohmann::json& j) {
  return ObjectFromJson<Status>(j);
}

}  // namespace kube
