// Lease (coordination.k8s.io/v1): the leader-election lock. Leader election
// reads it, then PUTs it back with metadata.resource_version as the
// optimistic-concurrency guard, so the encoding carries everything such an
// update must keep (metadata name, namespace, resourceVersion, labels,
// annotations, finalizers; the spec). Times are MicroTime strings,
// "2006-01-02T15:04:05.000000Z".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kube/api/object_meta.h"

namespace kube {

struct LeaseSpec {
  std::string holder_identity;  // empty = released (or never held)
  std::optional<int32_t> lease_duration_seconds;
  std::string acquire_time;
  std::string renew_time;
  int32_t lease_transitions = 0;

  bool operator==(const LeaseSpec&) const = default;
};

struct Lease {
  static constexpr std::string_view kKind = "Lease";
  static constexpr std::string_view kApiVersion = "coordination.k8s.io/v1";

  ObjectMeta metadata;
  LeaseSpec spec;

  bool operator==(const Lease&) const = default;
};

}  // namespace kube
