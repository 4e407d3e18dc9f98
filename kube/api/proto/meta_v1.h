// Protobuf decoders of meta/v1 and runtime messages (docs/design.md §4.1):
// ObjectMeta, ListMeta, Status, metav1.Time as the RFC 3339 text the JSON
// carries, and the envelope
// ("k8s\0" + runtime.Unknown) around a top-level object. Field numbers are
// those of k8s.io/apimachinery's generated.proto.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/decode_error.h"
#include "kube/api/object_list.h"
#include "kube/api/object_meta.h"
#include "kube/api/proto/wire_reader.h"
#include "kube/api/status.h"

namespace kube {

void ReadProto(proto::WireReader& in, ObjectMeta& meta);
void ReadProto(proto::WireReader& in, ListMeta& meta);
void ReadProto(proto::WireReader& in, Status& status);

namespace proto {

// A metav1.Time {int64 seconds = 1, int32 nanos = 2} as the JSON writes it:
// RFC 3339 in UTC to the second, "" for the zero time (JSON null). A time
// outside years 1-9999 throws. The signature of a Bind reader (fields.h).
void ReadTime(WireReader& in, std::string& text);
// The same into a MetaTime (empty for the zero time).
void ReadMetaTime(WireReader& in, MetaTime& time);

// The object inside a protobuf answer or watch event: "k8s\0", then a
// runtime.Unknown {TypeMeta typeMeta = 1 {apiVersion = 1, kind = 2}, bytes
// raw = 2, string contentEncoding = 3, string contentType = 4}.
struct Envelope {
  std::string_view api_version;
  std::string_view kind;
  std::string_view raw;  // the object's own message
};
inline constexpr std::string_view kEnvelopeMagic{"k8s\0", 4};
// Throws DecodeError when the magic is missing, the bytes do not parse or
// the content is encoded (contentEncoding, e.g. gzip).
Envelope OpenEnvelope(std::string_view bytes);

}  // namespace proto
}  // namespace kube
