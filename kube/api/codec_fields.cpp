#include "kube/api/codec_fields.h"

#include <fmt/format.h>

#include <limits>

#include "kube/api/codec.h"

namespace kube::codec_internal {

DecodeError::DecodeError(std::string problem)
    : std::runtime_error("decode error"), problem_(std::move(problem)) {
  Rebuild();
}

void DecodeError::AddParent(std::string_view segment) {
  if (path_.empty() || path_.front() == '[') {
    path_.insert(0, segment);
  } else {
    path_.insert(0, std::string(segment) + ".");
  }
  Rebuild();
}

void DecodeError::Rebuild() { message_ = path_.empty() ? problem_ : path_ + ": " + problem_; }

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
    try {
      DecodeValue(member, slot);
    } catch (DecodeError& e) {
      e.AddParent(key);
      throw;
    }
  }
}

void PutIfNotEmpty(json& object, std::string_view key, const std::string& value) {
  if (!value.empty()) object[key] = value;
}

void PutIfTrue(json& object, std::string_view key, bool value) {
  if (value) object[key] = true;
}

void PutIfNonZero(json& object, std::string_view key, int32_t value) {
  if (value != 0) object[key] = value;
}

void PutIfNotEmpty(json& object, std::string_view key, const StringMap& value) {
  if (!value.empty()) object[key] = value;
}

}  // namespace kube::codec_internal
