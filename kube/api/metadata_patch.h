// JSON Patches of metadata.finalizers and metadata.annotations, computed from
// a cached copy of the object, for custom resources: they take no strategic
// merge patch, which built-in kinds are written with instead
// (kube/api/strategic_metadata_patch.h). The `test` ops guard only what the
// patch depends on, so another writer's unrelated change (an annotation of
// its own, say) never makes the API server refuse them, while a change they
// do depend on does (422) instead of being overwritten: no other writer's
// finalizer or annotation is ever dropped, and our finalizer is never added
// twice. A refused patch can be recomputed from a fresh copy
// (kube/client/patch_from_cache.h).
#pragma once

#include <string>
#include <string_view>

#include "kube/api/json_patch.h"
#include "kube/api/object_meta.h"

namespace kube {

bool HasFinalizer(const ObjectMeta& meta, std::string_view finalizer);

// Appends the ops adding `finalizer`; none when `meta` has it. An absent list
// -> test null + add [f]; a list -> test the list as cached + add at "-".
// JSON Patch cannot test that one element is missing, and the cached list is
// what says ours is: a list that changed since (above all one holding ours,
// added through a copy the cache has not seen yet) is refused rather than
// given a second copy.
void AddFinalizerOps(const ObjectMeta& meta, std::string_view finalizer, JsonPatch& patch);

// Appends the ops setting annotation `key` to `value`; none when `meta` has
// that already. With annotations: add of the key alone, untested (an add
// replaces a member that exists), so other keys neither block nor get lost.
// Without any: test null + add the whole map, the one shape another writer's
// concurrent first annotation makes the server refuse.
void SetAnnotationOps(const ObjectMeta& meta, std::string_view key, std::string_view value,
                      JsonPatch& patch);

// test + remove of annotation `key` with the value `meta` has; an empty
// patch when it is absent.
JsonPatch RemoveAnnotationPatch(const ObjectMeta& meta, std::string_view key);

// test + remove of `finalizer` at its index; an empty patch when it is absent.
JsonPatch RemoveFinalizerPatch(const ObjectMeta& meta, std::string_view finalizer);

// Appends those ops for `finalizer` to `patch` and takes it out of `meta`, so
// the ops of a next finalizer are computed on the list as these leave it:
// several finalizers go in one patch. Nothing when `meta` lacks it.
void RemoveFinalizerOps(ObjectMeta& meta, std::string_view finalizer, JsonPatch& patch);

}  // namespace kube
