#include "snapshot/content_lane.h"

namespace snapshot {
namespace {

template <class Content>
kube::WorkQueue::Lane LaneOf(const Content& content) {
  const bool needs_action = !content.metadata.deletion_timestamp.empty() || !IsReady(content);
  return needs_action ? kube::WorkQueue::Lane::kUrgent : kube::WorkQueue::Lane::kNormal;
}

}  // namespace

bool IsReady(const kube::VolumeSnapshotContent& content) {
  return content.status && content.status->ready_to_use.value_or(false);
}

bool IsReady(const kube::VolumeGroupSnapshotContent& content) {
  return content.status && content.status->ready_to_use.value_or(false);
}

kube::WorkQueue::Lane ContentLane(const kube::VolumeSnapshotContent& content) {
  return LaneOf(content);
}

kube::WorkQueue::Lane ContentLane(const kube::VolumeGroupSnapshotContent& content) {
  return LaneOf(content);
}

}  // namespace snapshot
