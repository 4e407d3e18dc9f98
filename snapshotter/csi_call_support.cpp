#include "snapshotter/csi_call_support.h"

namespace snapshotter {

std::optional<int64_t> UnixNanos(const google::protobuf::Timestamp& time) {
  int64_t nanos;
  if (__builtin_mul_overflow(time.seconds(), int64_t{1'000'000'000}, &nanos) ||
      __builtin_add_overflow(nanos, int64_t{time.nanos()}, &nanos)) {
    return std::nullopt;
  }
  return nanos;
}

}  // namespace snapshotter
