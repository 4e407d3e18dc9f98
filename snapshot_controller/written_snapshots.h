// WrittenSnapshots: each VolumeSnapshot as the API server answered the
// controller's last writes to it, with the resourceVersions those writes
// started from, so that a sync starting before the informer has brought our
// own write starts from its answer instead (docs/snapshots.md §9.4): from the
// older cached copy, its status patch would carry a resourceVersion our own
// write already moved past (409 Conflict, a GET and the patch again) and its
// finalizer patch a `test` op that no longer holds (422 and a GET).
//
// resourceVersions are compared for equality only, never ordered: a cached
// copy is replaced only when it is at a version one of our writes started
// from, so the answer is newer. The entry goes once the cache shows any
// other version (it caught up with us, or another writer moved on).
//
// Thread-safe. Holds at most kCapacity snapshots (beyond that, syncs start
// from the cache as they would without it).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "kube/api/snapshot/v1/volume_snapshot.h"

namespace snapshot_controller {

class WrittenSnapshots {
 public:
  static constexpr std::size_t kCapacity = 10000;

  // `cached`, or the answer to our last write when `cached` is at a version
  // our writes started from.
  kube::VolumeSnapshot Newest(const kube::VolumeSnapshot& cached);
  // After a write of ours that started from version `from` and was answered
  // with `answer`.
  void Remember(const std::string& from, const kube::VolumeSnapshot& answer);

 private:
  struct Written {
    std::vector<std::string> older;  // versions our writes started from
    kube::VolumeSnapshot answer;
  };

  std::mutex mu_;
  std::unordered_map<std::string, Written> snapshots_;  // by namespace/name
};

}  // namespace snapshot_controller
