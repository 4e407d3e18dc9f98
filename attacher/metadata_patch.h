// Patches of metadata.finalizers and metadata.annotations, computed from a
// cached copy of the object. Additions and removals are JSON Patches guarded
// by `test` ops, so a stale cache makes the API server refuse the patch
// (422, retried with backoff) instead of dropping another controller's
// finalizer (docs/attacher.md §5.3 step 2, §5.5, §7 row 3). Detach keeps
// upstream's merge patch for its VA finalizer removal (§5.4).
#pragma once

#include <string>
#include <string_view>

#include "kube/api/json_patch.h"
#include "kube/api/object_meta.h"

namespace attacher {

bool HasFinalizer(const kube::ObjectMeta& meta, std::string_view finalizer);

// Appends the ops adding `finalizer`, which `meta` lacks: absent list ->
// test null + add [f]; empty list -> test [] + replace [f]; else add at "-".
void AddFinalizerOps(const kube::ObjectMeta& meta, std::string_view finalizer,
                     kube::JsonPatch& patch);

// Appends the ops setting annotation `key` to `value`: no annotations ->
// test null + add the whole map; key absent -> add; key present -> replace.
void SetAnnotationOps(const kube::ObjectMeta& meta, std::string_view key, std::string_view value,
                      kube::JsonPatch& patch);

// test + remove of `finalizer` at its index; an empty patch when it is absent.
kube::JsonPatch RemoveFinalizerPatch(const kube::ObjectMeta& meta, std::string_view finalizer);

// The merge patch dropping `finalizer` from the list, as upstream computes it:
// the remaining list, or `"finalizers":null` when none remains.
std::string RemoveFinalizerMergePatch(const kube::ObjectMeta& meta, std::string_view finalizer);

}  // namespace attacher
