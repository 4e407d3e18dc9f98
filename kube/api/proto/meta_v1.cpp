#include "kube/api/proto/meta_v1.h"

#include <fmt/format.h>

#include <cstdint>

#include "kube/api/meta_time.h"
#include "kube/api/proto/fields.h"

namespace kube {
namespace proto {
namespace {

// The range metav1.Time's JSON form covers: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
constexpr int64_t kFirstSecond = -62135596800;
constexpr int64_t kLastSecond = 253402300799;

}  // namespace

void ReadValue(WireReader& in, StringMap& out) {
  WireReader entry = in.ReadMessage();
  std::string_view key, value;
  ReadFields(entry, Bind(1, "key", key), Bind(2, "value", value));
  out[key] = value;
}

namespace {

// A metav1.Time message's whole seconds; nullopt for the zero time. Nanos
// are dropped: the JSON form carries whole seconds only.
std::optional<int64_t> ReadUnixSeconds(WireReader& in) {
  WireReader time = in.ReadMessage();
  std::optional<int64_t> seconds;
  std::optional<int32_t> nanos;
  ReadFields(time, Bind(1, "seconds", seconds), Bind(2, "nanos", nanos));
  // Go writes the zero time as an empty message; it reads seconds 0 as the epoch.
  if ((!seconds && !nanos) || (seconds == kFirstSecond && nanos.value_or(0) == 0)) {
    return std::nullopt;
  }
  int64_t s = seconds.value_or(0);
  if (s < kFirstSecond || s > kLastSecond) {
    throw DecodeError("time " + std::to_string(s) + " s is outside years 1-9999");
  }
  return s;
}

}  // namespace

void ReadTime(WireReader& in, std::string& text) {
  std::optional<int64_t> seconds = ReadUnixSeconds(in);
  text = seconds ? FormatUnixSeconds(*seconds) : std::string();
}

void ReadMetaTime(WireReader& in, MetaTime& time) {
  std::optional<int64_t> seconds = ReadUnixSeconds(in);
  time = seconds ? MetaTime::FromUnixSeconds(*seconds) : MetaTime();
}

Envelope OpenEnvelope(std::string_view bytes) {
  if (!bytes.starts_with(kEnvelopeMagic)) {
    throw DecodeError("not a Kubernetes protobuf object (no \"k8s\\0\" prefix)");
  }
  WireReader in(bytes.substr(kEnvelopeMagic.size()));
  Envelope envelope;
  std::string_view content_encoding;
  auto type_meta = [&](WireReader& field, Envelope& out) {
    WireReader message = field.ReadMessage();
    ReadFields(message, Bind(1, "apiVersion", out.api_version), Bind(2, "kind", out.kind));
  };
  ReadFields(in, Bind(1, "typeMeta", envelope, type_meta), Bind(2, "raw", envelope.raw),
             Bind(3, "contentEncoding", content_encoding));
  if (!content_encoding.empty()) {
    throw DecodeError("encoded content (contentEncoding) is not supported");
  }
  return envelope;
}

}  // namespace proto

using proto::Bind;
using proto::ReadFields;

// Read only inside this file; static, it stays visible to argument-dependent
// lookup from fields.h.
static void ReadProto(proto::WireReader& in, OwnerReference& ref) {
  ReadFields(in, Bind(1, "kind", ref.kind), Bind(3, "name", ref.name), Bind(4, "uid", ref.uid),
             Bind(5, "apiVersion", ref.api_version), Bind(6, "controller", ref.controller),
             Bind(7, "blockOwnerDeletion", ref.block_owner_deletion));
}

void ReadProto(proto::WireReader& in, ObjectMeta& meta) {
  auto finalizer = [](proto::WireReader& field, ObjectMeta& out) {
    out.finalizers.emplace_back(field.ReadBytes());
    out.has_finalizers_field = true;
  };
  ReadFields(in, Bind(1, "name", meta.name), Bind(3, "namespace", meta.namespace_),
             Bind(5, "uid", meta.uid), Bind(6, "resourceVersion", meta.resource_version),
             Bind(8, "creationTimestamp", meta.creation_timestamp, proto::ReadMetaTime),
             Bind(9, "deletionTimestamp", meta.deletion_timestamp, proto::ReadMetaTime),
             Bind(11, "labels", meta.labels), Bind(12, "annotations", meta.annotations),
             Bind(13, "ownerReferences", meta.owner_references),
             Bind(14, "finalizers", meta, finalizer));
}

void ReadProto(proto::WireReader& in, ListMeta& meta) {
  ReadFields(in, Bind(2, "resourceVersion", meta.resource_version),
             Bind(3, "continue", meta.continue_token),
             Bind(4, "remainingItemCount", meta.remaining_item_count));
}

void ReadProto(proto::WireReader& in, Status& status) {
  ReadFields(in, Bind(3, "message", status.message), Bind(4, "reason", status.reason),
             Bind(6, "code", status.code));
}

}  // namespace kube
