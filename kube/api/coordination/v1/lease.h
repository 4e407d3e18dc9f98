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
#include <tuple>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace kube {

struct LeaseSpec {
  std::string holder_identity;  // empty = released (or never held)
  std::optional<int32_t> lease_duration_seconds;
  std::string acquire_time;
  std::string renew_time;
  int32_t lease_transitions = 0;

  bool operator==(const LeaseSpec&) const = default;

  // holderIdentity and leaseTransitions are always written, as client-go's
  // leader election does: an empty holder is how a released lease looks.
  static constexpr auto Fields() {
    return std::tuple{
        Field("holderIdentity", &LeaseSpec::holder_identity, Emit::kAlways),
        Field("leaseDurationSeconds", &LeaseSpec::lease_duration_seconds),
        Field("acquireTime", &LeaseSpec::acquire_time),
        Field("renewTime", &LeaseSpec::renew_time),
        Field("leaseTransitions", &LeaseSpec::lease_transitions, Emit::kAlways),
    };
  }
};

struct Lease {
  static constexpr KindFacts kFacts{.api_version = "coordination.k8s.io/v1",
                                    .kind = "Lease",
                                    .plural = "leases",
                                    .scope = Scope::kNamespaced};

  ObjectMeta metadata;
  LeaseSpec spec;

  bool operator==(const Lease&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &Lease::metadata),
        Field("spec", &Lease::spec),
    };
  }
};

KUBE_EXTERN_CODEC(Lease);
KUBE_EXTERN_CODEC(ObjectList<Lease>);

}  // namespace kube
