// KUBE_INSTANTIATE_CODEC(Type): the one definition of what KUBE_EXTERN_CODEC
// (codec_extern.h) declares, in a source file of the kind, at namespace kube
// scope.
#pragma once

#include "kube/api/codec.h"
#include "kube/api/codec_extern.h"

#define KUBE_INSTANTIATE_CODEC(Type)                                             \
  template void codec_internal::DecodeValue<Type>(const nlohmann::json&, Type&); \
  template void codec_internal::EncodeValue<Type>(nlohmann::json&, const Type&); \
  template void codec_internal::ReadValue<Type>(JsonReader&, Type&)
