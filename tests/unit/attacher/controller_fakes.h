// Fakes and object builders for the controller, reconciler and event filter
// tests: a scripted ListerWatcher, a recording Handler, a counting
// WorkQueueMetrics. Waits on them are real-time thread hand-offs, bounded by
// kHandOffTimeout; time itself comes from a FakeClock.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
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
#include "kube/api/storage/v1/csi_node.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/work_queue.h"

namespace attacher::testing {

inline constexpr std::chrono::seconds kHandOffTimeout{5};
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

// Lists its items in one page, or as the initial events of a streaming list;
// then each Watch delivers what Send() queues and otherwise idles until
// stopped. The first FailLists(n) lists (of either kind) fail.
template <class T>
class FakeListerWatcher final : public kube::ListerWatcher<T> {
 public:
  void SetItems(std::vector<T> items) {
    std::lock_guard lock(mu_);
    items_ = std::move(items);
  }
  void FailLists(int n) {
    std::lock_guard lock(mu_);
    list_failures_ = n;
  }

  void Send(kube::WatchEventType type, T object) {
    std::lock_guard lock(mu_);
    kube::WatchEvent<T> event;
    event.type = type;
    event.object = std::move(object);
    events_.push_back(std::move(event));
    cv_.notify_all();
  }

  base::Result<kube::ObjectList<T>> List(const kube::ListOptions&) override {
    std::lock_guard lock(mu_);
    return ListLocked();
  }

  base::Status Watch(const kube::WatchOptions& options,
                     const std::function<bool(kube::WatchEvent<T>&&)>& on_event,
                     std::stop_token stop) override {
    std::unique_lock lock(mu_);
    if (options.send_initial_events) {
      auto list = ListLocked();
      if (!list.ok()) return list.error();
      lock.unlock();
      for (auto& item : list->items) {
        on_event(kube::WatchEvent<T>{kube::WatchEventType::kAdded, std::move(item), {}});
      }
      kube::WatchEvent<T> end{kube::WatchEventType::kBookmark, {}, {}};
      end.object.metadata.resource_version = list->metadata.resource_version;
      end.object.metadata.annotations[kube::kInitialEventsEndAnnotation] = "true";
      on_event(std::move(end));
      lock.lock();
    }
    while (cv_.wait(lock, stop, [&] { return !events_.empty(); })) {
      kube::WatchEvent<T> event = std::move(events_.front());
      events_.pop_front();
      lock.unlock();
      on_event(std::move(event));
      lock.lock();
    }
    return {};
  }

 private:
  base::Result<kube::ObjectList<T>> ListLocked() {
    if (list_failures_ > 0) {
      --list_failures_;
      return base::Error("scripted list failure", 500);
    }
    kube::ObjectList<T> list;
    list.metadata.resource_version = "1";
    list.items = items_;
    return list;
  }

  std::mutex mu_;
  std::condition_variable_any cv_;
  std::vector<T> items_;                    // guarded by mu_
  int list_failures_ = 0;                   // guarded by mu_
  std::deque<kube::WatchEvent<T>> events_;  // guarded by mu_
};

// Records every call with the fake time it started at; syncs of chosen
// VolumeAttachments fail a number of times or block until released.
class FakeHandler final : public Handler {
 public:
  explicit FakeHandler(base::Clock& clock) : clock_(clock) {}

  void FailVolumeAttachment(const std::string& name, int times) {
    std::lock_guard lock(mu_);
    failures_left_[name] = times;
  }
  void Block(const std::string& name) {
    std::lock_guard lock(mu_);
    blocked_.insert(name);
  }
  void Release(const std::string& name) {
    std::lock_guard lock(mu_);
    blocked_.erase(name);
    cv_.notify_all();
  }

  base::Status SyncVolumeAttachment(const kube::VolumeAttachment& va) override {
    const std::string& name = va.metadata.name;
    std::unique_lock lock(mu_);
    va_sync_times_[name].push_back(clock_.Now());
    max_concurrent_same_key_ = std::max(max_concurrent_same_key_, ++active_[name]);
    cv_.notify_all();
    cv_.wait(lock, [&] { return !blocked_.contains(name); });
    --active_[name];
    ++va_syncs_finished_[name];
    cv_.notify_all();
    int& failures = failures_left_[name];
    if (failures == 0) return {};
    --failures;
    return base::Error("scripted sync failure");
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
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return va_sync_times_[name].size() >= n; });
  }
  bool AwaitFinishedVolumeAttachmentSyncs(const std::string& name, int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return va_syncs_finished_[name] >= n; });
  }
  bool AwaitPersistentVolumeSync(const std::string& name) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] {
      return std::find(pv_syncs_.begin(), pv_syncs_.end(), name) != pv_syncs_.end();
    });
  }

  std::vector<base::Clock::TimePoint> VolumeAttachmentSyncTimes(const std::string& name) {
    std::lock_guard lock(mu_);
    return va_sync_times_[name];
  }
  std::vector<std::string> SyncedVolumeAttachments() {
    std::lock_guard lock(mu_);
    std::vector<std::string> names;
    for (const auto& [name, times] : va_sync_times_) {
      if (!times.empty()) names.push_back(name);
    }
    return names;
  }
  int MaxConcurrentSyncsOfOneKey() {
    std::lock_guard lock(mu_);
    return max_concurrent_same_key_;
  }
  std::vector<std::string> PersistentVolumeSyncs() {
    std::lock_guard lock(mu_);
    return pv_syncs_;
  }
  std::vector<std::string> ForceSyncs() {
    std::lock_guard lock(mu_);
    return force_syncs_;
  }

 private:
  base::Clock& clock_;
  std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::map<std::string, int> failures_left_;
  std::set<std::string> blocked_;
  std::map<std::string, std::vector<base::Clock::TimePoint>> va_sync_times_;
  std::map<std::string, int> active_;
  std::map<std::string, int> va_syncs_finished_;
  int max_concurrent_same_key_ = 0;
  std::vector<std::string> pv_syncs_;
  std::vector<std::string> force_syncs_;
};

class CountingQueueMetrics final : public kube::WorkQueueMetrics {
 public:
  void OnAdd() override { ++adds; }
  std::atomic<int> adds{0};
};

}  // namespace attacher::testing
