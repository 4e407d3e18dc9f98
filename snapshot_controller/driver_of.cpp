#include "snapshot_controller/driver_of.h"

namespace snapshot_controller {

std::string DriverOf(const kube::VolumeSnapshot& snapshot, const Caches& caches) {
  if (const auto& class_name = snapshot.spec.volume_snapshot_class_name; class_name) {
    auto snapshot_class = caches.classes.Get("", *class_name);
    return snapshot_class ? snapshot_class->driver : "";
  }
  if (snapshot.status && snapshot.status->bound_volume_snapshot_content_name) {
    auto content = caches.contents.Get("", *snapshot.status->bound_volume_snapshot_content_name);
    if (content) return content->spec.driver;
  }
  return "";
}

}  // namespace snapshot_controller
