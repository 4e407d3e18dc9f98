#include "snapshot_controller/written_snapshots.h"

#include <algorithm>
#include <utility>

#include "kube/runtime/store.h"

namespace snapshot_controller {
namespace {

using Store = kube::Store<kube::VolumeSnapshot>;

}  // namespace

kube::VolumeSnapshot WrittenSnapshots::Newest(const kube::VolumeSnapshot& cached) {
  std::lock_guard lock(mu_);
  auto it = snapshots_.find(Store::KeyOf(cached));
  if (it == snapshots_.end()) return cached;
  const std::vector<std::string>& older = it->second.older;
  if (std::find(older.begin(), older.end(), cached.metadata.resource_version) != older.end()) {
    return it->second.answer;
  }
  snapshots_.erase(it);
  return cached;
}

void WrittenSnapshots::Remember(const std::string& from, const kube::VolumeSnapshot& answer) {
  if (from == answer.metadata.resource_version) return;  // nothing was written
  std::string key = Store::KeyOf(answer);
  std::lock_guard lock(mu_);
  auto it = snapshots_.find(key);
  // Our write went on from our last answer: every version before it is older.
  if (it != snapshots_.end() && it->second.answer.metadata.resource_version == from) {
    it->second.older.push_back(from);
    it->second.answer = answer;
    return;
  }
  if (it == snapshots_.end() && snapshots_.size() >= kCapacity) return;
  snapshots_[std::move(key)] = {{from}, answer};
}

}  // namespace snapshot_controller
