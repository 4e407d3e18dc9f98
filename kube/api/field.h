// Field tables: a struct's JSON form, stated once and walked by both decoding
// and encoding (codec.h), and by any later reader of the same bytes. A struct
// opts in with
//   static constexpr auto Fields() { return std::tuple{Field("name", &S::name), ...}; }
// Each Field names its JSON member - a dotted name reaches into objects the
// struct flattens, e.g. "capacity.storage" - the C++ member it fills, and when
// encoding writes it (Emit, after Go's json tags). Members are std::string,
// InternedString (interned_string.h), bool, int32_t, int64_t, StringMap,
// std::vector, std::optional, HeapOptional (heap_optional.h; coded as an
// optional), std::shared_ptr<const T> or table structs, in any nesting; each
// compares with == (kOmitZero compares with a default-constructed value).
//
// Decoding ignores unknown members; a missing or null member leaves the C++
// member empty; a wrong JSON type is an error naming the field path.
//
// What is not one member per field (a union spread over several keys, a map
// re-encoded on the wire) is a hook: any other table entry providing
//   static constexpr std::array<std::string_view, N> kKeys;  // owned keys, by precedence
//   template <class Codec>
//   static void Decode(std::string_view key, const typename Codec::Value& value, S& out);
//   template <class Codec> static void Encode(typename Codec::Object& object, const S& in);
// where Codec::Decode(value, member) and Codec::Put(object, key, member) handle
// any member type above. Decode is called for each owned key present and not
// null, in kKeys order, by the DOM codec (dom_codec.h) and the stream codec
// (stream_codec.h) alike: the stream codec keeps the owned values' text until
// the object is read.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <type_traits>

namespace kube {

// When encoding writes a member.
enum class Emit {
  // `json:",omitempty"`: not "", 0, false, an empty list or map, or an unset
  // optional or pointer. A struct is always written, as in Go.
  kOmitEmpty,
  kAlways,    // `json:"x"`: always; an unset optional or pointer as null
  kOmitZero,  // `json:",omitzero"`: not when equal to a default-constructed value
};

// Whether Go's omitempty leaves `value` out.
template <class M>
constexpr bool OmitEmptyDrops(const M& value) {
  if constexpr (std::is_same_v<M, bool>) {
    return !value;
  } else if constexpr (std::is_arithmetic_v<M>) {
    return value == 0;
  } else if constexpr (requires { value.empty(); }) {  // string, list, map
    return value.empty();
  } else if constexpr (
      requires { value.has_value(); } || requires { value.get(); }) {
    return !value;  // optional, shared_ptr
  } else {
    return false;
  }
}

template <class S, class M>
struct Field {
  std::string_view name;
  M S::*member;
  Emit emit = Emit::kOmitEmpty;
  // Set on decode to whether the member was present and not null, for a list
  // whose absence a caller must tell from its emptiness.
  bool S::*presence = nullptr;

  constexpr Field(std::string_view name, M S::*member, Emit emit = Emit::kOmitEmpty)
      : name(name), member(member), emit(emit) {}

  constexpr Field RecordingPresenceIn(bool S::*flag) const {
    Field field = *this;
    field.presence = flag;
    return field;
  }

  constexpr bool Writes(const M& value) const {
    switch (emit) {
      case Emit::kAlways:
        return true;
      case Emit::kOmitZero:
        return !(value == M{});
      case Emit::kOmitEmpty:
        break;
    }
    return !OmitEmptyDrops(value);
  }
};

// A struct described by a field table.
template <class T>
concept TableStruct = requires {
  T::Fields();
};

// A table entry that is a hook rather than a Field.
template <class H>
concept FieldHook = requires {
  H::kKeys;
};

}  // namespace kube
