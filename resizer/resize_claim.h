// ResizeClaim: the resizer's own view of a PersistentVolumeClaim
// (docs/resizer.md §3): only what choosing and recording an expansion reads -
// the requested size and bound PV, the phase, the capacity, the size and
// state allocated by the last expansion, and the types and states of the
// conditions. A kind of its own rather than fields added to
// kube::PersistentVolumeClaim, so the other sidecars' claim caches do not
// carry status they never read. Its informer is the resizer's alone.
#pragma once

#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/field.h"
#include "kube/api/kind.h"
#include "kube/api/object_meta.h"

namespace resizer {

struct ClaimCondition {
  std::string type;
  std::string status;  // "True", "False" or "Unknown"

  bool operator==(const ClaimCondition&) const = default;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("type", &ClaimCondition::type),
                      kube::Field("status", &ClaimCondition::status)};
  }
};

struct ResizeClaimSpec {
  std::string requests_storage;  // a resource.Quantity, e.g. "2Gi"
  std::string volume_name;

  bool operator==(const ResizeClaimSpec&) const = default;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("resources.requests.storage", &ResizeClaimSpec::requests_storage),
                      kube::Field("volumeName", &ResizeClaimSpec::volume_name)};
  }
};

struct ResizeClaimStatus {
  std::string phase;
  std::string capacity_storage;
  std::string allocated_storage;         // allocatedResources[storage]; "" = unset
  std::string allocated_storage_status;  // allocatedResourceStatuses[storage]
  std::vector<ClaimCondition> conditions;

  bool operator==(const ResizeClaimStatus&) const = default;

  static constexpr auto Fields() {
    using S = ResizeClaimStatus;
    return std::tuple{
        kube::Field("phase", &S::phase),
        kube::Field("capacity.storage", &S::capacity_storage),
        kube::Field("allocatedResources.storage", &S::allocated_storage),
        kube::Field("allocatedResourceStatuses.storage", &S::allocated_storage_status),
        kube::Field("conditions", &S::conditions),
    };
  }
};

struct ResizeClaim {
  static constexpr kube::KindFacts kFacts{.api_version = "v1",
                                          .kind = "PersistentVolumeClaim",
                                          .plural = "persistentvolumeclaims",
                                          .scope = kube::Scope::kNamespaced,
                                          .status_subresource = true};

  kube::ObjectMeta metadata;
  ResizeClaimSpec spec;
  ResizeClaimStatus status;

  bool operator==(const ResizeClaim&) const = default;

  // Whether a condition of `type` is True.
  bool HasTrueCondition(std::string_view type) const;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("metadata", &ResizeClaim::metadata),
                      kube::Field("spec", &ResizeClaim::spec),
                      kube::Field("status", &ResizeClaim::status, kube::Emit::kOmitZero)};
  }
};

}  // namespace resizer
