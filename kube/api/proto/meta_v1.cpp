#include "kube/api/proto/meta_v1.h"

#include <fmt/format.h>

#include <cstdint>

namespace kube {
namespace proto {
namespace {

// The range metav1.Time's JSON form covers: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
constexpr int64_t kFirstSecond = -62135596800;
constexpr int64_t kLastSecond = 253402300799;

void ReadOwnerReference(WireReader& in, OwnerReference& ref) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, ref.kind);
        break;
      case 3:
        ReadString(in, ref.name);
        break;
      case 4:
        ReadString(in, ref.uid);
        break;
      case 5:
        ReadString(in, ref.api_version);
        break;
      case 6:
        ref.controller = in.ReadBool();
        break;
      case 7:
        ref.block_owner_deletion = in.ReadBool();
        break;
      default:
        in.Skip();
    }
  }
}

void ReadTypeMeta(WireReader& in, Envelope& envelope) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        envelope.api_version = in.ReadBytes();
        break;
      case 2:
        envelope.kind = in.ReadBytes();
        break;
      default:
        in.Skip();
    }
  }
}

}  // namespace

void ReadStringMapEntry(WireReader& in, StringMap& map) {
  WireReader entry = in.ReadMessage();
  std::string_view key, value;
  while (entry.Next()) {
    switch (entry.field()) {
      case 1:
        key = entry.ReadBytes();
        break;
      case 2:
        value = entry.ReadBytes();
        break;
      default:
        entry.Skip();
    }
  }
  map[key] = value;
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
std::string ReadTime(WireReader& in) {
  WireReader time = in.ReadMessage();
  int64_t seconds = 0;
  int32_t nanos = 0;
  bool any = false;
  while (time.Next()) {
    switch (time.field()) {
      case 1:
        seconds = time.ReadInt64();
        any = true;
        break;
      case 2:
        nanos = time.ReadInt32();
        any = true;
        break;
      default:
        time.Skip();
    }
  }
  // Go writes the zero time as an empty message; it reads seconds 0 as the epoch.
  if (!any || (seconds == kFirstSecond && nanos == 0)) return {};
  if (seconds < kFirstSecond || seconds > kLastSecond) {
    throw DecodeError("time " + std::to_string(seconds) + " s is outside years 1-9999");
  }
  return FormatUnixSeconds(seconds);
}

Envelope OpenEnvelope(std::string_view bytes) {
  if (!bytes.starts_with(kEnvelopeMagic)) {
    throw DecodeError("not a Kubernetes protobuf object (no \"k8s\\0\" prefix)");
  }
  WireReader in(bytes.substr(kEnvelopeMagic.size()));
  Envelope envelope;
  while (in.Next()) {
    switch (in.field()) {
      case 1: {
        WireReader type_meta = in.ReadMessage();
        ReadTypeMeta(type_meta, envelope);
        break;
      }
      case 2:
        envelope.raw = in.ReadBytes();
        break;
      case 3:
        if (!in.ReadBytes().empty())
          throw DecodeError("encoded content (contentEncoding) is not supported");
        break;
      default:
        in.Skip();
    }
  }
  return envelope;
}

}  // namespace proto

using proto::ReadString;

void ReadProto(proto::WireReader& in, ObjectMeta& meta) {
  while (in.Next()) {
    switch (in.field()) {
      case 1:
        ReadString(in, meta.name);
        break;
      case 3:
        ReadString(in, meta.namespace_);
        break;
      case 5:
        ReadString(in, meta.uid);
        break;
      case 6:
        ReadString(in, meta.resource_version);
        break;
      case 8:
        WithParent("creationTimestamp", [&] { meta.creation_timestamp = proto::ReadTime(in); });
        break;
      case 9:
        WithParent("deletionTimestamp", [&] { meta.deletion_timestamp = proto::ReadTime(in); });
        break;
      case 11:
        proto::ReadStringMapEntry(in, meta.labels);
        break;
      case 12:
        proto::ReadStringMapEntry(in, meta.annotations);
        break;
      case 13: {
        proto::WireReader ref = in.ReadMessage();
        proto::ReadOwnerReference(ref, meta.owner_references.emplace_back());
        break;
      }
      case 14:
        meta.finalizers.emplace_back(in.ReadBytes());
        meta.has_finalizers_field = true;
        break;
      default:
        in.Skip();
    }
  }
}

void ReadProto(proto::WireReader& in, ListMeta& meta) {
  while (in.Next()) {
    switch (in.field()) {
      case 2:
        ReadString(in, meta.resource_version);
        break;
      case 3:
        ReadString(in, meta.continue_token);
        break;
      case 4:
        meta.remaining_item_count = in.ReadInt64();
        break;
      default:
        in.Skip();
    }
  }
}

void ReadProto(proto::WireReader& in, Status& status) {
  while (in.Next()) {
    switch (in.field()) {
      case 3:
        ReadString(in, status.message);
        break;
      case 4:
        ReadString(in, status.reason);
        break;
      case 6:
        status.code = in.ReadInt32();
        break;
      default:
        in.Skip();
    }
  }
}

}  // namespace kube
