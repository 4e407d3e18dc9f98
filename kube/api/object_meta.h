// ObjectMeta: the part of metadata.* the sidecars, the controller and their
// caches read or write. Everything else (managedFields, generation, ...) is
// dropped on decode. Missing fields decode to empty values; timestamps are
// MetaTimes (whole seconds, as their JSON form has them).
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kube/api/field.h"
#include "kube/api/interned_string.h"
#include "kube/api/meta_time.h"
#include "kube/api/string_map.h"
#include "kube/api/uid.h"

namespace kube {

// An entry of metadata.ownerReferences, e.g. the VolumeGroupSnapshot a
// member VolumeSnapshot belongs to.
struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  Uid uid;
  std::optional<bool> controller = {};
  std::optional<bool> block_owner_deletion = {};

  bool operator==(const OwnerReference&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("apiVersion", &OwnerReference::api_version, Emit::kAlways),
        Field("kind", &OwnerReference::kind, Emit::kAlways),
        Field("name", &OwnerReference::name, Emit::kAlways),
        Field("uid", &OwnerReference::uid, Emit::kAlways),
        Field("controller", &OwnerReference::controller),
        Field("blockOwnerDeletion", &OwnerReference::block_owner_deletion),
    };
  }
};

struct ObjectMeta {
  std::string name;
  std::string namespace_;  // empty for cluster-scoped kinds
  Uid uid;
  std::string resource_version;
  MetaTime creation_timestamp;
  MetaTime deletion_timestamp;  // empty = not being deleted
  StringMap labels;
  StringMap annotations;
  // Every cached object of a kind carries the same few finalizers: interned,
  // each costs a pointer instead of a string of its own.
  std::vector<InternedString> finalizers;
  std::vector<OwnerReference> owner_references = {};
  // Whether `finalizers` was present and non-null in the JSON. A JSON patch
  // guarding the list must test `null` for an absent list but `[]` for an
  // empty one. Encoding, like Go's omitempty, never writes an empty list.
  bool has_finalizers_field = false;

  bool operator==(const ObjectMeta&) const = default;

  static constexpr auto Fields() {
    return std::tuple{
        Field("name", &ObjectMeta::name),
        Field("namespace", &ObjectMeta::namespace_),
        Field("uid", &ObjectMeta::uid),
        Field("resourceVersion", &ObjectMeta::resource_version),
        Field("creationTimestamp", &ObjectMeta::creation_timestamp),
        Field("deletionTimestamp", &ObjectMeta::deletion_timestamp),
        Field("labels", &ObjectMeta::labels),
        Field("annotations", &ObjectMeta::annotations),
        Field("finalizers", &ObjectMeta::finalizers)
            .RecordingPresenceIn(&ObjectMeta::has_finalizers_field),
        Field("ownerReferences", &ObjectMeta::owner_references),
    };
  }
};

}  // namespace kube
