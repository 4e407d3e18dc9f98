// Patches of metadata.finalizers and metadata.annotations of any kind,
// computed from a cached copy of the object. Additions and removals are JSON
// Patches guarded by `test` ops, so a stale cache makes the API server refuse
// the patch (422, for the caller to retry) instead of dropping another
// controller's finalizer or annotation. RemoveFinalizerMergePatch is the
// unguarded merge patch client-go users compute.
#pragma once

#include <string>
#include <string_view>

#include "kube/api/json_patch.h"
#include "kube/api/object_meta.h"

namespace kube {

bool HasFinalizer(const ObjectMeta& meta, std::string_view finalizer);

// Appends the ops adding `finalizer`, which `meta` lacks: absent list ->
// test null + add [f]; empty list -> test [] + replace [f]; else add at "-".
void AddFinalizerOps(const ObjectMeta& meta, std::string_view finalizer, JsonPatch& patch);

// Appends the ops setting annotation `key` to `value`: no annotations ->
// test null + add the whole map; key absent -> add; key present -> replace.
void SetAnnotationOps(const ObjectMeta& meta, std::string_view key, std::string_view value,
                      JsonPatch& patch);

// test + remove of annotation `key` with the value `meta` has; an empty
// patch when it is absent.
JsonPatch RemoveAnnotationPatch(const ObjectMeta& meta, std::string_view key);

// test + remove of `finalizer` at its index; an empty patch when it is absent.
JsonPatch RemoveFinalizerPatch(const ObjectMeta& meta, std::string_view finalizer);

// The merge patch dropping `finalizer` from the list: the remaining list, or
// `"finalizers":null` when none remains.
std::string RemoveFinalizerMergePatch(const ObjectMeta& meta, std::string_view finalizer);

}  // namespace kube
