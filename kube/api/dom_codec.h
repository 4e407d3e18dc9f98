// The field tables (field.h) over an nlohmann::json DOM: DecodeValue and
// EncodeValue for every member type a table may hold. Decoding follows Go's
// encoding/json as Kubernetes uses it (see field.h) and throws DecodeError;
// codec.h turns that into a Result. Not for use outside the codec.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/decode_error.h"
#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/meta_time.h"
#include "kube/api/string_map.h"
#include "kube/api/uid.h"

namespace kube::codec_internal {

using nlohmann::json;

// "type must be <expected>, but is <actual>", in nlohmann's wording.
DecodeError TypeMismatch(std::string_view expected, const json& actual);

// Throws unless `value` is a JSON object.
void ExpectObject(const json& value);

void DecodeValue(const json& value, std::string& out);
void DecodeValue(const json& value, InternedString& out);
void DecodeValue(const json& value, MetaTime& out);
void DecodeValue(const json& value, Uid& out);
void DecodeValue(const json& value, bool& out);
void DecodeValue(const json& value, int32_t& out);
void DecodeValue(const json& value, int64_t& out);
void DecodeValue(const json& value, StringMap& out);
template <class T>
void DecodeValue(const json& value, std::optional<T>& out);
template <class T>
void DecodeValue(const json& value, HeapOptional<T>& out);
template <class T>
void DecodeValue(const json& value, std::shared_ptr<const T>& out);
template <class T>
void DecodeValue(const json& value, std::vector<T>& out);
template <TableStruct T>
void DecodeValue(const json& value, T& out);

void EncodeValue(json& out, const std::string& value);
void EncodeValue(json& out, const InternedString& value);
void EncodeValue(json& out, const MetaTime& value);
void EncodeValue(json& out, const Uid& value);
void EncodeValue(json& out, bool value);
void EncodeValue(json& out, int32_t value);
void EncodeValue(json& out, int64_t value);
void EncodeValue(json& out, const StringMap& value);
template <class T>
void EncodeValue(json& out, const std::optional<T>& value);
template <class T>
void EncodeValue(json& out, const HeapOptional<T>& value);
template <class T>
void EncodeValue(json& out, const std::shared_ptr<const T>& value);
template <class T>
void EncodeValue(json& out, const std::vector<T>& value);
template <TableStruct T>
void EncodeValue(json& out, const T& value);

// What a hook (field.h) sees of this backend.
struct JsonDom {
  using Value = json;
  using Object = json;

  template <class T>
  static void Decode(const json& value, T& out) {
    DecodeValue(value, out);
  }
  template <class T>
  static void Put(json& object, std::string_view key, const T& value) {
    EncodeValue(object[key], value);
  }
};

template <class T>
void DecodeValue(const json& value, std::optional<T>& out) {
  DecodeValue(value, out.emplace());
}

template <class T>
void DecodeValue(const json& value, HeapOptional<T>& out) {
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
    WithParent("[" + std::to_string(i) + "]", [&] { DecodeValue(value[i], item); });
  }
}

// Decodes the member at dotted `name` of `object` when present and not null;
// returns whether it was.
template <class T>
bool DecodeMember(const json& object, std::string_view name, T& out) {
  auto dot = name.find('.');
  std::string_view key = name.substr(0, dot);
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return false;
  bool present = true;
  WithParent(key, [&] {
    if (dot == std::string_view::npos) {
      DecodeValue(*it, out);
    } else {
      ExpectObject(*it);
      present = DecodeMember(*it, name.substr(dot + 1), out);
    }
  });
  return present;
}

template <class S, class M>
void DecodeEntry(const json& object, const Field<S, M>& field, S& out) {
  bool present = DecodeMember(object, field.name, out.*field.member);
  if (field.presence) out.*field.presence = present;
}

template <FieldHook H, class S>
void DecodeEntry(const json& object, const H&, S& out) {
  for (std::string_view key : H::kKeys) {
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) continue;
    WithParent(key, [&] { H::template Decode<JsonDom>(key, *it, out); });
  }
}

template <TableStruct T>
void DecodeValue(const json& value, T& out) {
  ExpectObject(value);
  std::apply([&](const auto&... entry) { (DecodeEntry(value, entry, out), ...); }, T::Fields());
}

template <class T>
void EncodeValue(json& out, const std::optional<T>& value) {
  if (value) {
    EncodeValue(out, *value);
  } else {
    out = nullptr;
  }
}

template <class T>
void EncodeValue(json& out, const HeapOptional<T>& value) {
  if (value) {
    EncodeValue(out, *value);
  } else {
    out = nullptr;
  }
}

template <class T>
void EncodeValue(json& out, const std::shared_ptr<const T>& value) {
  if (value) {
    EncodeValue(out, *value);
  } else {
    out = nullptr;
  }
}

template <class T>
void EncodeValue(json& out, const std::vector<T>& value) {
  out = json::array();
  for (const T& item : value) EncodeValue(out.emplace_back(), item);
}

template <class S, class M>
void EncodeEntry(json& object, const Field<S, M>& field, const S& in) {
  const M& value = in.*field.member;
  if (!field.Writes(value)) return;
  json* slot = &object;
  for (std::string_view rest = field.name;;) {
    auto dot = rest.find('.');
    slot = &(*slot)[rest.substr(0, dot)];
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  EncodeValue(*slot, value);
}

template <FieldHook H, class S>
void EncodeEntry(json& object, const H&, const S& in) {
  H::template Encode<JsonDom>(object, in);
}

template <TableStruct T>
void EncodeValue(json& out, const T& value) {
  out = json::object();
  if constexpr (HasKindFacts<T>) {
    out["apiVersion"] = std::string(T::kFacts.api_version);
    out["kind"] = std::string(T::kFacts.kind);
  }
  std::apply([&](const auto&... entry) { (EncodeEntry(out, entry, value), ...); }, T::Fields());
}

}  // namespace kube::codec_internal
