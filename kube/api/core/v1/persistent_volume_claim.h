// PersistentVolumeClaim (core/v1, namespaced, status subresource), reduced to
// what snapshotting and provisioning read: the PV it is bound to
// (spec.volumeName with status.phase "Bound"), its class, size, access and
// volume modes, the data source it is made from (dataSource, or
// dataSourceRef which may name another namespace), whether it selects
// volumes by label, and its VolumeAttributesClass (docs/snapshots.md §4,
// docs/provisioner.md §3).
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kube/api/codec_extern.h"
#include "kube/api/field.h"
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
  std::optional<TypedLocalObjectReference> data_source;
  std::optional<TypedObjectReference> data_source_ref = {};
  std::optional<LabelSelector> selector = {};
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

struct PersistentVolumeClaimStatus {
  std::string phase;  // Pending, Bound or Lost

  bool operator==(const PersistentVolumeClaimStatus&) const = default;

  static constexpr auto Fields() {
    return std::tuple{Field("phase", &PersistentVolumeClaimStatus::phase)};
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
