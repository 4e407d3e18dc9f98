#include "snapshot_controller/controller.h"

#include <memory>
#include <thread>

#include "base/log.h"
#include "kube/runtime/informer.h"
#include "snapshot_controller/group_membership.h"

namespace snapshot_controller {

Controller::Controller(ControllerHandler& handler, ControllerStores& stores,
                       ControllerOptions options, base::Clock& clock, GroupHandler* group_handler)
    : stores_(stores),
      options_(options),
      clock_(clock),
      snapshots_(handler, stores.snapshots, stores.contents, options_, clock) {
  if (group_handler) {
    groups_.emplace(*group_handler, stores.group_snapshots, stores.group_contents, options_, clock,
                    [this](const kube::VolumeGroupSnapshot& group) { QueueMembersOf(group); });
  }
}

void Controller::Run(const ControllerSources& sources, std::stop_token stop) {
  // The other kinds are only read from their stores: nothing to resync.
  const kube::ReflectorOptions read_only;
  // Declared before the workers run, so they stop after the workers drained.
  auto singles = snapshots_.StartInformers(sources.snapshots, sources.contents);
  kube::Informer<kube::VolumeSnapshotClass> classes(sources.classes, stores_.classes, read_only,
                                                    clock_);
  kube::Informer<kube::PersistentVolumeClaim> claims(sources.claims, stores_.claims, read_only,
                                                     clock_);
  kube::Informer<kube::PersistentVolume> volumes(sources.volumes, stores_.volumes, read_only,
                                                 clock_);
  std::optional<kube::Informer<kube::Node>> nodes;
  if (sources.nodes) nodes.emplace(*sources.nodes, stores_.nodes, read_only, clock_);
  std::unique_ptr<KindPairLoop<GroupSnapshotKinds>::Informers> groups;
  std::optional<kube::Informer<kube::VolumeGroupSnapshotClass>> group_classes;
  if (groups_ && sources.groups) {
    groups =
        groups_->StartInformers(sources.groups->group_snapshots, sources.groups->group_contents);
    group_classes.emplace(sources.groups->group_classes, stores_.group_classes, read_only, clock_);
    group_classes->Start();
  }
  classes.Start();
  claims.Start();
  volumes.Start();
  if (nodes) nodes->Start();
  if (!singles->WaitForCacheSync(stop) || !kube::WaitForCacheSync(stop, classes, claims, volumes)) {
    return;
  }
  if (nodes && !nodes->WaitForCacheSync(stop)) return;
  if (groups && (!groups->WaitForCacheSync(stop) || !group_classes->WaitForCacheSync(stop))) {
    return;
  }
  LOG_INFO("Caches synced, starting workers").With("workers", options_.worker_threads);
  // Every pool watches `stop`; each shuts its queues the moment it is requested.
  std::jthread group_workers;
  if (groups) group_workers = std::jthread([this, stop] { groups_->RunWorkers(stop); });
  snapshots_.RunWorkers(stop);
}

void Controller::QueueMembersOf(const kube::VolumeGroupSnapshot& group) {
  for (const auto& member : MembersOf(group, stores_.snapshots)) {
    snapshots_.QueueSnapshot(kube::Store<kube::VolumeSnapshot>::KeyOf(*member));
  }
}

}  // namespace snapshot_controller
