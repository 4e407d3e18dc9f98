// Informer<T>: one resource kept in a Store<T> by a Reflector<T> on a thread of
// its own, with the event handlers of whoever composes it (client-go's shared
// informer, kube-rs's reflector + watcher).
//
// Handlers are added before Start() and are called, in the order added, from
// the informer's threads (watch and resync; see EventHandler). Start() starts
// the thread; Stop() (or destruction) stops it and joins, after which no
// handler is called any more. HasSynced() turns true once the store holds a
// first complete list; WaitForCacheSync() blocks until then. The store belongs
// to the caller so that others read the very cache the informer fills; it and
// every handler must outlive the informer.
//
// Thread-safety: HasSynced, WaitForCacheSync and Stop may be called from any
// thread; AddEventHandler and Start from the owner's, Start at most once.
#pragma once

#include <stop_token>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/reflector.h"
#include "kube/runtime/store.h"

namespace kube {

template <class T>
class Informer {
 public:
  Informer(ListerWatcher<T>& source, Store<T>& store, ReflectorOptions options,
           base::Clock& clock = base::Clock::Real())
      : store_(store), reflector_(source, store, handlers_, options, clock) {}
  ~Informer() { Stop(); }
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  void AddEventHandler(EventHandler<T>& handler) { handlers_.Add(handler); }

  // An informer without handlers does not resync: there is nobody to tell.
  void Start() {
    thread_ =
        std::jthread([this](std::stop_token stop) { reflector_.Run(stop, handlers_.HasAny()); });
  }
  void Stop() {
    thread_.request_stop();
    if (thread_.joinable()) thread_.join();
  }

  Store<T>& store() const { return store_; }

  bool HasSynced() const { return reflector_.HasSynced(); }
  // Blocks until HasSynced() or `stop`; returns HasSynced().
  bool WaitForCacheSync(std::stop_token stop) const { return reflector_.WaitForSync(stop); }

 private:
  // Hands each event to every handler added; none added means nobody is told.
  class Handlers final : public EventHandler<T> {
   public:
    using typename EventHandler<T>::Ptr;
    void Add(EventHandler<T>& handler) { handlers_.push_back(&handler); }
    bool HasAny() const { return !handlers_.empty(); }
    void OnAdd(const Ptr& object) override {
      for (EventHandler<T>* handler : handlers_) handler->OnAdd(object);
    }
    void OnUpdate(const Ptr& old_object, const Ptr& new_object) override {
      for (EventHandler<T>* handler : handlers_) handler->OnUpdate(old_object, new_object);
    }
    void OnDelete(const Ptr& last_known) override {
      for (EventHandler<T>* handler : handlers_) handler->OnDelete(last_known);
    }
    void OnRelisted() override {
      for (EventHandler<T>* handler : handlers_) handler->OnRelisted();
    }

   private:
    std::vector<EventHandler<T>*> handlers_;  // fixed once the informer starts
  };

  Store<T>& store_;
  Handlers handlers_;  // before reflector_, which holds a reference to it
  Reflector<T> reflector_;
  std::jthread thread_;  // last: stops and joins before the rest goes
};

// Blocks until every informer has synced or `stop`; returns whether all have.
template <class... Informers>
bool WaitForCacheSync(std::stop_token stop, const Informers&... informers) {
  return (informers.WaitForCacheSync(stop) && ...);
}

}  // namespace kube
