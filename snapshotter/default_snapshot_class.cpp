#include "snapshotter/default_snapshot_class.h"

#include <string>

namespace snapshotter {

base::Result<SnapshotClassPtr> DefaultSnapshotClassFor(const std::vector<SnapshotClassPtr>& classes,
                                                       std::string_view driver) {
  std::vector<SnapshotClassPtr> defaults;
  for (const SnapshotClassPtr& snapshot_class : classes) {
    const kube::StringMap& annotations = snapshot_class->metadata.annotations;
    auto is_default = annotations.find(kube::kIsDefaultSnapshotClassAnnotation);
    if (is_default != annotations.end() && is_default->second == "true" &&
        snapshot_class->driver == driver) {
      defaults.push_back(snapshot_class);
    }
  }
  if (defaults.empty()) return base::Error("cannot find default snapshot class");
  if (defaults.size() > 1) {
    return base::Error(std::to_string(defaults.size()) + " default snapshot classes were found");
  }
  return defaults.front();
}

}  // namespace snapshotter
