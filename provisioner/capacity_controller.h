// CapacityController: storage capacity tracking (docs/provisioner.md §5,
// --enable-capacity). For every work item - a tracked StorageClass in one
// topology segment of the driver's nodes (capacity_segments.h) - it asks
// the driver's GetCapacity and keeps one CSIStorageCapacity in its
// namespace that says so: created with generateName "csisc-", the labels
// csi.storage.k8s.io/drivername and csi.storage.k8s.io/managed-by, the
// class, the segment as nodeTopology, capacity, maximumVolumeSize and the
// owner reference; replaced only when one of those changed. Objects with
// both labels that match no item are deleted; ones others delete are made
// again.
//
// Queue keys (one queue "csistoragecapacity", --capacity-threads workers,
// errors backing off --retry-interval-start .. --retry-interval-max):
//   - "items": recompute the items from the caches of StorageClasses,
//     CSINodes and Nodes - queued by their changes, coalesced by the queue;
//   - "poll": queue every item, then again after --capacity-poll-interval;
//   - "item:<class>/<segment>": publish one item (a CapacityRefresh of a
//     provisioned or deleted volume queues those it concerns);
//   - "object:<name>": delete the object if it is obsolete or a duplicate.
//
// Better than upstream (§9.5): items are keyed by segment value, so a
// segment found twice is one item and one object (#1450); pairs a class's
// allowedTopologies excludes are never polled (#1162); refreshes of one
// item coalesce in the queue; two objects for one item are reduced to one.
// In node deployment the segments are this node's one, fixed.
//
// Thread-safety: the CapacityRefresh calls and Counts() from any thread;
// Run once. Build it before the InformerSet starts; the capacity informer
// must have been given its source (namespace and labels) already.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>

#include "base/clock.h"
#include "kube/api/core/v1/node.h"
#include "kube/api/storage/v1/csi_node.h"
#include "kube/api/storage/v1/csi_storage_capacity.h"
#include "kube/api/storage/v1/storage_class.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/reconcile_loop.h"
#include "provisioner/capacity_api.h"
#include "provisioner/capacity_driver.h"
#include "provisioner/capacity_refresh.h"
#include "provisioner/capacity_segments.h"
#include "provisioner/provisioner_metrics.h"

namespace provisioner {

inline constexpr std::string_view kCapacityDriverLabel = "csi.storage.k8s.io/drivername";
inline constexpr std::string_view kCapacityManagedByLabel = "csi.storage.k8s.io/managed-by";

struct CapacityOptions {
  std::string driver;
  std::string namespace_;  // $NAMESPACE
  std::string managed_by = "external-provisioner";
  std::optional<kube::OwnerReference> owner;  // none: --capacity-ownerref-level -1
  bool immediate_binding = false;             // --capacity-for-immediate-binding
  std::chrono::nanoseconds poll_interval{std::chrono::minutes(1)};
  kube::ControllerOptions loop;  // name, workers, retry_start/max
  // Node deployment (§3.12): this node's one segment, from NodeGetInfo
  // (empty: the driver reported no topology); no Node or CSINode is watched.
  std::optional<TopologyTerm> fixed_segment;
};

// The label selector of the objects the controller manages.
std::string CapacityLabelSelector(const CapacityOptions& options);

class CapacityController final : public CapacityRefresh {
 public:
  CapacityController(CapacityOptions options, kube::InformerSet& informers, CapacityApi& api,
                     CapacityDriver& driver, base::Clock& clock);
  ~CapacityController() override;

  // Waits for its caches (classes, objects and, without a fixed segment,
  // CSINodes and Nodes), then works until `stop`.
  void Run(std::stop_token stop);

  void VolumeCreated(const kube::PersistentVolume& volume, const std::string& class_name) override;
  void ProvisionFailed(const std::string& class_name) override;
  void VolumeDeleted(const kube::PersistentVolume& volume) override;

  CapacityCounts Counts() const;
  const kube::WorkQueue& queue() const { return loop_.queue(); }

 private:
  class Events;
  using Object = std::shared_ptr<const kube::CSIStorageCapacity>;

  kube::ReconcileResult Reconcile(const std::string& key);
  kube::ReconcileResult RecomputeItems();
  std::vector<TopologyTerm> Segments() const;
  kube::ReconcileResult Poll();
  kube::ReconcileResult Publish(const std::string& item_key);
  kube::ReconcileResult DeleteIfUnwanted(const std::string& name);

  // The object kept for an item: the cached one with the smallest name, else
  // the one this process created and the cache does not show yet.
  Object ObjectOfLocked(const std::string& item_key) const;
  kube::CSIStorageCapacity NewObject(const CapacityItem& item,
                                     const ReportedCapacity& reported) const;
  bool IsOwnedByUs(const kube::CSIStorageCapacity& object) const;
  void QueueItemsLocked(const std::function<bool(const CapacityItem&)>& which);
  void QueueItemsOfVolume(const kube::PersistentVolume& volume);

  // Capacity informer events keep the index current.
  void ObjectSeen(const Object& object);
  void ObjectGone(const Object& object);

  const CapacityOptions options_;
  base::Clock& clock_;
  CapacityApi& api_;
  CapacityDriver& driver_;
  kube::Informer<kube::StorageClass>& classes_;
  kube::Informer<kube::CSINode>* csi_nodes_ = nullptr;  // null with a fixed segment
  kube::Informer<kube::Node>* nodes_ = nullptr;         // null with a fixed segment
  kube::Informer<kube::CSIStorageCapacity>& objects_;

  mutable std::mutex mu_;
  std::map<std::string, CapacityItem> items_;                   // by item key
  std::map<std::string, Object> created_;                       // by item key, not cached yet
  std::map<std::string, std::set<std::string>> names_of_item_;  // cache index; "" key: no item
  std::map<std::string, std::string> item_of_name_;

  kube::ReconcileLoop loop_;
  std::unique_ptr<Events> events_;
};

}  // namespace provisioner
