#include "provisioner/capacity_controller.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/log.h"
#include "base/quantity.h"
#include "kube/client/api_error.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/store.h"

namespace provisioner {
namespace {

constexpr std::string_view kItemsKey = "items";
constexpr std::string_view kPollKey = "poll";
constexpr std::string_view kItemPrefix = "item:";
constexpr std::string_view kObjectPrefix = "object:";

std::string ItemQueueKey(const std::string& item_key) {
  return std::string(kItemPrefix) + item_key;
}

// Whether a published quantity says `bytes`; an unset or malformed one does not.
bool SaysBytes(const std::optional<std::string>& quantity, std::optional<int64_t> bytes) {
  if (!quantity || !bytes) return !quantity && !bytes;
  base::Result<int64_t> value = base::QuantityAsInt64(*quantity);
  return value.ok() && *value == *bytes;
}

std::optional<std::string> QuantityOf(std::optional<int64_t> bytes) {
  if (!bytes) return std::nullopt;
  return base::FormatBinarySIQuantity(*bytes);
}

}  // namespace

std::string CapacityLabelSelector(const CapacityOptions& options) {
  // Sorted by key, as the API server formats selectors.
  return std::string(kCapacityDriverLabel) + "=" + options.driver + "," +
         std::string(kCapacityManagedByLabel) + "=" + options.managed_by;
}

// What the four informers tell the controller: topology inputs queue a
// recomputation of the items, object events keep the index.
class CapacityController::Events {
 public:
  explicit Events(CapacityController& controller)
      : classes_(controller), csi_nodes_(controller), nodes_(controller), objects_(controller) {}

  template <class T, class Changed>
  class Recompute final : public kube::EventHandler<T> {
   public:
    using Ptr = typename kube::EventHandler<T>::Ptr;
    explicit Recompute(CapacityController& controller) : controller_(controller) {}
    void OnAdd(const Ptr& object) override { Maybe(nullptr, *object); }
    void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
      Maybe(old_object.get(), *new_object);
    }
    void OnDelete(const Ptr& object) override { Maybe(nullptr, *object); }

   private:
    void Maybe(const T* old_object, const T& object) {
      if (Changed{}(controller_.options_.driver, old_object, object)) {
        controller_.loop_.Enqueue(std::string(kItemsKey), kube::WorkQueue::Lane::kNormal);
      }
    }
    CapacityController& controller_;
  };

  // A class of the driver: any event may change its items.
  struct ClassChanged {
    bool operator()(const std::string& driver, const kube::StorageClass* old_object,
                    const kube::StorageClass& object) const {
      if (old_object && old_object->metadata.resource_version == object.metadata.resource_version) {
        return false;  // a resync
      }
      return object.provisioner == driver;
    }
  };
  // A CSINode: added, deleted, or the driver's keys changed.
  struct CsiNodeChanged {
    bool operator()(const std::string& driver, const kube::CSINode* old_object,
                    const kube::CSINode& object) const {
      return !old_object ||
             DriverTopologyKeys(*old_object, driver) != DriverTopologyKeys(object, driver);
    }
  };
  // A Node: added, deleted, or its labels changed.
  struct NodeChanged {
    bool operator()(const std::string&, const kube::Node* old_object,
                    const kube::Node& object) const {
      return !old_object || !(old_object->metadata.labels == object.metadata.labels);
    }
  };

  class ObjectEvents final : public kube::EventHandler<kube::CSIStorageCapacity> {
   public:
    explicit ObjectEvents(CapacityController& controller) : controller_(controller) {}
    void OnAdd(const Ptr& object) override { controller_.ObjectSeen(object); }
    void OnUpdate(const Ptr&, const Ptr& object) override { controller_.ObjectSeen(object); }
    void OnDelete(const Ptr& object) override { controller_.ObjectGone(object); }

   private:
    CapacityController& controller_;
  };

  Recompute<kube::StorageClass, ClassChanged> classes_;
  Recompute<kube::CSINode, CsiNodeChanged> csi_nodes_;
  Recompute<kube::Node, NodeChanged> nodes_;
  ObjectEvents objects_;
};

CapacityController::CapacityController(CapacityOptions options, kube::InformerSet& informers,
                                       CapacityApi& api, CapacityDriver& driver, base::Clock& clock)
    : options_(std::move(options)),
      clock_(clock),
      api_(api),
      driver_(driver),
      classes_(informers.Get<kube::StorageClass>()),
      objects_(informers.Get<kube::CSIStorageCapacity>(CapacityLabelSelector(options_))),
      loop_(
          options_.loop, kube::CSIStorageCapacity::kFacts, clock,
          [this](const std::string& key) { return Reconcile(key); },
          [](const std::string&) { return kube::WorkQueue::Lane::kNormal; }),
      events_(std::make_unique<Events>(*this)) {
  classes_.AddEventHandler(events_->classes_);
  objects_.AddEventHandler(events_->objects_);
  if (options_.fixed_segment) return;
  csi_nodes_ = &informers.Get<kube::CSINode>();
  nodes_ = &informers.Get<kube::Node>();
  csi_nodes_->AddEventHandler(events_->csi_nodes_);
  nodes_->AddEventHandler(events_->nodes_);
}

CapacityController::~CapacityController() = default;

void CapacityController::Run(std::stop_token stop) {
  if (!kube::WaitForCacheSync(stop, classes_, objects_)) return;
  if (nodes_ && !kube::WaitForCacheSync(stop, *csi_nodes_, *nodes_)) return;
  LOG_INFO("Started Capacity Controller").With("namespace", options_.namespace_);
  // The items first, so that the objects the cache listed are judged
  // against them; then every item is asked for once, and again each poll.
  (void)RecomputeItems();
  loop_.queue().AddAfter(std::string(kPollKey), options_.poll_interval);
  loop_.Run(stop);
  LOG_INFO("Shutting down Capacity Controller");
}

kube::ReconcileResult CapacityController::Reconcile(const std::string& key) {
  if (key == kItemsKey) return RecomputeItems();
  if (key == kPollKey) return Poll();
  if (key.starts_with(kItemPrefix)) return Publish(key.substr(kItemPrefix.size()));
  if (key.starts_with(kObjectPrefix)) return DeleteIfUnwanted(key.substr(kObjectPrefix.size()));
  return kube::Action::Done();
}

std::vector<TopologyTerm> CapacityController::Segments() const {
  if (options_.fixed_segment) return {*options_.fixed_segment};
  return DriverSegments(options_.driver, csi_nodes_->store().List(),
                        [this](const std::string& name) { return nodes_->store().GetByKey(name); });
}

kube::ReconcileResult CapacityController::RecomputeItems() {
  const std::vector<TopologyTerm> segments = Segments();
  std::vector<CapacityItem> items =
      DesiredItems(classes_.store().List(), segments, options_.driver, options_.immediate_binding);
  std::lock_guard lock(mu_);
  std::map<std::string, CapacityItem> next;
  for (CapacityItem& item : items) {
    std::string key = KeyOf(item);
    if (!items_.contains(key)) loop_.Enqueue(ItemQueueKey(key), kube::WorkQueue::Lane::kNormal);
    next.emplace(std::move(key), std::move(item));
  }
  LOG_V(3, "Capacity Controller: items recomputed")
      .With("segments", segments.size())
      .With("items", next.size());
  // The objects of items that went go too. (Objects matching no item at
  // all were queued when the cache saw them.)
  for (const auto& [item_key, item] : items_) {
    if (next.contains(item_key)) continue;
    if (auto it = names_of_item_.find(item_key); it != names_of_item_.end()) {
      for (const std::string& name : it->second) {
        loop_.Enqueue(std::string(kObjectPrefix) + name, kube::WorkQueue::Lane::kNormal);
      }
    }
    if (auto it = created_.find(item_key); it != created_.end()) {
      loop_.Enqueue(std::string(kObjectPrefix) + it->second->metadata.name,
                    kube::WorkQueue::Lane::kNormal);
    }
  }
  items_ = std::move(next);
  return kube::Action::Done();
}

kube::ReconcileResult CapacityController::Poll() {
  std::lock_guard lock(mu_);
  LOG_V(5, "Capacity Controller: periodic update").With("items", items_.size());
  QueueItemsLocked([](const CapacityItem&) { return true; });
  return kube::Action::RequeueAfter(options_.poll_interval);
}

kube::ReconcileResult CapacityController::Publish(const std::string& item_key) {
  std::optional<CapacityItem> item;
  Object current;
  {
    std::lock_guard lock(mu_);
    auto it = items_.find(item_key);
    if (it == items_.end()) return kube::Action::Done();  // became obsolete
    item = it->second;
    current = ObjectOfLocked(item_key);
  }
  std::shared_ptr<const kube::StorageClass> storage_class =
      classes_.store().GetByKey(item->class_name);
  if (!storage_class) return kube::Action::Done();  // the recomputation drops it
  base::Result<ReportedCapacity> reported =
      driver_.GetCapacity(storage_class->parameters, item->segment);
  if (!reported.ok()) return reported.error().Wrap("CSI GetCapacity for " + item_key);

  if (!current) {
    auto created = api_.Create(NewObject(*item, *reported), "csisc-");
    if (!created.ok()) return created.error().Wrap("create CSIStorageCapacity for " + item_key);
    LOG_V(5, "Capacity Controller: created")
        .With("name", created->metadata.name)
        .With("item", item_key)
        .With("capacity", created->capacity.value_or(""));
    std::lock_guard lock(mu_);
    if (!item_of_name_.contains(created->metadata.name)) {
      created_[item_key] = std::make_shared<const kube::CSIStorageCapacity>(std::move(*created));
    }
    return kube::Action::Done();
  }
  const bool owned = !options_.owner || IsOwnedByUs(*current);
  if (SaysBytes(current->capacity, reported->available_bytes) &&
      SaysBytes(current->maximum_volume_size, reported->maximum_volume_size) && owned) {
    return kube::Action::Done();
  }
  kube::CSIStorageCapacity updated = *current;
  updated.capacity = QuantityOf(reported->available_bytes);
  updated.maximum_volume_size = QuantityOf(reported->maximum_volume_size);
  if (!owned) updated.metadata.owner_references.push_back(*options_.owner);
  auto written = api_.Update(updated);
  if (!written.ok()) return written.error().Wrap("update CSIStorageCapacity for " + item_key);
  LOG_V(5, "Capacity Controller: updated")
      .With("name", written->metadata.name)
      .With("item", item_key)
      .With("capacity", written->capacity.value_or(""));
  std::lock_guard lock(mu_);
  if (auto it = created_.find(item_key); it != created_.end()) {
    it->second = std::make_shared<const kube::CSIStorageCapacity>(std::move(*written));
  }
  return kube::Action::Done();
}

kube::ReconcileResult CapacityController::DeleteIfUnwanted(const std::string& name) {
  Object object = objects_.store().GetByKey(
      kube::Store<kube::CSIStorageCapacity>::KeyOf(options_.namespace_, name));
  if (!object) return kube::Action::Done();
  {
    std::lock_guard lock(mu_);
    const std::string item_key = ItemKeyOf(*object);
    Object kept = items_.contains(item_key) ? ObjectOfLocked(item_key) : nullptr;
    if (kept && kept->metadata.name == name) return kube::Action::Done();
  }
  LOG_V(5, "Capacity Controller: removing CSIStorageCapacity").With("name", name);
  base::Status s = api_.Delete(options_.namespace_, name);
  if (!s.ok() && !kube::IsNotFound(s.error())) {
    return s.error().Wrap("delete CSIStorageCapacity " + name);
  }
  return kube::Action::Done();
}

CapacityController::Object CapacityController::ObjectOfLocked(const std::string& item_key) const {
  if (auto it = names_of_item_.find(item_key); it != names_of_item_.end() && !it->second.empty()) {
    Object cached = objects_.store().GetByKey(
        kube::Store<kube::CSIStorageCapacity>::KeyOf(options_.namespace_, *it->second.begin()));
    if (cached) return cached;
  }
  auto it = created_.find(item_key);
  return it == created_.end() ? nullptr : it->second;
}

kube::CSIStorageCapacity CapacityController::NewObject(const CapacityItem& item,
                                                       const ReportedCapacity& reported) const {
  kube::CSIStorageCapacity object;
  object.metadata.namespace_ = options_.namespace_;
  object.metadata.labels[kCapacityDriverLabel] = options_.driver;
  object.metadata.labels[kCapacityManagedByLabel] = options_.managed_by;
  if (options_.owner) object.metadata.owner_references.push_back(*options_.owner);
  object.storage_class_name = item.class_name;
  object.node_topology = SelectorOf(item.segment);
  object.capacity = QuantityOf(reported.available_bytes);
  object.maximum_volume_size = QuantityOf(reported.maximum_volume_size);
  return object;
}

bool CapacityController::IsOwnedByUs(const kube::CSIStorageCapacity& object) const {
  const auto& owners = object.metadata.owner_references;
  return std::any_of(owners.begin(), owners.end(), [this](const kube::OwnerReference& owner) {
    return owner.controller.value_or(false) && owner.uid == options_.owner->uid;
  });
}

void CapacityController::QueueItemsLocked(const std::function<bool(const CapacityItem&)>& which) {
  for (const auto& [key, item] : items_) {
    if (which(item)) loop_.Enqueue(ItemQueueKey(key), kube::WorkQueue::Lane::kNormal);
  }
}

void CapacityController::VolumeCreated(const kube::PersistentVolume& volume,
                                       const std::string& class_name) {
  if (!volume.spec.node_affinity.empty()) {
    QueueItemsOfVolume(volume);
    return;
  }
  ProvisionFailed(class_name);  // the same refresh: every item of the class
}

void CapacityController::ProvisionFailed(const std::string& class_name) {
  std::lock_guard lock(mu_);
  QueueItemsLocked([&](const CapacityItem& item) { return item.class_name == class_name; });
}

void CapacityController::VolumeDeleted(const kube::PersistentVolume& volume) {
  if (!volume.spec.node_affinity.empty()) QueueItemsOfVolume(volume);
}

// Items of any class in a segment the volume's node affinity names.
void CapacityController::QueueItemsOfVolume(const kube::PersistentVolume& volume) {
  std::vector<TopologyTerm> segments;
  for (const kube::NodeSelectorTerm& term : volume.spec.node_affinity) {
    if (std::optional<TopologyTerm> segment = SegmentOfTerm(term)) {
      segments.push_back(std::move(*segment));
    }
  }
  std::lock_guard lock(mu_);
  QueueItemsLocked([&](const CapacityItem& item) {
    return std::find(segments.begin(), segments.end(), item.segment) != segments.end();
  });
}

void CapacityController::ObjectSeen(const Object& object) {
  const std::string& name = object->metadata.name;
  std::lock_guard lock(mu_);
  const std::string item_key = ItemKeyOf(*object);
  if (auto it = item_of_name_.find(name); it != item_of_name_.end() && it->second != item_key) {
    names_of_item_[it->second].erase(name);  // relabelled by someone: its old item needs one
    if (items_.contains(it->second)) {
      loop_.Enqueue(ItemQueueKey(it->second), kube::WorkQueue::Lane::kNormal);
    }
  }
  item_of_name_[name] = item_key;
  names_of_item_[item_key].insert(name);
  if (auto it = created_.find(item_key);
      it != created_.end() && it->second->metadata.name == name) {
    created_.erase(it);
  }
  loop_.Enqueue(std::string(kObjectPrefix) + name, kube::WorkQueue::Lane::kNormal);
}

void CapacityController::ObjectGone(const Object& object) {
  const std::string& name = object->metadata.name;
  std::lock_guard lock(mu_);
  auto it = item_of_name_.find(name);
  if (it == item_of_name_.end()) return;
  const std::string item_key = it->second;
  item_of_name_.erase(it);
  names_of_item_[item_key].erase(name);
  if (names_of_item_[item_key].empty()) names_of_item_.erase(item_key);
  if (auto c = created_.find(item_key); c != created_.end() && c->second->metadata.name == name) {
    created_.erase(c);
  }
  if (items_.contains(item_key)) {
    LOG_V(5, "Capacity Controller: CSIStorageCapacity was removed by someone, re-creating")
        .With("name", name);
    loop_.Enqueue(ItemQueueKey(item_key), kube::WorkQueue::Lane::kNormal);
  }
}

CapacityCounts CapacityController::Counts() const {
  std::lock_guard lock(mu_);
  CapacityCounts counts{.goal = items_.size()};
  for (const auto& [key, item] : items_) {
    if (ObjectOfLocked(key)) ++counts.current;
  }
  for (const auto& [item_key, names] : names_of_item_) {
    if (!items_.contains(item_key)) counts.obsolete += names.size();
  }
  return counts;
}

}  // namespace provisioner
