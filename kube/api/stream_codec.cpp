#include "kube/api/stream_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

namespace kube::codec_internal {

DecodeError TypeMismatch(std::string_view expected, JsonType actual) {
  return DecodeError(fmt::format("type must be {}, but is {}", expected, JsonTypeName(actual)));
}

void ExpectType(JsonReader& in, JsonType type, std::string_view expected) {
  JsonType actual = in.Peek();
  if (actual != type) throw TypeMismatch(expected, actual);
}

void ReadValue(JsonReader& in, std::string& out) {
  ExpectType(in, JsonType::kString, "string");
  in.ReadString(out);
}

// The text is read into a per-thread buffer: only a text new to the pool is copied.
void ReadValue(JsonReader& in, InternedString& out) {
  thread_local std::string text;
  ReadValue(in, text);
  out = InternedString(text);
}

void ReadValue(JsonReader& in, MetaTime& out) {
  thread_local std::string text;
  ReadValue(in, text);
  out = DecodeMetaTime(text);
}

void ReadValue(JsonReader& in, Uid& out) {
  thread_local std::string text;
  ReadValue(in, text);
  out = Uid(text);
}

void ReadValue(JsonReader& in, bool& out) {
  ExpectType(in, JsonType::kBoolean, "boolean");
  out = in.ReadBoolean();
}

namespace {

// As the DOM: a number with a fraction or exponent, or beyond 64 bits, is not
// an integer; one that is but does not fit Int is out of range.
template <class Int>
Int ReadInteger(JsonReader& in) {
  ExpectType(in, JsonType::kNumber, "integer");
  std::string_view text = in.ReadNumber();
  if (text.find_first_of(".eE") != std::string_view::npos) {
    throw TypeMismatch("integer", JsonType::kNumber);
  }
  const char* end = text.data() + text.size();
  if (text.front() == '-') {
    int64_t value;
    if (std::from_chars(text.data(), end, value).ec != std::errc()) {
      throw TypeMismatch("integer", JsonType::kNumber);
    }
    if (value >= std::numeric_limits<Int>::min()) return static_cast<Int>(value);
  } else {
    uint64_t value;
    if (std::from_chars(text.data(), end, value).ec != std::errc()) {
      throw TypeMismatch("integer", JsonType::kNumber);
    }
    if (value <= static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
      return static_cast<Int>(value);
    }
  }
  throw DecodeError(fmt::format("number {} out of range", text));
}

}  // namespace

void ReadValue(JsonReader& in, int32_t& out) { out = ReadInteger<int32_t>(in); }

void ReadValue(JsonReader& in, int64_t& out) { out = ReadInteger<int64_t>(in); }

// Keys arrive in document order; the last of repeated keys wins, as in the DOM.
void ReadValue(JsonReader& in, StringMap& out) {
  ExpectType(in, JsonType::kObject, "object");
  out = StringMap();
  struct Failure {
    std::string key;
    DecodeError error;
  };
  std::vector<Failure> failed;
  in.BeginObject();
  for (std::string_view key; in.NextMember(key);) {
    ForgetFailures(failed, key);
    std::string& slot = out[key];
    if (in.Peek() == JsonType::kNull) {
      in.ReadNull();
      slot.clear();
      continue;
    }
    ReadMemberValue(
        in, failed, [&] { return std::string(key); }, key, [&] { ReadValue(in, slot); });
  }
  if (!failed.empty()) throw std::move(failed.front().error);
}

const MemberSlot* FindMember(const MemberSlot& level, std::string_view key) {
  auto it = std::lower_bound(level.members.begin(), level.members.end(), key,
                             [](const MemberSlot& m, std::string_view k) { return m.key < k; });
  return it != level.members.end() && it->key == key ? &*it : nullptr;
}

namespace {

MemberSlot& MemberOf(MemberSlot& level, std::string_view key) {
  for (MemberSlot& member : level.members) {
    if (member.key == key) return member;
  }
  MemberSlot& added = level.members.emplace_back();
  added.key = key;
  return added;
}

}  // namespace

void AddFieldMember(MemberSlot& root, std::string_view dotted_name, int entry) {
  MemberSlot* level = &root;
  for (std::string_view rest = dotted_name;;) {
    auto dot = rest.find('.');
    level = &MemberOf(*level, rest.substr(0, dot));
    level->entries_below.push_back(entry);
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  level->entry = entry;
}

void AddHookMember(MemberSlot& root, std::string_view key, int hook_slot) {
  MemberOf(root, key).hook_slot = hook_slot;
}

void FinishMembers(MemberSlot& root) {
  if (root.members.size() > 64) {
    throw std::logic_error("a field table level has more than 64 members");
  }
  std::sort(root.members.begin(), root.members.end(),
            [](const MemberSlot& a, const MemberSlot& b) { return a.key < b.key; });
  for (MemberSlot& member : root.members) FinishMembers(member);
}

}  // namespace kube::codec_internal
