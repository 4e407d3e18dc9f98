// PersistentVolumeClaim (core/v1, namespaced, status subresource), reduced to
// what snapshotting, provisioning and resizing read: the PV it is bound to
// (spec.volumeName with status.phase "Bound"), its class, size, access and
// volume modes, the data source it is made from (dataSource, or
// dataSourceRef which may name another namespace), whether it selects
// volumes by label, and its VolumeAttributesClass (docs/snapshots.md §4,
// docs/provisioner.md §3); and the status an expansion or a modification
// records (docs/resizer.md §3). One type for every sidecar, so a process
// running several of them (csi-sidecars) watches and caches claims once. The
// resize status costs a cached claim little: its texts repeat across claims
// (sizes, states, class names) and are interned, the rare modification
// status and the rarely set data sources and selector live on the heap.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
#include "kube/api/heap_optional.h"
#include "kube/api/interned_string.h"
#include "kube/api/kind.h"
#include "kube/api/label_selector.h"
#include "kube/api/object_meta.h"

namespace kube {

// A TypedLocalObjectReference: apiGroup is unset for the core group, e.g.
// {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "snap-1"}.
struct TypedLocalObjectReference {
  std::optional<std::string> api_group;
  std::string kind;
  std::string name;

  bool operator==(const TypedLocalObjectReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("apiGroup", &TypedLocalObjectReference::api_group),
        Field("kind", &TypedLocalObjectReference::kind, Emit::kAlways),
        Field("name", &TypedLocalObjectReference::name, Emit::kAlways),
    };
  }
};

// A TypedObjectReference: dataSourceRef, which may name another namespace.
struct TypedObjectReference {
  std::optional<std::string> api_group;
  std::string kind;
  std::string name;
  std::optional<std::string> namespace_;

  bool operator==(const TypedObjectReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("apiGroup", &TypedObjectReference::api_group),
        Field("kind", &TypedObjectReference::kind, Emit::kAlways),
        Field("name", &TypedObjectReference::name, Emit::kAlways),
        Field("namespace", &TypedObjectReference::namespace_),
    };
  }
};

struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::string requests_storage;  // a resource.Quantity, e.g. "1Gi"
  std::string volume_name;       // the bound PV; "" while unbound
  // Unset and "" differ: unset takes the default class, "" asks for none.
  std::optional<std::string> storage_class_name;
  std::string volume_mode;  // "" = Filesystem
  // Rarely set: on the heap, so a claim without them costs a pointer each.
  HeapOptional<TypedLocalObjectReference> data_source;
  HeapOptional<TypedObjectReference> data_source_ref = {};
  HeapOptional<LabelSelector> selector = {};
  std::optional<std::string> volume_attributes_class_name = {};

  bool operator==(const PersistentVolumeClaimSpec&) const = default;

  static constexpr auto Fields() {
    using S = PersistentVolumeClaimSpec;
    return std::tuple{
        Field("accessModes", &S::access_modes),
        Field("resources.requests.storage", &S::requests_storage),
        Field("volumeName", &S::volume_name),
        Field("storageClassName", &S::storage_class_name),
        Field("volumeMode", &S::volume_mode),
        Field("dataSource", &S::data_source),
        Field("dataSourceRef", &S::data_source_ref),
        Field("selector", &S::selector),
        Field("volumeAttributesClassName", &S::volume_attributes_class_name),
    };
  }
};

struct PersistentVolumeClaimCondition {
  std::string type;
  std::string status;  // "True", "False" or "Unknown"
  std::string reason = {};
  std::string last_transition_time = {};

  bool operator==(const PersistentVolumeClaimCondition&) const = default;

  static constexpr auto Fields() {
    using C = PersistentVolumeClaimCondition;
    return std::tuple{Field("type", &C::type), Field("status", &C::status),
                      Field("reason", &C::reason),
                      Field("lastTransitionTime", &C::last_transition_time)};
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
        Field("targetVolumeAttributesClassName", &M::target_volume_attributes_class_name),
        Field("status", &M::status)};
  }
};

struct PersistentVolumeClaimStatus {
  std::string phase;  // Pending, Bound or Lost
  InternedString capacity_storage;
  InternedString allocated_storage;         // allocatedResources[storage]; "" = unset
  InternedString allocated_storage_status;  // allocatedResourceStatuses[storage]
  std::vector<PersistentVolumeClaimCondition> conditions = {};
  InternedString current_volume_attributes_class_name = {};
  HeapOptional<ModifyVolumeStatus> modify_volume_status = {};

  bool operator==(const PersistentVolumeClaimStatus&) const = default;

  static constexpr auto Fields() {
    using S = PersistentVolumeClaimStatus;
    return std::tuple{
        Field("phase", &S::phase),
        Field("capacity.storage", &S::capacity_storage),
        Field("allocatedResources.storage", &S::allocated_storage),
        Field("allocatedResourceStatuses.storage", &S::allocated_storage_status),
        Field("conditions", &S::conditions),
        Field("currentVolumeAttributesClassName", &S::current_volume_attributes_class_name),
        Field("modifyVolumeStatus", &S::modify_volume_status),
    };
  }
};

struct PersistentVolumeClaim {
  static constexpr KindFacts kFacts{.api_version = "v1",
                                    .kind = "PersistentVolumeClaim",
                                    .plural = "persistentvolumeclaims",
                                    .scope = Scope::kNamespaced,
                                    .status_subresource = true};

  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;
  PersistentVolumeClaimStatus status;

  bool operator==(const PersistentVolumeClaim&) const = default;

  // Whether a condition of `type` is True.
  bool HasTrueCondition(std::string_view type) const;
  // The condition of `type`, or null.
  const PersistentVolumeClaimCondition* FindCondition(std::string_view type) const;

  static constexpr auto Fields() {
    return std::tuple{
        Field("metadata", &PersistentVolumeClaim::metadata),
        Field("spec", &PersistentVolumeClaim::spec),
        Field("status", &PersistentVolumeClaim::status, Emit::kOmitZero),
    };
  }
};

KUBE_EXTERN_CODEC(PersistentVolumeClaim);
KUBE_EXTERN_CODEC(ObjectList<PersistentVolumeClaim>);

}  // namespace kube
