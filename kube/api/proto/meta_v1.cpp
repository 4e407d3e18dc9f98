#include "kube/api/proto/meta_v1.h"

#include <fmt/format.h>

#include <cstdint>

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

// Days to civil date: H. Hinnant's algorithm, exact over the whole range.
std::string FormatUnixSeconds(int64_t seconds) {
  int64_t days = seconds / 86400;
  int64_t rest = seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year, month, day, rest / 3600,
                     rest / 60 % 60, rest % 60);
}

// Nanos are dropped: the JSON form carries whole seconds only.
void ReadTime(WireReader& in, std::string& text) {
  WireReader time = in.ReadMessage();
  std::optional<int64_t> seconds;
  std::optional<int32_t> nanos;
  ReadFields(time, Bind(1, "seconds", seconds), Bind(2, "nanos", nanos));
  // Go writes the zero time as an empty message; it reads seconds 0 as the epoch.
  if ((!seconds && !nanos) || (seconds == kFirstSecond && nanos.value_or(0) == 0)) {
    text.clear();
    return;
  }
  int64_t s = seconds.value_or(0);
  if (s < kFirstSecond || s > kLastSecond) {
    throw DecodeError("time " + std::to_string(s) + " s is outside years 1-9999");
  }
  text = FormatUnixSeconds(s);
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
             Bind(8, "creationTimestamp", meta.creation_timestamp, proto::ReadTime),
             Bind(9, "deletionTimestamp", meta.deletion_timestamp, proto::ReadTime),
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
