// Controller<K>: a controller of one primary kind K, in the shape of
// kube-rs's Controller: the domain writes a reconcile of one key and says
// which events matter; the runtime (ReconcileLoop) owns the queue, lanes,
// workers, backoffs, retries, metrics and shutdown.
//
//  - Primary events (PrimaryRules): an added or updated K that `admits`
//    (default: all) queues its key in the lane `lane` picks (default
//    normal); an update must also pass `update_needs_sync` (default: all)
//    and is never queued when it is the event of the controller's own write
//    (reconcile_loop.h). A resync (same resourceVersion) always queues. A
//    deletion queues the key in the lane `on_delete` answers (default
//    normal, so the reconcile sees it gone; nullopt: not queued). A relist
//    of K (its watch was lost) retries at once every key whose last
//    reconcile failed (ReconcileLoop::OnRelisted).
//  - Secondary kinds: Watches<S>(map) turns each event of S into keys of K.
//  - Read-only kinds: Reads<S>() gives the store of S; the workers wait for
//    it to be complete too.
// Informers come from the process's InformerSet, shared with every other
// controller that watches the same kind.
//
// The reconcile gets a key and the object the store holds under it when the
// reconcile starts (null when gone) and answers an Action or an error
// (action.h). Retries and requeues take the lane `lane` picks for the object
// the store then holds (normal when gone).
//
// Life cycle: build every controller of the process, start the InformerSet,
// then Run() each (RunControllers in run_controllers.h does all of it). Run
// waits until every store the controller uses holds a complete list, then
// runs the workers until `stop`. The set's informers call the controller's
// handlers until the set stops: stop the set before destroying a controller.
//
// Thread-safety: Enqueue, HasSynced, WaitForCacheSync and queue() from any
// thread; Watches and Reads while building; Run once.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "base/notification.h"
#include "kube/runtime/action.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/informer_set.h"
#include "kube/runtime/reconcile_loop.h"
#include "kube/runtime/store.h"
#include "kube/runtime/work_queue.h"

namespace kube {

// One event of kind T as a mapping function sees it.
template <class T>
struct Change {
  enum class Type : uint8_t { kAdded, kUpdated, kDeleted };
  Type type;
  const T* old_object;  // kUpdated only: the version before
  const T& object;      // the new version; when kDeleted, the last known one
};

template <class K>
struct PrimaryRules {
  using Lane = WorkQueue::Lane;
  std::function<bool(const K&)> admits = {};
  std::function<bool(const K& old_object, const K& new_object)> update_needs_sync = {};
  std::function<Lane(const K&)> lane = {};
  std::function<std::optional<Lane>(const std::shared_ptr<const K>&)> on_delete = {};
};

template <class K>
class Controller {
 public:
  using Ptr = std::shared_ptr<const K>;
  using Lane = WorkQueue::Lane;
  using Reconcile = std::function<ReconcileResult(const std::string& key, const Ptr& object)>;

  // The primary informer is `informers`' K informer with `label_selector`.
  Controller(InformerSet& informers, ControllerOptions options, PrimaryRules<K> rules,
             Reconcile reconcile, base::Clock& clock = base::Clock::Real(),
             std::string_view label_selector = {})
      : informers_(informers),
        store_(informers.StoreOf<K>(label_selector)),
        rules_(std::move(rules)),
        reconcile_(std::move(reconcile)),
        loop_(
            std::move(options), K::kFacts, clock,
            [this](const std::string& key) { return ReconcileKey(key); },
            [this](const std::string& key) { return LaneOfStored(key); }),
        primary_events_(*this) {
    Informer<K>& informer = informers.Get<K>(label_selector);
    informer.AddEventHandler(primary_events_);
    AwaitSyncOf(informer);
  }
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // Each event of S becomes the keys `map` answers, queued in the lane of
  // the object the store holds under each.
  template <class S>
  void Watches(std::function<std::vector<std::string>(const Change<S>&)> map,
               std::string_view label_selector = {}) {
    Informer<S>& informer = informers_.Get<S>(label_selector);
    auto events = std::make_unique<SecondaryEvents<S>>(*this, std::move(map));
    informer.AddEventHandler(*events);
    secondary_events_.push_back(std::move(events));
    AwaitSyncOf(informer);
  }

  // The store of S, which the workers wait for before they start.
  template <class S>
  Store<S>& Reads(std::string_view label_selector = {}) {
    Informer<S>& informer = informers_.Get<S>(label_selector);
    AwaitSyncOf(informer);
    return informer.store();
  }

  // Queues `key` in the lane of its stored object, or in `lane`.
  void Enqueue(const std::string& key) { loop_.Enqueue(key, LaneOfStored(key)); }
  void Enqueue(const std::string& key, Lane lane) { loop_.Enqueue(key, lane); }

  // Blocks until `stop`: waits for every store this controller uses, then
  // runs the workers; in-flight reconciles finish before it returns.
  void Run(std::stop_token stop) {
    for (const auto& wait : cache_syncs_) {
      if (!wait(stop)) return;
    }
    synced_.Notify();
    LOG_INFO("Caches synced, starting workers")
        .With("queue", loop_.options().name)
        .With("workers", loop_.options().workers);
    loop_.Run(stop);
  }

  bool HasSynced() const { return synced_.HasBeenNotified(); }
  bool WaitForCacheSync(std::stop_token stop) const { return synced_.WaitForNotification(stop); }

  Store<K>& store() const { return store_; }
  const WorkQueue& queue() const { return loop_.queue(); }

 private:
  class PrimaryEvents final : public EventHandler<K> {
   public:
    explicit PrimaryEvents(Controller& controller) : controller_(controller) {}
    void OnAdd(const Ptr& object) override {
      if (!controller_.Admits(*object)) return;
      controller_.loop_.OnChange(Store<K>::KeyOf(*object), object->metadata.resource_version,
                                 controller_.LaneOf(*object));
    }
    void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
      if (!controller_.Admits(*new_object)) return;
      const std::string key = Store<K>::KeyOf(*new_object);
      const Lane lane = controller_.LaneOf(*new_object);
      if (old_object->metadata.resource_version == new_object->metadata.resource_version) {
        controller_.loop_.Enqueue(key, lane);  // a resync
        return;
      }
      const auto& needs_sync = controller_.rules_.update_needs_sync;
      if (needs_sync && !needs_sync(*old_object, *new_object)) {
        LOG_V(4, "Ignoring change of fields the controller does not act on")
            .With(K::kFacts.kind, key);
        return;
      }
      controller_.loop_.OnChange(key, new_object->metadata.resource_version, lane);
    }
    void OnRelisted() override { controller_.loop_.OnRelisted(); }
    void OnDelete(const Ptr& object) override {
      const std::string key = Store<K>::KeyOf(*object);
      controller_.loop_.OnDeleted(key);
      const auto& on_delete = controller_.rules_.on_delete;
      std::optional<Lane> lane = on_delete ? on_delete(object) : Lane::kNormal;
      if (lane && controller_.Admits(*object)) controller_.loop_.Enqueue(key, *lane);
    }

   private:
    Controller& controller_;
  };

  struct SecondaryEventsBase {
    virtual ~SecondaryEventsBase() = default;
  };
  template <class S>
  class SecondaryEvents final : public SecondaryEventsBase, public EventHandler<S> {
   public:
    using Map = std::function<std::vector<std::string>(const Change<S>&)>;
    using typename EventHandler<S>::Ptr;
    SecondaryEvents(Controller& controller, Map map)
        : controller_(controller), map_(std::move(map)) {}
    void OnAdd(const Ptr& object) override { Queue({Change<S>::Type::kAdded, nullptr, *object}); }
    void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
      Queue({Change<S>::Type::kUpdated, old_object.get(), *new_object});
    }
    void OnDelete(const Ptr& object) override {
      Queue({Change<S>::Type::kDeleted, nullptr, *object});
    }

   private:
    void Queue(const Change<S>& change) {
      for (const std::string& key : map_(change)) controller_.Enqueue(key);
    }
    Controller& controller_;
    const Map map_;
  };

  template <class T>
  void AwaitSyncOf(const Informer<T>& informer) {
    cache_syncs_.push_back(
        [&informer](std::stop_token stop) { return informer.WaitForCacheSync(stop); });
  }

  bool Admits(const K& object) const { return !rules_.admits || rules_.admits(object); }
  Lane LaneOf(const K& object) const { return rules_.lane ? rules_.lane(object) : Lane::kNormal; }
  Lane LaneOfStored(const std::string& key) const {
    Ptr object = store_.GetByKey(key);
    return object ? LaneOf(*object) : Lane::kNormal;
  }
  ReconcileResult ReconcileKey(const std::string& key) {
    return reconcile_(key, store_.GetByKey(key));
  }

  InformerSet& informers_;
  Store<K>& store_;
  const PrimaryRules<K> rules_;
  const Reconcile reconcile_;
  std::vector<std::function<bool(std::stop_token)>> cache_syncs_;
  base::Notification synced_;  // the workers have started
  ReconcileLoop loop_;
  PrimaryEvents primary_events_;
  std::vector<std::unique_ptr<SecondaryEventsBase>> secondary_events_;
};

}  // namespace kube
