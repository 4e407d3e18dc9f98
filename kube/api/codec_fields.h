// Field-level helpers shared by the per-kind codecs (codec_*.cpp); not for use
// outside the codec. Decoding follows Go's encoding/json as Kubernetes uses it:
// unknown fields are ignored, missing and null fields leave the target empty,
// and a field of the wrong JSON type throws DecodeError naming the field path.
// Encoding follows Go's omitempty: empty strings, lists, maps and unset
// optionals are left out.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/string_map.h"

namespace kube::codec_internal {

using nlohmann::json;

// Thrown while decoding; caught at the codec's Result boundary (codec.h).
// The path grows as the exception unwinds through enclosing fields.
class DecodeError : public std::runtime_error {
 public:
  explicit DecodeError(std::string problem);

  // Prefixes the path with an object key ("spec" + "attacher") or an array
  // index segment ("items" + "[3]").
  void AddParent(std::string_view segment);
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  void Rebuild();

  std::string path_;
  std::string problem_;
  std::string message_;  // "<path>: <problem>", or the bare problem at the top
};

// "type must be <expected>, but is <actual>", in nlohmann's wording.
DecodeError TypeMismatch(std::string_view expected, const json& actual);

// Throws unless `value` is a JSON object.
void ExpectObject(const json& value);

void DecodeValue(const json& value, std::string& out);
void DecodeValue(const json& value, bool& out);
void DecodeValue(const json& value, int32_t& out);
void DecodeValue(const json& value, int64_t& out);
void DecodeValue(const json& value, StringMap& out);

// A struct: its ADL from_json, after checking that the value is an object.
template <class T>
void DecodeValue(const json& value, T& out) {
  ExpectObject(value);
  from_json(value, out);
}

template <class T>
void DecodeValue(const json& value, std::optional<T>& out) {
  DecodeValue(value, out.emplace());
}

template <class T>
void DecodeValue(const json& value, std::shared_ptr<const T>& out) {
  auto decoded = std::make_shared<T>();
  DecodeValue(value, *decoded);
  out = std::move(decoded);
}

// Null elements become empty elements, as in Go.
template <class T>
void DecodeValue(const json& value, std::vector<T>& out) {
  if (!value.is_array()) throw TypeMismatch("array", value);
  out.clear();
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    T& item = out.emplace_back();
    if (value[i].is_null()) continue;
    try {
      DecodeValue(value[i], item);
    } catch (DecodeError& e) {
      e.AddParent("[" + std::to_string(i) + "]");
      throw;
    }
  }
}

// Decodes object[key] into `out` when present and not null; returns whether
// it was. Errors inside carry `key` in their path.
template <class T>
bool ReadField(const json& object, std::string_view key, T& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return false;
  try {
    DecodeValue(*it, out);
  } catch (DecodeError& e) {
    e.AddParent(key);
    throw;
  }
  return true;
}

// ReadField for a field nested in objects, e.g. {"capacity", "storage"}.
template <class T>
bool ReadPath(const json& object, const std::string_view* key, const std::string_view* last,
              T& out) {
  if (key + 1 == last) return ReadField(object, *key, out);
  auto it = object.find(*key);
  if (it == object.end() || it->is_null()) return false;
  try {
    ExpectObject(*it);
    return ReadPath(*it, key + 1, last, out);
  } catch (DecodeError& e) {
    e.AddParent(*key);
    throw;
  }
}

template <class T>
bool ReadPath(const json& object, std::initializer_list<std::string_view> keys, T& out) {
  return ReadPath(object, keys.begin(), keys.end(), out);
}

void PutIfNotEmpty(json& object, std::string_view key, const std::string& value);
void PutIfTrue(json& object, std::string_view key, bool value);
void PutIfNonZero(json& object, std::string_view key, int32_t value);
void PutIfNotEmpty(json& object, std::string_view key, const StringMap& value);

template <class T>
void PutIfNotEmpty(json& object, std::string_view key, const std::vector<T>& value) {
  if (!value.empty()) object[key] = value;
}

template <class T>
void PutIfSet(json& object, std::string_view key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

// A new top-level object carrying apiVersion and kind of T.
template <class T>
json NewObjectJson() {
  return json{{"apiVersion", std::string(T::kApiVersion)}, {"kind", std::string(T::kKind)}};
}

}  // namespace kube::codec_internal
