// The field tables (field.h) read straight from JSON text by a JsonReader, in
// one pass and without a document: ReadValue for every member type a table may
// hold. It decodes what DecodeValue (dom_codec.h) decodes from the DOM of the
// same text - the same values, and for a document with one problem the same
// error; with several, the first in document order is reported. As the DOM
// keeps the last of repeated keys, a repeated member is reset before it is
// read again, and a member's decoding error counts only when the key does not
// come again (the value is skipped meanwhile). Members are
// dispatched in document order through a lookup built once per struct
// (MemberSlot). Hook values (field.h) are kept as
// text while the object is read and handed to the hook once it is closed, in
// kKeys order as from the DOM. Throws DecodeError and JsonSyntaxError; codec.h
// turns them into a Result. Not for use outside the codec.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "kube/api/decode_error.h"
#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/json_reader.h"
#include "kube/api/meta_time.h"
#include "kube/api/string_map.h"
#include "kube/api/uid.h"

namespace kube::codec_internal {

// "type must be <expected>, but is <actual>", as from the DOM.
DecodeError TypeMismatch(std::string_view expected, JsonType actual);

// Throws unless the next value is of type `type`; `expected` names it in the message.
void ExpectType(JsonReader& in, JsonType type, std::string_view expected);

void ReadValue(JsonReader& in, std::string& out);
void ReadValue(JsonReader& in, InternedString& out);
void ReadValue(JsonReader& in, MetaTime& out);
void ReadValue(JsonReader& in, Uid& out);
void ReadValue(JsonReader& in, bool& out);
void ReadValue(JsonReader& in, int32_t& out);
void ReadValue(JsonReader& in, int64_t& out);
void ReadValue(JsonReader& in, StringMap& out);
template <class T>
void ReadValue(JsonReader& in, std::optional<T>& out);
template <class T>
void ReadValue(JsonReader& in, HeapOptional<T>& out);
template <class T>
void ReadValue(JsonReader& in, std::shared_ptr<const T>& out);
template <class T>
void ReadValue(JsonReader& in, std::vector<T>& out);
template <TableStruct T>
void ReadValue(JsonReader& in, T& out);

// What a hook (field.h) sees of this backend: the reader, standing at the value.
struct JsonStream {
  struct Value {
    JsonReader& reader;
  };

  template <class T>
  static void Decode(const Value& value, T& out) {
    ReadValue(value.reader, out);
  }
};

// One key of an object level of a table struct's JSON form.
struct MemberSlot {
  std::string_view key;
  int entry = -1;      // the Field whose member the value fills, or -1
  int hook_slot = -1;  // where the value is kept for a hook, or -1
  // The members of the object this key holds, by key: the next segments of
  // dotted names ("capacity" -> "storage").
  std::vector<MemberSlot> members;
  std::vector<int> entries_below;  // the Fields reset when the key repeats
};

// The member of `level` named `key`, or null.
const MemberSlot* FindMember(const MemberSlot& level, std::string_view key);
// Adds table entry `entry` under its dotted JSON name.
void AddFieldMember(MemberSlot& root, std::string_view dotted_name, int entry);
void AddHookMember(MemberSlot& root, std::string_view key, int hook_slot);
// Sorts every level for FindMember; throws std::logic_error when a level has
// more than 64 members (ReadMembers tracks repeats in a 64-bit word).
void FinishMembers(MemberSlot& root);

template <class Entry>
constexpr size_t HookKeyCount() {
  if constexpr (FieldHook<Entry>) {
    return Entry::kKeys.size();
  } else {
    return 0;
  }
}

// Per table struct: its members by key and, per entry, how to read and reset it.
template <TableStruct T>
struct StreamTable {
  using Entries = decltype(T::Fields());
  static constexpr size_t kEntries = std::tuple_size_v<Entries>;

  // The first hook slot of entry I: hook keys are numbered in table order.
  template <size_t I>
  static constexpr size_t HookBase() {
    return []<size_t... J>(std::index_sequence<J...>) {
      return (HookKeyCount<std::tuple_element_t<J, Entries>>() + ... + 0);
    }
    (std::make_index_sequence<I>());
  }
  static constexpr size_t kHookSlots = HookBase<kEntries>();

  template <size_t I>
  static void Read(JsonReader& in, T& out) {
    constexpr auto field = std::get<I>(T::Fields());
    ReadValue(in, out.*field.member);
    if constexpr (field.presence != nullptr) out.*field.presence = true;
  }

  template <size_t I>
  static void Reset(T& out) {
    constexpr auto field = std::get<I>(T::Fields());
    static const T defaults{};
    out.*field.member = defaults.*field.member;
    if constexpr (field.presence != nullptr) out.*field.presence = false;
  }

  using ReadFn = void (*)(JsonReader&, T&);
  using ResetFn = void (*)(T&);
  template <size_t I>
  static constexpr ReadFn ReaderOf() {
    if constexpr (FieldHook<std::tuple_element_t<I, Entries>>) {
      return nullptr;
    } else {
      return &Read<I>;
    }
  }
  template <size_t I>
  static constexpr ResetFn ResetterOf() {
    if constexpr (FieldHook<std::tuple_element_t<I, Entries>>) {
      return nullptr;
    } else {
      return &Reset<I>;
    }
  }
  static constexpr auto kReaders = []<size_t... I>(std::index_sequence<I...>) {
    return std::array<ReadFn, kEntries>{ReaderOf<I>()...};
  }
  (std::make_index_sequence<kEntries>());
  static constexpr auto kResetters = []<size_t... I>(std::index_sequence<I...>) {
    return std::array<ResetFn, kEntries>{ResetterOf<I>()...};
  }
  (std::make_index_sequence<kEntries>());

  static const MemberSlot& Root() {
    static const MemberSlot root = [] {
      MemberSlot built;
      [&]<size_t... I>(std::index_sequence<I...>) { (AddEntry<I>(built), ...); }
      (std::make_index_sequence<kEntries>());
      FinishMembers(built);
      return built;
    }();
    return root;
  }

  template <size_t I>
  static void AddEntry(MemberSlot& root) {
    using Entry = std::tuple_element_t<I, Entries>;
    if constexpr (FieldHook<Entry>) {
      for (size_t k = 0; k < Entry::kKeys.size(); ++k) {
        AddHookMember(root, Entry::kKeys[k], static_cast<int>(HookBase<I>() + k));
      }
    } else {
      AddFieldMember(root, std::get<I>(T::Fields()).name, static_cast<int>(I));
    }
  }

  using HookValues = std::array<std::string_view, kHookSlots>;

  // Hands each kept hook value to its hook, in table and kKeys order.
  static void RunHooks(const JsonReader& in, const HookValues& values, T& out) {
    [&]<size_t... I>(std::index_sequence<I...>) { (RunHook<I>(in, values, out), ...); }
    (std::make_index_sequence<kEntries>());
  }

  template <size_t I>
  static void RunHook(const JsonReader& in, const HookValues& values, T& out) {
    using Hook = std::tuple_element_t<I, Entries>;
    if constexpr (FieldHook<Hook>) {
      for (size_t k = 0; k < Hook::kKeys.size(); ++k) {
        std::string_view text = values[HookBase<I>() + k];
        if (text.data() == nullptr) continue;
        JsonReader value = in.Slice(text);
        std::string_view key = Hook::kKeys[k];
        WithParent(key,
                   [&] { Hook::template Decode<JsonStream>(key, JsonStream::Value{value}, out); });
      }
    }
  }
};

// Decodes a member's value with `read`. A DecodeError, with `key` as the
// path's parent, is added to `failed` and the value skipped: whether it counts
// is known at the end of the object, as a repeated key replaces it.
template <class Failure, class Read>
void ReadMemberValue(JsonReader& in, std::vector<Failure>& failed, auto&& failure_key,
                     std::string_view key, Read&& read) {
  JsonReader::Position start = in.Tell();
  try {
    WithParent(key, read);
  } catch (DecodeError& e) {
    failed.push_back({failure_key(), std::move(e)});
    in.Seek(start);
    in.SkipValue();
  }
}

// Drops the failures of `key`, being read again.
template <class Failure, class Key>
void ForgetFailures(std::vector<Failure>& failed, const Key& key) {
  if (!failed.empty()) std::erase_if(failed, [&](const Failure& f) { return f.key == key; });
}

// Reads the members of one object level of T (the struct itself or the
// object a dotted name reaches into).
template <TableStruct T>
void ReadMembers(JsonReader& in, const MemberSlot& level, T& out,
                 typename StreamTable<T>::HookValues& hook_values) {
  using Table = StreamTable<T>;
  struct Failure {
    const MemberSlot* key;
    DecodeError error;
  };
  std::vector<Failure> failed;
  uint64_t seen = 0;
  in.BeginObject();
  for (std::string_view key; in.NextMember(key);) {
    const MemberSlot* member = FindMember(level, key);
    if (member == nullptr) {
      in.SkipValue();
      continue;
    }
    if (member->hook_slot >= 0) {  // the last one counts, as in the DOM; null = absent
      std::string_view& kept = hook_values[static_cast<size_t>(member->hook_slot)];
      if (in.Peek() == JsonType::kNull) {
        in.ReadNull();
        kept = {};
      } else {
        kept = in.SkipValue();
      }
      continue;
    }
    uint64_t bit = uint64_t{1} << (member - level.members.data());
    if (seen & bit) {
      for (int entry : member->entries_below) Table::kResetters[static_cast<size_t>(entry)](out);
      ForgetFailures(failed, member);
    }
    seen |= bit;
    if (in.Peek() == JsonType::kNull) {
      in.ReadNull();
      continue;
    }
    ReadMemberValue(
        in, failed, [&] { return member; }, member->key,
        [&] {
          if (member->entry >= 0) {
            Table::kReaders[static_cast<size_t>(member->entry)](in, out);
          } else {
            ExpectType(in, JsonType::kObject, "object");
            ReadMembers(in, *member, out, hook_values);
          }
        });
  }
  if (!failed.empty()) throw std::move(failed.front().error);
}

template <TableStruct T>
void ReadValue(JsonReader& in, T& out) {
  using Table = StreamTable<T>;
  ExpectType(in, JsonType::kObject, "object");
  typename Table::HookValues hook_values{};
  ReadMembers(in, Table::Root(), out, hook_values);
  if constexpr (Table::kHookSlots > 0) Table::RunHooks(in, hook_values, out);
}

template <class T>
void ReadValue(JsonReader& in, std::optional<T>& out) {
  ReadValue(in, out.emplace());
}

template <class T>
void ReadValue(JsonReader& in, HeapOptional<T>& out) {
  ReadValue(in, out.emplace());
}

template <class T>
void ReadValue(JsonReader& in, std::shared_ptr<const T>& out) {
  auto decoded = std::make_shared<T>();
  ReadValue(in, *decoded);
  out = std::move(decoded);
}

// Null elements become empty elements, as in Go.
template <class T>
void ReadValue(JsonReader& in, std::vector<T>& out) {
  ExpectType(in, JsonType::kArray, "array");
  out.clear();
  in.BeginArray();
  for (size_t i = 0; in.NextElement(); ++i) {
    T& item = out.emplace_back();
    if (in.Peek() == JsonType::kNull) {
      in.ReadNull();
      continue;
    }
    try {
      ReadValue(in, item);
    } catch (DecodeError& e) {
      e.AddParent("[" + std::to_string(i) + "]");
      throw;
    }
  }
}

}  // namespace kube::codec_internal
