#include "snapshot_controller/controller.h"

#include <thread>

#include "base/log.h"
#include "snapshot_controller/group_membership.h"

namespace snapshot_controller {

Caches CachesOf(kube::InformerSet& informers, bool with_nodes, bool with_groups,
                std::optional<GroupCaches>& group_caches) {
  if (with_groups) {
    group_caches.emplace(
        GroupCaches{.group_snapshots = informers.StoreOf<kube::VolumeGroupSnapshot>(),
                    .group_contents = informers.StoreOf<kube::VolumeGroupSnapshotContent>(),
                    .group_classes = informers.StoreOf<kube::VolumeGroupSnapshotClass>()});
  }
  return {.snapshots = informers.StoreOf<kube::VolumeSnapshot>(),
          .contents = informers.StoreOf<kube::VolumeSnapshotContent>(),
          .classes = informers.StoreOf<kube::VolumeSnapshotClass>(),
          .claims = informers.StoreOf<kube::PersistentVolumeClaim>(),
          .volumes = informers.StoreOf<kube::PersistentVolume>(),
          .nodes = with_nodes ? &informers.StoreOf<kube::Node>() : nullptr,
          // Off: nothing may consult a group cache (§9.13).
          .groups = group_caches ? &*group_caches : nullptr};
}

namespace {

// The workers of `pair` start once every store the handlers read is complete.
template <class Pair>
void WaitForEveryStore(Pair& pair, bool with_nodes, bool with_groups) {
  pair.template AlsoWaitFor<kube::VolumeSnapshot>();
  pair.template AlsoWaitFor<kube::VolumeSnapshotContent>();
  pair.template AlsoWaitFor<kube::VolumeSnapshotClass>();
  pair.template AlsoWaitFor<kube::PersistentVolumeClaim>();
  pair.template AlsoWaitFor<kube::PersistentVolume>();
  if (with_nodes) pair.template AlsoWaitFor<kube::Node>();
  if (with_groups) {
    pair.template AlsoWaitFor<kube::VolumeGroupSnapshot>();
    pair.template AlsoWaitFor<kube::VolumeGroupSnapshotContent>();
    pair.template AlsoWaitFor<kube::VolumeGroupSnapshotClass>();
  }
}

}  // namespace

Controller::Controller(ControllerHandler& handler, kube::InformerSet& informers,
                       ControllerOptions options, base::Clock& clock, bool with_nodes,
                       GroupHandler* group_handler)
    : snapshot_store_(informers.StoreOf<kube::VolumeSnapshot>()),
      snapshots_(handler, informers, options, clock) {
  const bool with_groups = group_handler != nullptr;
  WaitForEveryStore(snapshots_, with_nodes, with_groups);
  if (group_handler) {
    groups_.emplace(*group_handler, informers, options, clock,
                    [this](const kube::VolumeGroupSnapshot& group) { QueueMembersOf(group); });
    WaitForEveryStore(*groups_, with_nodes, with_groups);
  }
}

void Controller::Run(std::stop_token stop) {
  // Both pairs run on `stop`; each shuts its queues the moment it is requested.
  std::jthread group_workers;
  if (groups_) group_workers = std::jthread([this, stop] { groups_->Run(stop); });
  snapshots_.Run(stop);
}

void Controller::QueueMembersOf(const kube::VolumeGroupSnapshot& group) {
  for (const auto& member : MembersOf(group, snapshot_store_)) {
    snapshots_.QueueSnapshot(kube::Store<kube::VolumeSnapshot>::KeyOf(*member));
  }
}

}  // namespace snapshot_controller
