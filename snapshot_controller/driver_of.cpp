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

std::string DriverOf(const kube::VolumeGroupSnapshot& group, const Caches& caches) {
  if (!caches.groups) return "";
  if (const auto& content_name = group.spec.source.volume_group_snapshot_content_name) {
    auto content = caches.groups->group_contents.Get("", *content_name);
    if (content && !content->spec.driver.empty()) return content->spec.driver;
  }
  if (const auto& class_name = group.spec.volume_group_snapshot_class_name) {
    auto group_class = caches.groups->group_classes.Get("", *class_name);
    if (group_class) return group_class->driver;
  }
  return "";
}

}  // namespace snapshot_controller
