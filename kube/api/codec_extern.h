// Compiles each kind's codec once. The codec (codec.h) is templates over the
// field tables; left implicit, every file that decodes or encodes a kind
// would instantiate that kind's whole codec again, which made most of the
// build's compile time. A kind's header declares its codec extern with
// KUBE_EXTERN_CODEC(Kind) (and for ObjectList<Kind> when it is listed), and
// one source file of the kind instantiates it with KUBE_INSTANTIATE_CODEC
// (codec_instantiate.h). A struct declared nowhere is still instantiated
// implicitly where it is used, as before.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "kube/api/field.h"
#include "kube/api/object_list.h"

namespace kube {

class JsonReader;

namespace codec_internal {

// The entry points of a table struct's codec, defined in dom_codec.h
// (DecodeValue, EncodeValue) and stream_codec.h (ReadValue).
template <TableStruct T>
void DecodeValue(const nlohmann::json& value, T& out);
template <TableStruct T>
void EncodeValue(nlohmann::json& out, const T& value);
template <TableStruct T>
void ReadValue(JsonReader& in, T& out);

}  // namespace codec_internal
}  // namespace kube

// At namespace kube scope, after the struct's definition.
#define KUBE_EXTERN_CODEC(Type)                                                         \
  extern template void codec_internal::DecodeValue<Type>(const nlohmann::json&, Type&); \
  extern template void codec_internal::EncodeValue<Type>(nlohmann::json&, const Type&); \
  extern template void codec_internal::ReadValue<Type>(JsonReader&, Type&)
