#include "kube/api/dom_codec.h"

#include <fmt/format.h>

#include <limits>

namespace kube::codec_internal {

DecodeError TypeMismatch(std::string_view expected, const json& actual) {
  return DecodeError(fmt::format("type must be {}, but is {}", expected, actual.type_name()));
}

void ExpectObject(const json& value) {
  if (!value.is_object()) throw TypeMismatch("object", value);
}

void DecodeValue(const json& value, std::string& out) {
  if (!value.is_string()) throw TypeMismatch("string", value);
  out = value.get_ref<const std::string&>();
}

void DecodeValue(const json& value, InternedString& out) {
  if (!value.is_string()) throw TypeMismatch("string", value);
  out = InternedString(value.get_ref<const std::string&>());
}

void DecodeValue(const json& value, MetaTime& out) {
  if (!value.is_string()) throw TypeMismatch("string", value);
  out = DecodeMetaTime(value.get_ref<const std::string&>());
}

void DecodeValue(const json& value, Uid& out) {
  if (!value.is_string()) throw TypeMismatch("string", value);
  out = Uid(value.get_ref<const std::string&>());
}

void DecodeValue(const json& value, bool& out) {
  if (!value.is_boolean()) throw TypeMismatch("boolean", value);
  out = value.get<bool>();
}

namespace {

// Go rejects fractions and out-of-range values for integer fields; so do we.
template <class Int>
Int DecodeInteger(const json& value) {
  if (!value.is_number_integer()) throw TypeMismatch("integer", value);
  if (value.is_number_unsigned()) {
    auto v = value.get<uint64_t>();
    if (v <= static_cast<uint64_t>(std::numeric_limits<Int>::max())) return static_cast<Int>(v);
  } else {
    auto v = value.get<int64_t>();
    if constexpr (sizeof(Int) == sizeof(int64_t)) {
      return v;
    } else if (v >= std::numeric_limits<Int>::min() && v <= std::numeric_limits<Int>::max()) {
      return static_cast<Int>(v);
    }
  }
  throw DecodeError(fmt::format("number {} out of range", value.dump()));
}

}  // namespace

void DecodeValue(const json& value, int32_t& out) { out = DecodeInteger<int32_t>(value); }

void DecodeValue(const json& value, int64_t& out) { out = DecodeInteger<int64_t>(value); }

// nlohmann keeps object members sorted, so each insert appends.
void DecodeValue(const json& value, StringMap& out) {
  ExpectObject(value);
  out = StringMap();
  out.reserve(value.size());
  for (const auto& [key, member] : value.items()) {
    std::string& slot = out[key];
    if (member.is_null()) continue;
    WithParent(key, [&] { DecodeValue(member, slot); });
  }
}

void EncodeValue(json& out, const std::string& value) { out = value; }

void EncodeValue(json& out, const InternedString& value) { out = value.str(); }
void EncodeValue(json& out, const MetaTime& value) { out = value.str(); }
void EncodeValue(json& out, const Uid& value) { out = value.str(); }

void EncodeValue(json& out, bool value) { out = value; }

void EncodeValue(json& out, int32_t value) { out = value; }

void EncodeValue(json& out, int64_t value) { out = value; }

void EncodeValue(json& out, const StringMap& value) {
  out = json::object();
  for (const auto& [key, item] : value) out[key] = item;
}

}  // namespace kube::codec_internal
