// UpdateNeedsSync: the rule every controller here applies to an informer
// update before it queues work. A controller's own writes come back as
// updates; syncing on them would retry at once and bypass the error backoff.
// So an update counts only if the object changed beyond the fields the
// controller writes itself. An update with an unchanged resourceVersion is a
// resync (or a relist that found no change) and always counts.
//
// `restore_own_writes(old_object, masked)` gives `masked`, a copy of the new
// object, the old values of the controller's own fields; the update counts
// when what remains differs from the old object. The resourceVersion is
// restored here; managedFields are never decoded (ObjectMeta).
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kube/api/object_meta.h"

namespace kube {

template <class T, class RestoreOwnWrites>
bool UpdateNeedsSync(const T& old_object, const T& new_object,
                     RestoreOwnWrites&& restore_own_writes) {
  if (old_object.metadata.resource_version == new_object.metadata.resource_version) return true;
  T masked = new_object;
  masked.metadata.resource_version = old_object.metadata.resource_version;
  restore_own_writes(old_object, masked);
  return !(masked == old_object);
}

// For a restore_own_writes: gives `to` the value `from` has for annotation
// `key`, or removes the key when `from` has none.
inline void RestoreAnnotation(const ObjectMeta& from, std::string_view key, ObjectMeta& to) {
  if (auto it = from.annotations.find(key); it != from.annotations.end()) {
    to.annotations[it->first] = it->second;
  } else {
    to.annotations.erase(key);
  }
}

// For a restore_own_writes: gives `to` the finalizer list `from` has when
// the two lists differ only in `ignored` finalizers (in either direction),
// so adding or removing those alone is no change.
inline void RestoreFinalizersApartFrom(const ObjectMeta& from,
                                       std::span<const std::string_view> ignored, ObjectMeta& to) {
  auto without_ignored = [&](const std::vector<InternedString>& finalizers) {
    std::vector<InternedString> kept;
    for (const InternedString& finalizer : finalizers) {
      if (std::find(ignored.begin(), ignored.end(), finalizer) == ignored.end()) {
        kept.push_back(finalizer);
      }
    }
    return kept;
  };
  if (without_ignored(from.finalizers) != without_ignored(to.finalizers)) return;
  to.finalizers = from.finalizers;
  to.has_finalizers_field = from.has_finalizers_field;
}

}  // namespace kube
