// Reflector<T>: keeps a Store<T> equal to the API server's view of one resource
// and reports every change to an EventHandler<T>.
//
// The store is filled by a list, then kept current by a watch from the list's
// resourceVersion. The list is a streaming list (WatchList) when the server
// supports it: one watch whose initial events are gathered aside and replace
// the store at the initial-events-end bookmark, after which the same watch goes
// on. A server that rejects it (400/422) gets paged LISTs from then on; a
// stream that ends before the bookmark is followed by one paged LIST.
// A watch that ends is resumed from the last resourceVersion seen (events or
// bookmarks); a 410 Gone (resourceVersion compacted away) triggers a fresh list
// whose differences to the cache become add/update/delete events, so nothing is
// missed and nothing is reported twice. Errors back off exponentially (initial
// → max, reset by success), except a refused connection: a server that is
// down or restarting is tried again at the initial interval. Every resync period, OnUpdate(obj,
// obj) is called for each cached object. HasSynced() turns true after the first complete list;
// WaitForSync() blocks until then. After a list of at least
// kReleaseMemoryAfterListOf objects, the heap's free pages go back to the
// system (base::ReleaseFreeHeapMemory): what building the list freed lies
// between the objects the store keeps and would otherwise stay resident.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <stop_token>
#include <string>
#include <thread>

#include "base/clock.h"
#include "base/heap.h"
#include "base/log.h"
#include "base/notification.h"
#include "kube/client/api_error.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/lister_watcher.h"
#include "kube/runtime/store.h"

namespace kube {

struct ReflectorOptions {
  std::chrono::milliseconds resync_period{0};  // 0 = no resync
  int64_t page_size = 500;                     // list paging; 0 = one page
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_max{30000};
  int min_watch_timeout_seconds = 300;  // each watch lasts a random time in
                                        // [min, 2*min) so reconnects spread out
  bool watch_list = true;               // lists are streaming lists (WatchList)
                                        // while the server accepts them
};

template <class T>
class Reflector {
 public:
  using Ptr = std::shared_ptr<const T>;
  // About 1 MB of cached objects: below that, a trim costs more than it returns.
  static constexpr size_t kReleaseMemoryAfterListOf = 1000;

  Reflector(ListerWatcher<T>& source, Store<T>& store, EventHandler<T>& handler,
            ReflectorOptions options, base::Clock& clock = base::Clock::Real())
      : source_(source), store_(store), handler_(handler), options_(options), clock_(clock) {}

  // Blocks until `stop` is requested. Without `resync`, no resync runs
  // whatever the options say.
  void Run(std::stop_token stop, bool resync_too = true) {
    std::jthread resync;
    if (resync_too && options_.resync_period.count() > 0) {
      resync = std::jthread([this](std::stop_token s) { ResyncLoop(s); });
    }
    std::stop_callback stop_resync(stop, [&] { resync.request_stop(); });
    auto backoff = options_.backoff_initial;
    bool refused_before = false;  // since the last success
    base::Clock::TimePoint last_refused{};
    while (!stop.stop_requested()) {
      base::Status status =
          need_list_ ? ListAndReplace(stop) : WatchOnce(stop, /*stream_list=*/false);
      if (status.ok()) {
        backoff = options_.backoff_initial;
        refused_before = false;
        continue;
      }
      if (stop.stop_requested()) break;
      if (IsGone(status.error()) && !need_list_) {
        LOG_V(2, "Watch resourceVersion too old, relisting")
            .With("resource", ResourceTraits<T>::kPlural);
        need_list_ = true;
        continue;
      }
      // Not a watch that ended: the server failed or went away, and what it
      // applied meanwhile (our own writes whose answers were lost among it)
      // is read afresh by a list, not assumed from where the watch stopped.
      need_list_ = true;
      LOG_ERROR("Failed to list or watch, retrying")
          .With("resource", ResourceTraits<T>::kPlural)
          .With("err", status.error().message)
          .With("backoff", std::to_string(backoff.count()) + "ms");
      clock_.SleepFor(backoff, stop);
      // A server nothing listens for (down, restarting) is looked for again
      // at the initial interval, so the cache catches up within it of the
      // server's return, not after a backoff grown while it was away. So is
      // one that refused connections less than backoff_max ago: a restarted
      // API server answers errors while it warms up (403 until its
      // authorizer has synced, 429 "storage is (re)initializing" with
      // Retry-After 1 while its watch cache fills, which client-go's REST
      // client honours without growing the reflector's backoff). Any other
      // error backs off exponentially.
      if (IsConnectionRefused(status.error())) {
        refused_before = true;
        last_refused = clock_.Now();
      }
      const bool warming_up = refused_before && clock_.Now() - last_refused < options_.backoff_max;
      backoff = warming_up ? options_.backoff_initial : std::min(backoff * 2, options_.backoff_max);
    }
  }

  bool HasSynced() const { return synced_.HasBeenNotified(); }
  // Blocks until HasSynced() or `stop`; returns HasSynced().
  bool WaitForSync(std::stop_token stop) const { return synced_.WaitForNotification(stop); }

  std::string LastResourceVersion() const {
    std::lock_guard lock(rv_mu_);
    return last_rv_;
  }

 private:
  void SetResourceVersion(std::string rv) {
    std::lock_guard lock(rv_mu_);
    last_rv_ = std::move(rv);
  }

  // Fills the store from a complete list: a streaming list that then goes on
  // watching, else a paged LIST.
  base::Status ListAndReplace(std::stop_token stop) {
    if (!watch_list_) return PagedListAndReplace(stop);
    auto status = WatchOnce(stop, /*stream_list=*/true);
    if (!need_list_ || stop.stop_requested()) return status;
    if (status.ok()) {
      // E.g. a server that ignores sendInitialEvents and let the watch time out.
      LOG_V(2, "Watch list ended before its initial-events-end bookmark, listing")
          .With("resource", ResourceTraits<T>::kPlural);
      return PagedListAndReplace(stop);
    }
    if (status.error().IsHttp(400) || status.error().IsHttp(422)) {
      // The server does not know streaming lists or has them turned off.
      LOG_V(2, "Watch list rejected, using paged lists")
          .With("resource", ResourceTraits<T>::kPlural)
          .With("err", status.error().message);
      watch_list_ = false;
      return PagedListAndReplace(stop);
    }
    return status;
  }

  base::Status PagedListAndReplace(std::stop_token stop) {
    ListOptions options;
    options.limit = options_.page_size;
    std::vector<Ptr> items;
    while (true) {
      auto page = source_.List(options);
      if (!page.ok()) {
        if (IsGone(page.error()) && !options.continue_token.empty()) {
          // The continue token expired mid-list: start over in one page.
          LOG_V(2, "List continue token expired, listing without paging")
              .With("resource", ResourceTraits<T>::kPlural);
          items.clear();
          options = ListOptions();
          continue;
        }
        return page.error().Wrap(std::string("listing ") + std::string(ResourceTraits<T>::kPlural));
      }
      for (auto& item : page->items) items.push_back(std::make_shared<const T>(std::move(item)));
      if (page->metadata.continue_token.empty()) {
        Replace(std::move(items), std::move(page->metadata.resource_version));
        return {};
      }
      if (stop.stop_requested()) return {};
      options.continue_token = page->metadata.continue_token;
    }
  }

  // Swaps in a complete list taken at `rv` and reports how it differs from the
  // old content.
  void Replace(std::vector<Ptr> items, std::string rv) {
    const size_t count = items.size();
    SwapInAndReport(std::move(items), std::move(rv));
    // Only now are the list's transient parts (and the old content, unless a
    // handler holds it) freed.
    if (count >= kReleaseMemoryAfterListOf) base::ReleaseFreeHeapMemory();
  }

  void SwapInAndReport(std::vector<Ptr> items, std::string rv) {
    std::vector<Ptr> fresh = items;
    const bool relist = synced_.HasBeenNotified();
    auto old = store_.Replace(std::move(items));
    for (const auto& object : fresh) {
      auto it = old.find(Store<T>::ViewOf(*object));
      if (it == old.end()) {
        handler_.OnAdd(object);
        continue;
      }
      if (it->second->metadata.resource_version != object->metadata.resource_version) {
        handler_.OnUpdate(it->second, object);
      }
      old.erase(it);
    }
    for (const auto& [key, gone] : old) handler_.OnDelete(gone);
    SetResourceVersion(std::move(rv));
    need_list_ = false;
    synced_.Notify();
    if (relist) handler_.OnRelisted();
    LOG_V(4, "Listed").With("resource", ResourceTraits<T>::kPlural).With("count", fresh.size());
  }

  // One watch from the last resourceVersion, or with `stream_list` a streaming
  // list: its events build the new content aside (nothing is reported) until
  // the initial-events-end bookmark hands it to Replace; the watch then goes on.
  base::Status WatchOnce(std::stop_token stop, bool stream_list) {
    WatchOptions options;
    if (!stream_list) options.resource_version = LastResourceVersion();
    options.allow_bookmarks = true;
    options.send_initial_events = stream_list;
    options.timeout_seconds = WatchTimeoutSeconds();
    // Keyed and ordered like a LIST; changes may follow the initial ADDED
    // events before the bookmark.
    std::optional<std::map<std::string, Ptr>> initial;
    if (stream_list) initial.emplace();
    base::Error gone;
    std::function<bool(WatchEvent<T> &&)> on_event = [&](WatchEvent<T>&& event) {
      if (event.type == WatchEventType::kError) {
        gone = event.error;
        if (gone.code == 0) gone.code = 500;
        return false;
      }
      if (initial) {
        CollectInitialEvent(std::move(event), initial);
        return true;
      }
      switch (event.type) {
        case WatchEventType::kAdded:
        case WatchEventType::kModified: {
          std::string rv = event.object.metadata.resource_version;
          auto object = std::make_shared<const T>(std::move(event.object));
          auto previous = store_.Upsert(object);
          if (!previous) {
            handler_.OnAdd(object);
          } else if (previous->metadata.resource_version != rv) {
            handler_.OnUpdate(previous, object);
          }
          SetResourceVersion(std::move(rv));
          return true;
        }
        case WatchEventType::kDeleted: {
          std::string rv = event.object.metadata.resource_version;
          auto object = std::make_shared<const T>(std::move(event.object));
          if (store_.Remove(*object)) handler_.OnDelete(object);
          SetResourceVersion(std::move(rv));
          return true;
        }
        case WatchEventType::kBookmark:
          SetResourceVersion(event.object.metadata.resource_version);
          return true;
        case WatchEventType::kError:
          break;
      }
      return false;
    };
    auto status = source_.Watch(options, on_event, stop);
    if (!gone.message.empty() || gone.code != 0) return gone.Wrap("watch error event");
    return status;
  }

  // Before the initial-events-end bookmark, resourceVersions mean nothing yet:
  // objects only go into (or out of) the content being built.
  void CollectInitialEvent(WatchEvent<T>&& event,
                           std::optional<std::map<std::string, Ptr>>& initial) {
    switch (event.type) {
      case WatchEventType::kAdded:
      case WatchEventType::kModified: {
        std::string key = Store<T>::KeyOf(event.object);
        (*initial)[std::move(key)] = std::make_shared<const T>(std::move(event.object));
        return;
      }
      case WatchEventType::kDeleted:
        initial->erase(Store<T>::KeyOf(event.object));
        return;
      case WatchEventType::kBookmark:
        if (IsInitialEventsEnd(event)) {
          std::vector<Ptr> items;
          items.reserve(initial->size());
          for (auto& [key, object] : *initial) items.push_back(std::move(object));
          initial.reset();
          Replace(std::move(items), std::move(event.object.metadata.resource_version));
        }
        return;
      case WatchEventType::kError:
        return;
    }
  }

  int WatchTimeoutSeconds() {
    std::uniform_int_distribution<int> pick(options_.min_watch_timeout_seconds,
                                            2 * options_.min_watch_timeout_seconds - 1);
    return pick(random_);
  }

  void ResyncLoop(std::stop_token stop) {
    while (clock_.SleepFor(options_.resync_period, stop)) {
      if (!HasSynced()) continue;
      for (const auto& object : store_.List()) handler_.OnUpdate(object, object);
    }
  }

  ListerWatcher<T>& source_;
  Store<T>& store_;
  EventHandler<T>& handler_;
  const ReflectorOptions options_;
  base::Clock& clock_;
  base::Notification synced_;
  bool need_list_ = true;                  // Run's thread only: the store is stale
  bool watch_list_ = options_.watch_list;  // Run's thread only: false once rejected
  mutable std::mutex rv_mu_;  // guards last_rv_ (read by tests/metrics, written by Run)
  std::string last_rv_;
  std::minstd_rand random_{std::random_device{}()};
};

}  // namespace kube
