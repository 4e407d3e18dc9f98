#include "provisioner/snapshot_sweeper.h"

#include <set>

#include "base/log.h"
#include "kube/api/metadata_patch.h"
#include "kube/client/api_error.h"
#include "provisioner/names.h"
#include "provisioner/volume_source.h"

namespace provisioner {
namespace {

bool NamesASnapshot(const std::optional<std::string>& api_group, const std::string& kind) {
  return kind == "VolumeSnapshot" && (!api_group || *api_group == kSnapshotGroup);
}

// Upstream counts a claim without a phase as Pending.
bool IsPending(const kube::PersistentVolumeClaim& claim) {
  return claim.status.phase.empty() || claim.status.phase == "Pending";
}

}  // namespace

std::optional<std::pair<std::string, std::string>> RestoredSnapshotOf(
    const kube::PersistentVolumeClaim& claim) {
  const auto& spec = claim.spec;
  if (spec.data_source && NamesASnapshot(spec.data_source->api_group, spec.data_source->kind)) {
    return std::pair(claim.metadata.namespace_, spec.data_source->name);
  }
  if (spec.data_source_ref &&
      NamesASnapshot(spec.data_source_ref->api_group, spec.data_source_ref->kind)) {
    const auto& ns = spec.data_source_ref->namespace_;
    return std::pair(ns && !ns->empty() ? *ns : claim.metadata.namespace_,
                     spec.data_source_ref->name);
  }
  return std::nullopt;
}

base::Status SweepableSnapshots(kube::Client& client) {
  kube::ListOptions one;
  one.limit = 1;
  auto listed = client.List<kube::VolumeSnapshot>("", one);
  if (listed.ok()) return base::Status::Ok();
  if (kube::IsForbidden(listed.error())) {
    return listed.error().Wrap("missing list permission on volumesnapshots");
  }
  if (kube::IsNotFound(listed.error())) {
    return listed.error().Wrap("the VolumeSnapshot CRD is not installed");
  }
  // Anything else may pass: the informer retries it.
  return base::Status::Ok();
}

SnapshotSweeper::SnapshotSweeper(std::chrono::nanoseconds interval, kube::InformerSet& informers,
                                 ProvisionerApi& api, base::Clock& clock)
    : interval_(interval),
      claims_(informers.Get<kube::PersistentVolumeClaim>()),
      snapshots_(informers.Get<kube::VolumeSnapshot>()),
      api_(api),
      clock_(clock) {}

void SnapshotSweeper::Run(std::stop_token stop) {
  if (!kube::WaitForCacheSync(stop, claims_, snapshots_)) return;
  LOG_INFO("Started SnapshotFinalizerProtection controller");
  do {
    Sweep();
  } while (clock_.SleepFor(interval_, stop));
  LOG_INFO("Shutting down SnapshotFinalizerProtection controller");
}

size_t SnapshotSweeper::Sweep() {
  std::set<std::pair<std::string, std::string>> restoring;
  for (const auto& claim : claims_.store().List()) {
    if (!IsPending(*claim)) continue;
    if (auto snapshot = RestoredSnapshotOf(*claim)) restoring.insert(std::move(*snapshot));
  }
  size_t removed = 0;
  for (const auto& snapshot : snapshots_.store().List()) {
    const auto& meta = snapshot->metadata;
    if (!kube::HasFinalizer(meta, kSnapshotSourceFinalizer)) continue;
    if (restoring.contains({meta.namespace_, meta.name})) continue;
    const std::string key = meta.namespace_ + "/" + meta.name;
    if (base::Status s = ReleaseSnapshot(api_, meta.namespace_, meta.name); !s.ok()) {
      LOG_WARNING("SnapshotFinalizerProtection: failed to remove finalizer from snapshot")
          .With("snapshot", key)
          .With("err", s.error().message);
      continue;
    }
    LOG_INFO("SnapshotFinalizerProtection: removed orphaned finalizer from snapshot")
        .With("snapshot", key);
    ++removed;
  }
  return removed;
}

}  // namespace provisioner
