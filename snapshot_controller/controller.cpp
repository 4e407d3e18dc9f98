#include "snapshot_controller/controller.h"

#include <thread>

#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "snapshot_controller/group_membership.h"
#include "snapshot_controller/names.h"

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
  snapshots_.QueueSnapshotsOn<kube::PersistentVolumeClaim>(
      [this](const kube::Change<kube::PersistentVolumeClaim>& change) {
        return ReadySnapshotsOfNewlyProtected(change);
      });
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

std::vector<std::string> Controller::ReadySnapshotsOfNewlyProtected(
    const kube::Change<kube::PersistentVolumeClaim>& change) const {
  using Type = kube::Change<kube::PersistentVolumeClaim>::Type;
  std::vector<std::string> keys;
  const kube::PersistentVolumeClaim& claim = change.object;
  const bool newly_protected =
      (change.type == Type::kAdded ||
       (change.type == Type::kUpdated &&
        !kube::HasFinalizer(change.old_object->metadata, kClaimAsSourceFinalizer))) &&
      kube::HasFinalizer(claim.metadata, kClaimAsSourceFinalizer);
  if (!newly_protected) return keys;
  for (const auto& snapshot : snapshot_store_.List()) {
    if (snapshot->metadata.namespace_ == claim.metadata.namespace_ &&
        snapshot->spec.source.persistent_volume_claim_name == claim.metadata.name &&
        snapshot->status && snapshot->status->ready_to_use.value_or(false)) {
      keys.push_back(kube::Store<kube::VolumeSnapshot>::KeyOf(*snapshot));
    }
  }
  if (!keys.empty()) {
    LOG_V(4,
          "Claim holds the source finalizer while a snapshot of it is ready, scheduling its sync")
        .With(kube::PersistentVolumeClaim::kFacts.kind,
              kube::Store<kube::PersistentVolumeClaim>::KeyOf(claim));
  }
  return keys;
}

}  // namespace snapshot_controller
