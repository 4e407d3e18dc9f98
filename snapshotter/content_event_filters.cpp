#include "snapshotter/content_event_filters.h"

#include "kube/runtime/update_filter.h"
#include "snapshot/names.h"

namespace snapshotter {
namespace {

// The driver checks after the kind's own source check.
template <class Content, class Class>
bool NamesDriver(const Content& content, std::string_view driver, const Class* content_class) {
  if (content.spec.driver != driver) return false;
  return content_class == nullptr || content_class->driver == driver;
}

template <class Content>
bool ChangedBeyondOwnWrites(const Content& old_content, const Content& new_content,
                            std::string_view being_created_annotation) {
  return kube::UpdateNeedsSync(old_content, new_content, [&](const Content& old, Content& masked) {
    masked.status = old.status;
    masked.metadata.finalizers = old.metadata.finalizers;
    masked.metadata.has_finalizers_field = old.metadata.has_finalizers_field;
    kube::RestoreAnnotation(old.metadata, being_created_annotation, masked.metadata);
  });
}

}  // namespace

bool IsDriverMatch(const kube::VolumeSnapshotContent& content, std::string_view driver,
                   const kube::VolumeSnapshotClass* content_class) {
  const kube::VolumeSnapshotContentSource& source = content.spec.source;
  if (!source.volume_handle && !source.snapshot_handle) return false;
  return NamesDriver(content, driver, content_class);
}

bool IsDriverMatch(const kube::VolumeGroupSnapshotContent& content, std::string_view driver,
                   const kube::VolumeGroupSnapshotClass* content_class) {
  const kube::VolumeGroupSnapshotContentSource& source = content.spec.source;
  if (source.volume_handles.empty() && !source.group_snapshot_handles) return false;
  return NamesDriver(content, driver, content_class);
}

bool ShouldEnqueueContentUpdate(const kube::VolumeSnapshotContent& old_content,
                                const kube::VolumeSnapshotContent& new_content) {
  return ChangedBeyondOwnWrites(old_content, new_content, snapshot::kBeingCreatedAnnotation);
}

bool ShouldEnqueueContentUpdate(const kube::VolumeGroupSnapshotContent& old_content,
                                const kube::VolumeGroupSnapshotContent& new_content) {
  return ChangedBeyondOwnWrites(old_content, new_content, snapshot::kGroupBeingCreatedAnnotation);
}

}  // namespace snapshotter
