// The class a dynamic VolumeSnapshot or VolumeGroupSnapshot without one gets
// (docs/snapshots.md §4.3 step 0, §4.7): among the classes, the only one
// marked as its kind's default (annotation value exactly "true") for the
// driver of the source volume(s). Pure; the caller patches the snapshot and
// emits SetDefault(Group)SnapshotClassFailed on an error, whose texts are
// upstream's.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "kube/api/groupsnapshot/v1/volume_group_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"

namespace snapshot_controller {

using SnapshotClassPtr = std::shared_ptr<const kube::VolumeSnapshotClass>;
using GroupSnapshotClassPtr = std::shared_ptr<const kube::VolumeGroupSnapshotClass>;

// The one class of `driver` whose `annotation` is "true"; an error when there
// is none ("cannot find default <what> class") or several ("<n> default
// snapshot classes were found", for both kinds, as upstream).
template <class Class>
base::Result<std::shared_ptr<const Class>> DefaultClassFor(
    const std::vector<std::shared_ptr<const Class>>& classes, std::string_view driver,
    std::string_view annotation, std::string_view what) {
  std::vector<std::shared_ptr<const Class>> defaults;
  for (const auto& candidate : classes) {
    const kube::StringMap& annotations = candidate->metadata.annotations;
    auto is_default = annotations.find(annotation);
    if (is_default != annotations.end() && is_default->second == "true" &&
        candidate->driver == driver) {
      defaults.push_back(candidate);
    }
  }
  if (defaults.empty()) return base::Error("cannot find default " + std::string(what) + " class");
  if (defaults.size() > 1) {
    return base::Error(std::to_string(defaults.size()) + " default snapshot classes were found");
  }
  return defaults.front();
}

inline base::Result<SnapshotClassPtr> DefaultSnapshotClassFor(
    const std::vector<SnapshotClassPtr>& classes, std::string_view driver) {
  return DefaultClassFor(classes, driver, kube::kIsDefaultSnapshotClassAnnotation, "snapshot");
}

inline base::Result<GroupSnapshotClassPtr> DefaultGroupSnapshotClassFor(
    const std::vector<GroupSnapshotClassPtr>& classes, std::string_view driver) {
  return DefaultClassFor(classes, driver, kube::kIsDefaultGroupSnapshotClassAnnotation,
                         "group snapshot");
}

}  // namespace snapshot_controller
