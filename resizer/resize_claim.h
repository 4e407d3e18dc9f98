// ResizeClaim: the resizer's own view of a PersistentVolumeClaim
// (docs/resizer.md §3), shared by its resize and modify controllers: only
// what choosing and recording an expansion or a modification reads - the
// requested size, class and bound PV, the phase, the capacity, the size and
// state allocated by the last expansion, the current class and the state of
// the last modification, and the conditions' types, states, reasons and
// transition times. A kind of its own rather than fields added to
// kube::PersistentVolumeClaim, so the other sidecars' claim caches do not
// carry status they never read. Its informer is the resizer's alone.
#pragma once

#include <optional>
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
  std::string reason = {};
  std::string last_transition_time = {};

  bool operator==(const ClaimCondition&) const = default;

  static constexpr auto Fields() {
    using C = ClaimCondition;
    return std::tuple{kube::Field("type", &C::type), kube::Field("status", &C::status),
                      kube::Field("reason", &C::reason),
                      kube::Field("lastTransitionTime", &C::last_transition_time)};
  }
};

struct ResizeClaimSpec {
  std::string requests_storage;  // a resource.Quantity, e.g. "2Gi"
  std::string volume_name;
  std::string volume_attributes_class_name;  // "" = none asked for

  bool operator==(const ResizeClaimSpec&) const = default;

  static constexpr auto Fields() {
    using S = ResizeClaimSpec;
    return std::tuple{kube::Field("resources.requests.storage", &S::requests_storage),
                      kube::Field("volumeName", &S::volume_name),
                      kube::Field("volumeAttributesClassName", &S::volume_attributes_class_name)};
  }
};

// status.modifyVolumeStatus: set while a modification is not finished.
struct ModifyVolumeStatus {
  std::string target_volume_attributes_class_name;
  std::string status;  // "Pending", "InProgress" or "Infeasible"

  bool operator==(const ModifyVolumeStatus&) const = default;

  static constexpr auto Fields() {
    using M = ModifyVolumeStatus;
    return std::tuple{
        kube::Field("targetVolumeAttributesClassName", &M::target_volume_attributes_class_name),
        kube::Field("status", &M::status)};
  }
};

struct ResizeClaimStatus {
  std::string phase;
  std::string capacity_storage;
  std::string allocated_storage;         // allocatedResources[storage]; "" = unset
  std::string allocated_storage_status;  // allocatedResourceStatuses[storage]
  std::vector<ClaimCondition> conditions;
  std::string current_volume_attributes_class_name;
  std::optional<ModifyVolumeStatus> modify_volume_status;

  bool operator==(const ResizeClaimStatus&) const = default;

  static constexpr auto Fields() {
    using S = ResizeClaimStatus;
    return std::tuple{
        kube::Field("phase", &S::phase),
        kube::Field("capacity.storage", &S::capacity_storage),
        kube::Field("allocatedResources.storage", &S::allocated_storage),
        kube::Field("allocatedResourceStatuses.storage", &S::allocated_storage_status),
        kube::Field("conditions", &S::conditions),
        kube::Field("currentVolumeAttributesClassName", &S::current_volume_attributes_class_name),
        kube::Field("modifyVolumeStatus", &S::modify_volume_status),
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
  // The condition of `type`, or null.
  const ClaimCondition* FindCondition(std::string_view type) const;

  static constexpr auto Fields() {
    return std::tuple{kube::Field("metadata", &ResizeClaim::metadata),
                      kube::Field("spec", &ResizeClaim::spec),
                      kube::Field("status", &ResizeClaim::status, kube::Emit::kOmitZero)};
  }
};

}  // namespace resizer
