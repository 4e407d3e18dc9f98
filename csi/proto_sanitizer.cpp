#include "csi/proto_sanitizer.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <charconv>
#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include "csi/go_json.h"
#include "csi/proto/csi.pb.h"

namespace csi {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

constexpr std::string_view kStripped = "***stripped***";

void AppendBase64(std::string* out, std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  out->push_back('"');
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t n = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out->push_back(kAlphabet[(n >> shift) & 63]);
  }
  if (size_t rest = bytes.size() - i; rest > 0) {
    uint32_t n = uint8_t(bytes[i]) << 16;
    if (rest == 2) n |= uint8_t(bytes[i + 1]) << 8;
    out->push_back(kAlphabet[(n >> 18) & 63]);
    out->push_back(kAlphabet[(n >> 12) & 63]);
    out->push_back(rest == 2 ? kAlphabet[(n >> 6) & 63] : '=');
    out->push_back('=');
  }
  out->push_back('"');
}

// encoding/json's float format: shortest digits, exponent form outside
// [1e-6, 1e21) with a trimmed exponent ("1e-7"). Go refuses NaN and Inf;
// the message is still logged here, with the value as a string.
template <typename Float>
void AppendFloat(std::string* out, Float f) {
  if (!std::isfinite(f)) {
    AppendGoJsonString(out, std::isnan(f) ? "NaN" : f > 0 ? "+Inf" : "-Inf");
    return;
  }
  char buf[64];
  Float magnitude = std::fabs(f);
  bool exponent = magnitude != 0 && (magnitude < Float(1e-6) || magnitude >= Float(1e21));
  auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, f,
                    exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string text(buf, end);
  size_t e = text.find('e');
  if (e != std::string::npos && e + 2 < text.size() && text[e + 2] == '0') text.erase(e + 2, 1);
  *out += text;
}

void AppendMessage(std::string* out, const Message& message);

// One value of `field` (an element, for repeated fields).
void AppendValue(std::string* out, const Message& message, const FieldDescriptor* field,
                 int index) {
  const Reflection* r = message.GetReflection();
  bool repeated = field->is_repeated();
  switch (field->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      *out += std::to_string(repeated ? r->GetRepeatedInt32(message, field, index)
                                      : r->GetInt32(message, field));
      return;
    case FieldDescriptor::CPPTYPE_INT64:
      *out += std::to_string(repeated ? r->GetRepeatedInt64(message, field, index)
                                      : r->GetInt64(message, field));
      return;
    case FieldDescriptor::CPPTYPE_UINT32:
      *out += std::to_string(repeated ? r->GetRepeatedUInt32(message, field, index)
                                      : r->GetUInt32(message, field));
      return;
    case FieldDescriptor::CPPTYPE_UINT64:
      *out += std::to_string(repeated ? r->GetRepeatedUInt64(message, field, index)
                                      : r->GetUInt64(message, field));
      return;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      AppendFloat(out, repeated ? r->GetRepeatedDouble(message, field, index)
                                : r->GetDouble(message, field));
      return;
    case FieldDescriptor::CPPTYPE_FLOAT:
      AppendFloat(
          out, repeated ? r->GetRepeatedFloat(message, field, index) : r->GetFloat(message, field));
      return;
    case FieldDescriptor::CPPTYPE_BOOL:
      *out += (repeated ? r->GetRepeatedBool(message, field, index) : r->GetBool(message, field))
                  ? "true"
                  : "false";
      return;
    case FieldDescriptor::CPPTYPE_ENUM: {
      int number = repeated ? r->GetRepeatedEnumValue(message, field, index)
                            : r->GetEnumValue(message, field);
      const auto* value = field->enum_type()->FindValueByNumber(number);
      if (value != nullptr) {
        AppendGoJsonString(out, value->name());
      } else {
        *out += std::to_string(number);
      }
      return;
    }
    case FieldDescriptor::CPPTYPE_STRING: {
      std::string scratch;
      const std::string& s = repeated
                                 ? r->GetRepeatedStringReference(message, field, index, &scratch)
                                 : r->GetStringReference(message, field, &scratch);
      if (field->type() == FieldDescriptor::TYPE_BYTES) {
        AppendBase64(out, s);
      } else {
        AppendGoJsonString(out, s);
      }
      return;
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      AppendMessage(out, repeated ? r->GetRepeatedMessage(message, field, index)
                                  : r->GetMessage(message, field));
      return;
  }
}

// A map key as Go's protoreflect MapKey.String() spells it.
std::string MapKey(const Message& entry) {
  const FieldDescriptor* key = entry.GetDescriptor()->map_key();
  if (key->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
    return entry.GetReflection()->GetString(entry, key);
  }
  std::string rendered;  // integers and bools print bare
  AppendValue(&rendered, entry, key, -1);
  return rendered;
}

void AppendField(std::string* out, const Message& message, const FieldDescriptor* field) {
  if (field->options().GetExtension(v1::csi_secret)) {
    AppendGoJsonString(out, kStripped);
    return;
  }
  const Reflection* r = message.GetReflection();
  if (field->is_map()) {
    // Entries sorted by key, as json.Marshal sorts a Go map.
    std::map<std::string, std::string> entries;
    for (int i = 0; i < r->FieldSize(message, field); ++i) {
      const Message& entry = r->GetRepeatedMessage(message, field, i);
      std::string value;
      AppendValue(&value, entry, entry.GetDescriptor()->map_value(), -1);
      entries[MapKey(entry)] = std::move(value);
    }
    out->push_back('{');
    for (const auto& [key, value] : entries) {
      if (out->back() != '{') out->push_back(',');
      AppendGoJsonString(out, key);
      out->push_back(':');
      *out += value;
    }
    out->push_back('}');
  } else if (field->is_repeated()) {
    out->push_back('[');
    for (int i = 0; i < r->FieldSize(message, field); ++i) {
      if (i > 0) out->push_back(',');
      AppendValue(out, message, field, i);
    }
    out->push_back(']');
  } else {
    AppendValue(out, message, field, -1);
  }
}

void AppendMessage(std::string* out, const Message& message) {
  std::vector<const FieldDescriptor*> fields;
  message.GetReflection()->ListFields(message, &fields);
  std::map<std::string_view, const FieldDescriptor*> by_name;
  for (const FieldDescriptor* field : fields) by_name.emplace(field->name(), field);
  out->push_back('{');
  bool first = true;
  for (const auto& [name, field] : by_name) {
    if (!first) out->push_back(',');
    first = false;
    AppendGoJsonString(out, name);
    out->push_back(':');
    AppendField(out, message, field);
  }
  out->push_back('}');
}

}  // namespace

std::string StripSecrets(const google::protobuf::Message& message) {
  std::string out;
  AppendMessage(&out, message);
  return out;
}

}  // namespace csi
