// Decoding a protobuf answer of the API server (docs/design.md §4.1): the
// envelope checked against the expected kind, then the object read straight
// into its struct. A kind takes part by declaring
// `void ReadProto(proto::WireReader&, Kind&)` beside its struct (ProtobufKind);
// custom resources never do, the API server serves them as JSON only.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "kube/api/codec.h"
#include "kube/api/decode_error.h"
#include "kube/api/object_list.h"
#include "kube/api/proto/fields.h"
#include "kube/api/proto/meta_v1.h"
#include "kube/api/proto/wire_reader.h"

namespace kube {

template <class T>
concept ProtobufKind = requires(proto::WireReader& in, T& object) {
  ReadProto(in, object);
};

// What a request for a kind's objects (or its watch) accepts: protobuf first
// for a kind with a protobuf decoder, as client-go asks, else JSON.
template <class T>
inline constexpr std::string_view kAcceptFor =
    ProtobufKind<T> ? "application/vnd.kubernetes.protobuf, application/json" : "application/json";

// A List message: {ListMeta metadata = 1, repeated T items = 2}.
template <ProtobufKind T>
void ReadProto(proto::WireReader& in, ObjectList<T>& list) {
  proto::ReadFields(in, proto::Bind(1, "metadata", list.metadata),
                    proto::Bind(2, "items", list.items));
}

namespace proto {

// Opens the envelope, checks that it holds `kind` of `api_version` and reads
// its object into `object`; throws DecodeError.
template <class T>
void ReadEnveloped(std::string_view bytes, std::string_view api_version, std::string_view kind,
                   T& object) {
  Envelope envelope = OpenEnvelope(bytes);
  if (envelope.kind != kind || envelope.api_version != api_version) {
    throw DecodeError("expected " + std::string(api_version) + " " + std::string(kind) +
                      ", got \"" + std::string(envelope.api_version) + "\" \"" +
                      std::string(envelope.kind) + "\"");
  }
  WireReader in(envelope.raw);
  ReadProto(in, object);
}

template <class T>
struct ListKind;
template <class T>
struct ListKind<ObjectList<T>> {
  using Item = T;
};

}  // namespace proto

// A whole protobuf answer (an object, a Status or an ObjectList<T>).
template <class T>
base::Result<T> DecodeProtobuf(std::string_view bytes) {
  try {
    T object;
    if constexpr (requires { typename proto::ListKind<T>::Item; }) {
      using Item = typename proto::ListKind<T>::Item;
      proto::ReadEnveloped(bytes, Item::kFacts.api_version, std::string(Item::kFacts.kind) + "List",
                           object);
    } else {
      proto::ReadEnveloped(bytes, T::kFacts.api_version, T::kFacts.kind, object);
    }
    return object;
  } catch (const DecodeError& e) {
    return base::Error(e.what()).Wrap("decoding " + codec_internal::KindName<T>::Get() +
                                      " (protobuf)");
  }
}

// A whole answer in either encoding: protobuf when it starts with the
// envelope's "k8s\0" (no JSON document does) and the kind has a decoder,
// else JSON.
template <class T>
base::Result<T> DecodeAnswer(std::string_view bytes) {
  if constexpr (ProtobufKind<T>) {
    if (bytes.starts_with(proto::kEnvelopeMagic)) return DecodeProtobuf<T>(bytes);
  }
  return DecodeObject<T>(bytes);
}

}  // namespace kube
