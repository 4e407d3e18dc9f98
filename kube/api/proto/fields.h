// ReadFields: a message decoded by a table of the fields it keeps: number,
// name (for error paths, as the JSON names it) and the member the value goes
// to (Bind). The member's type says how the value is read (ReadValue); a
// fourth argument reads it another way (a metav1.Time into its text). Fields
// not in the table are skipped. A nested message is read by the ReadProto
// overload of its struct, found by argument-dependent lookup.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/decode_error.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/proto/wire_reader.h"
#include "kube/api/string_map.h"
#include "kube/api/uid.h"

namespace kube::proto {

inline void ReadValue(WireReader& in, std::string& out) { out.assign(in.ReadBytes()); }
inline void ReadValue(WireReader& in, std::string_view& out) { out = in.ReadBytes(); }
inline void ReadValue(WireReader& in, InternedString& out) { out = InternedString(in.ReadBytes()); }
inline void ReadValue(WireReader& in, Uid& out) { out = Uid(in.ReadBytes()); }
inline void ReadValue(WireReader& in, bool& out) { out = in.ReadBool(); }
inline void ReadValue(WireReader& in, int32_t& out) { out = in.ReadInt32(); }
inline void ReadValue(WireReader& in, int64_t& out) { out = in.ReadInt64(); }
// One entry of a map<string, string> (a message {key = 1, value = 2}); a
// missing key or value is empty, as in Go.
void ReadValue(WireReader& in, StringMap& out);

template <class T>
requires requires(WireReader& nested, T& out) { ReadProto(nested, out); }
void ReadValue(WireReader& in, T& out) {
  WireReader nested = in.ReadMessage();
  ReadProto(nested, out);
}
// A repeated message merges into the value already there, as in protobuf.
template <class T>
void ReadValue(WireReader& in, std::optional<T>& out) {
  if (!out) out.emplace();
  ReadValue(in, *out);
}
template <class T>
void ReadValue(WireReader& in, HeapOptional<T>& out) {
  if (!out) out.emplace();
  ReadValue(in, *out);
}
// A repeated field: each occurrence appends.
template <class T>
void ReadValue(WireReader& in, std::vector<T>& out) {
  ReadValue(in, out.emplace_back());
}

template <class T, class Read>
struct Binding {
  uint32_t number;
  std::string_view name;
  T* target;
  Read read;
};

template <class T>
auto Bind(uint32_t number, std::string_view name, T& target) {
  return Binding{number, name, &target, [](WireReader& in, T& out) { ReadValue(in, out); }};
}
template <class T, class Read>
auto Bind(uint32_t number, std::string_view name, T& target, Read read) {
  return Binding<T, Read>{number, name, &target, read};
}

template <class... T, class... Read>
void ReadFields(WireReader& in, const Binding<T, Read>&... fields) {
  while (in.Next()) {
    const uint32_t number = in.field();
    try {
      bool known =
          ((number == fields.number ? (fields.read(in, *fields.target), true) : false) || ...);
      if (!known) in.Skip();
    } catch (DecodeError& e) {
      ((number == fields.number ? (e.AddParent(fields.name), true) : false) || ...);
      throw;
    }
  }
}

}  // namespace kube::proto
