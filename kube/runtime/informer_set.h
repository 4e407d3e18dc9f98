// InformerSet: the process's informers, one per kind and label selector,
// shared by every controller that watches or reads that kind (client-go's
// SharedInformerFactory). A process that runs the attacher and the
// provisioner caches its PersistentVolumes once.
//
// Get<T>(selector) makes the informer on first use - its Store, and its
// source: a ClientListerWatcher over the set's Client, or the source given
// to UseSource<T> for that selector (tests' fakes). Every informer of the
// set lists and watches all namespaces with the set's ReflectorOptions.
//
// Life cycle: controllers take their informers and add their event handlers
// while they are built; Start() then starts every informer made so far (an
// informer made later is started by the next Start()). Stop() (or
// destruction) stops and joins them all. Stores and informers live as long
// as the set.
//
// Thread-safety: Get, UseSource and Start from the owner's thread, before
// the controllers run; HasSynced, WaitForCacheSync and Stop from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>

#include "base/clock.h"
#include "kube/client/client.h"
#include "kube/runtime/informer.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/reflector.h"
#include "kube/runtime/store.h"

namespace kube {

class InformerSet {
 public:
  // The client a kind's informer lists and watches through (a process may
  // give each API group a client, and so a QPS budget, of its own).
  using ClientFor = std::function<Client&(const KindFacts& kind)>;

  // Sources list and watch through `client`, which must outlive the set.
  explicit InformerSet(Client& client, ReflectorOptions options = {},
                       base::Clock& clock = base::Clock::Real())
      : InformerSet([&client](const KindFacts&) -> Client& { return client; }, options, clock) {}
  // Sources list and watch through the client `client_for` names; every
  // client must outlive the set.
  InformerSet(ClientFor client_for, ReflectorOptions options,
              base::Clock& clock = base::Clock::Real())
      : client_for_(std::move(client_for)), options_(options), clock_(clock) {}
  // No client: every kind must be given its source with UseSource first.
  explicit InformerSet(ReflectorOptions options = {}, base::Clock& clock = base::Clock::Real())
      : options_(options), clock_(clock) {}
  ~InformerSet() { Stop(); }
  InformerSet(const InformerSet&) = delete;
  InformerSet& operator=(const InformerSet&) = delete;

  // The informer of kind T with `label_selector` lists and watches `source`,
  // which must outlive the set. Before that informer is first taken.
  template <class T>
  void UseSource(ListerWatcher<T>& source, std::string_view label_selector = {}) {
    std::lock_guard lock(mu_);
    Emplace<T>(source, nullptr, label_selector);
  }

  // The informer of kind T with `label_selector`, made on first use.
  template <class T>
  Informer<T>& Get(std::string_view label_selector = {}) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(KeyOf<T>(label_selector));
    if (it != entries_.end()) return static_cast<Entry<T>&>(*it->second).informer;
    if (!client_for_) {
      throw std::logic_error("InformerSet: no source for " + std::string(T::kFacts.kind));
    }
    auto source = std::make_unique<ClientListerWatcher<T>>(client_for_(T::kFacts), "",
                                                           std::string(label_selector));
    ListerWatcher<T>& source_ref = *source;
    return Emplace<T>(source_ref, std::move(source), label_selector).informer;
  }

  template <class T>
  Store<T>& StoreOf(std::string_view label_selector = {}) {
    return Get<T>(label_selector).store();
  }

  // Whether the informer of kind T with `label_selector` has been made.
  template <class T>
  bool Contains(std::string_view label_selector = {}) {
    std::lock_guard lock(mu_);
    return entries_.contains(KeyOf<T>(label_selector));
  }

  // Starts every informer not started yet.
  void Start() {
    std::lock_guard lock(mu_);
    for (auto& [key, entry] : entries_) {
      if (!entry->started) entry->Start();
    }
  }
  // Stops and joins every informer; no event handler is called after.
  void Stop() {
    std::lock_guard lock(mu_);
    for (auto& [key, entry] : entries_) entry->Stop();
  }

 private:
  using Key = std::pair<std::type_index, std::string>;

  struct EntryBase {
    virtual ~EntryBase() = default;
    virtual void Start() = 0;
    virtual void Stop() = 0;
    bool started = false;
  };
  template <class T>
  struct Entry final : EntryBase {
    Entry(ListerWatcher<T>& source, std::unique_ptr<ListerWatcher<T>> owned,
          ReflectorOptions options, base::Clock& clock)
        : owned_source(std::move(owned)), informer(source, store, options, clock) {}
    void Start() override {
      started = true;
      informer.Start();
    }
    void Stop() override { informer.Stop(); }

    std::unique_ptr<ListerWatcher<T>> owned_source;  // null when the caller's
    Store<T> store;
    Informer<T> informer;  // after store, which it fills
  };

  template <class T>
  static Key KeyOf(std::string_view label_selector) {
    return {std::type_index(typeid(T)), std::string(label_selector)};
  }

  template <class T>
  Entry<T>& Emplace(ListerWatcher<T>& source, std::unique_ptr<ListerWatcher<T>> owned,
                    std::string_view label_selector) {
    auto entry = std::make_unique<Entry<T>>(source, std::move(owned), options_, clock_);
    Entry<T>& ref = *entry;
    auto [it, inserted] = entries_.try_emplace(KeyOf<T>(label_selector), std::move(entry));
    if (!inserted) {
      throw std::logic_error("InformerSet: " + std::string(T::kFacts.kind) +
                             " informer made before its source was given");
    }
    return ref;
  }

  const ClientFor client_for_;  // empty: sources only from UseSource
  const ReflectorOptions options_;
  base::Clock& clock_;
  std::mutex mu_;  // guards entries_
  std::map<Key, std::unique_ptr<EntryBase>> entries_;
};

}  // namespace kube
