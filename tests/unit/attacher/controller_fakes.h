// Fakes and object builders for the controller, reconciler and event filter
// tests: a recording Handler, a counting WorkQueueMetrics (the scripted
// ListerWatcher is tests/support's). Waits on them are real-time thread hand-offs, bounded by
// kHandOffTimeout; time itself comes from a FakeClock.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "attacher/handler.h"
#include "attacher/names.h"
#include "base/clock.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/work_queue.h"
#include "tests/support/fake_lister_watcher.h"
#include "tests/support/hand_off.h"
#include "tests/support/scripted_sync.h"

namespace attacher::testing {

using testsupport::kHandOffTimeout;
inline constexpr std::string_view kDriver = "hostpath.csi.k8s.io";

inline kube::VolumeAttachment MakeVa(std::string name, std::string pv_name = "pv-1",
                                     std::string attacher = std::string(kDriver)) {
  kube::VolumeAttachment va;
  va.metadata.name = std::move(name);
  va.metadata.resource_version = "1";
  va.spec.attacher = std::move(attacher);
  va.spec.node_name = "node-1";
  va.spec.source.persistent_volume_name = std::move(pv_name);
  return va;
}

inline kube::PersistentVolume MakeCsiPv(std::string name, std::string volume_handle = "vol-1") {
  kube::PersistentVolume pv;
  pv.metadata.name = std::move(name);
  pv.metadata.resource_version = "1";
  kube::CSIPersistentVolumeSource csi;
  csi.driver = std::string(kDriver);
  csi.volume_handle = std::move(volume_handle);
  pv.spec.source = std::move(csi);
  return pv;
}

// A PV carrying our finalizer and being deleted: the PV queue's business.
inline kube::PersistentVolume MakeDeletedPvWithFinalizer(std::string name) {
  kube::PersistentVolume pv = MakeCsiPv(std::move(name));
  pv.metadata.finalizers = {FinalizerFor(kDriver)};
  pv.metadata.deletion_timestamp = "2024-01-01T00:00:00Z";
  return pv;
}

inline kube::CSINode MakeCsiNode(std::string node, std::string driver, std::string node_id) {
  kube::CSINode csi_node;
  csi_node.metadata.name = std::move(node);
  kube::CSINodeDriver entry;
  entry.name = std::move(driver);
  entry.node_id = std::move(node_id);
  csi_node.spec.drivers.push_back(std::move(entry));
  return csi_node;
}

template <class T>
using FakeListerWatcher = testsupport::FakeListerWatcher<T>;

// Records every call; VolumeAttachment syncs go through a ScriptedSync (fake
// start times, chosen names fail or block until released).
class FakeHandler final : public Handler {
 public:
  explicit FakeHandler(base::Clock& clock) : va_syncs_(clock) {}

  void FailVolumeAttachment(const std::string& name, int times) { va_syncs_.Fail(name, times); }
  void Block(const std::string& name) { va_syncs_.Block(name); }
  void Release(const std::string& name) { va_syncs_.Release(name); }

  base::Status SyncVolumeAttachment(const kube::VolumeAttachment& va) override {
    return va_syncs_.Sync(va.metadata.name);
  }

  base::Status SyncPersistentVolume(const kube::PersistentVolume& pv) override {
    std::lock_guard lock(mu_);
    pv_syncs_.push_back(pv.metadata.name);
    cv_.notify_all();
    return {};
  }

  void RequestForceSync(const std::string& va_name) override {
    std::lock_guard lock(mu_);
    force_syncs_.push_back(va_name);
  }

  // Wait until VA `name` has started `n` syncs / finished `n` syncs, or a PV
  // sync of `name` happened.
  bool AwaitVolumeAttachmentSyncs(const std::string& name, size_t n) {
    return va_syncs_.AwaitStarted(name, n);
  }
  bool AwaitFinishedVolumeAttachmentSyncs(const std::string& name, int n) {
    return va_syncs_.AwaitFinished(name, n);
  }
  bool AwaitPersistentVolumeSync(const std::string& name) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] {
      return std::find(pv_syncs_.begin(), pv_syncs_.end(), name) != pv_syncs_.end();
    });
  }

  std::vector<base::Clock::TimePoint> VolumeAttachmentSyncTimes(const std::string& name) {
    return va_syncs_.StartTimes(name);
  }
  int FinishedVolumeAttachmentSyncs(const std::string& name) { return va_syncs_.Finished(name); }
  // The names of the VolumeAttachments synced at least once, sorted.
  std::vector<std::string> SyncedVolumeAttachments() {
    std::vector<std::string> names = va_syncs_.Order();
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }
  // Every VolumeAttachment sync, in the order they started.
  std::vector<std::string> VolumeAttachmentSyncOrder() { return va_syncs_.Order(); }
  int MaxConcurrentSyncsOfOneKey() { return va_syncs_.MaxConcurrentSyncsOfOneKey(); }
  std::vector<std::string> PersistentVolumeSyncs() {
    std::lock_guard lock(mu_);
    return pv_syncs_;
  }
  std::vector<std::string> ForceSyncs() {
    std::lock_guard lock(mu_);
    return force_syncs_;
  }

 private:
  testsupport::ScriptedSync va_syncs_;
  std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::vector<std::string> pv_syncs_;
  std::vector<std::string> force_syncs_;
};

class CountingQueueMetrics final : public kube::WorkQueueMetrics {
 public:
  void OnAdd() override { ++adds; }
  std::atomic<int> adds{0};
};

}  // namespace attacher::testing
