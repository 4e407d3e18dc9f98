// Reflector<T>: keeps a Store<T> equal to the API server's view of one resource
// and reports every change to an EventHandler<T>.
//
// List (paged) then watch from the list's resourceVersion; a watch that ends
// is resumed from the last resourceVersion seen (events or bookmarks); a 410
// Gone (resourceVersion compacted away) triggers a fresh list whose differences
// to the cache become add/update/delete events, so nothing is missed and nothing
// is reported twice. Errors back off exponentially (initial → max, reset by
// success). Every resync period, OnUpdate(obj, obj) is called for each cached
// object. HasSynced() turns true after the first complete list.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <stop_token>
#include <string>
#include <thread>

#include "base/clock.h"
#include "base/log.h"
#include "kube/api_error.h"
#include "kube/event_handler.h"
#include "kube/lister_watcher.h"
#include "kube/store.h"

namespace kube {

struct ReflectorOptions {
  std::chrono::milliseconds resync_period{0};      // 0 = no resync
  int64_t page_size = 500;                         // list paging; 0 = one page
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_max{30000};
  int min_watch_timeout_seconds = 300;             // each watch lasts a random time in
                                                   // [min, 2*min) so reconnects spread out
};

template <class T>
class Reflector {
 public:
  using Ptr = std::shared_ptr<const T>;

  Reflector(ListerWatcher<T>& source, Store<T>& store, EventHandler<T>& handler, ReflectorOptions options,
            base::Clock& clock = base::Clock::Real())
      : source_(source), store_(store), handler_(handler), options_(options), clock_(clock) {}

  // Blocks until `stop` is requested.
  void Run(std::stop_token stop) {
    std::jthread resync;
    if (options_.resync_period.count() > 0) {
      resync = std::jthread([this](std::stop_token s) { ResyncLoop(s); });
    }
    std::stop_callback stop_resync(stop, [&] { resync.request_stop(); });
    auto backoff = options_.backoff_initial;
    bool need_list = true;
    while (!stop.stop_requested()) {
      base::Status status;
      if (need_list) {
        status = ListAndReplace(stop);
        need_list = !status.ok();
      } else {
        status = WatchOnce(stop);
        if (!status.ok() && IsGone(status.error())) {
          LOG_V(2, "Watch resourceVersion too old, relisting")
              .With("resource", ResourceTraits<T>::kPlural);
          need_list = true;
          continue;
        }
      }
      if (status.ok()) {
        backoff = options_.backoff_initial;
        continue;
      }
      if (stop.stop_requested()) break;
      LOG_ERROR("Failed to list or watch, retrying")
          .With("resource", ResourceTraits<T>::kPlural)
          .With("err", status.error().message)
          .With("backoff", std::to_string(backoff.count()) + "ms");
      clock_.SleepFor(backoff, stop);
      backoff = std::min(backoff * 2, options_.backoff_max);
    }
  }

  bool HasSynced() const { return synced_.load(); }

  std::string LastResourceVersion() const {
    std::lock_guard lock(rv_mu_);
    return last_rv_;
  }

 private:
  void SetResourceVersion(std::string rv) {
    std::lock_guard lock(rv_mu_);
    last_rv_ = std::move(rv);
  }

  base::Status ListAndReplace(std::stop_token stop) {
    ListOptions options;
    options.limit = options_.page_size;
    std::vector<Ptr> items;
    std::string rv;
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
        rv = page->metadata.resource_version;
        break;
      }
      if (stop.stop_requested()) return {};
      options.continue_token = page->metadata.continue_token;
    }
    // Diff against the old content before handing out events.
    std::vector<Ptr> fresh = items;
    auto old = store_.Replace(std::move(items));
    for (const auto& object : fresh) {
      auto it = old.find(Store<T>::KeyOf(*object));
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
    synced_ = true;
    LOG_V(4, "Listed").With("resource", ResourceTraits<T>::kPlural).With("count", fresh.size());
    return {};
  }

  base::Status WatchOnce(std::stop_token stop) {
    WatchOptions options;
    options.resource_version = LastResourceVersion();
    options.allow_bookmarks = true;
    options.timeout_seconds = WatchTimeoutSeconds();
    base::Error gone;
    std::function<bool(WatchEvent<T>&&)> on_event = [&](WatchEvent<T>&& event) {
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
          gone = event.error;
          if (gone.code == 0) gone.code = 500;
          return false;
      }
      return false;
    };
    auto status = source_.Watch(options, on_event, stop);
    if (!gone.message.empty() || gone.code != 0) return gone.Wrap("watch error event");
    return status;
  }

  int WatchTimeoutSeconds() {
    std::uniform_int_distribution<int> pick(options_.min_watch_timeout_seconds,
                                            2 * options_.min_watch_timeout_seconds - 1);
    return pick(random_);
  }

  void ResyncLoop(std::stop_token stop) {
    while (clock_.SleepFor(options_.resync_period, stop)) {
      if (!synced_) continue;
      for (const auto& object : store_.List()) handler_.OnUpdate(object, object);
    }
  }

  ListerWatcher<T>& source_;
  Store<T>& store_;
  EventHandler<T>& handler_;
  const ReflectorOptions options_;
  base::Clock& clock_;
  std::atomic<bool> synced_{false};
  mutable std::mutex rv_mu_;  // guards last_rv_ (read by tests/metrics, written by Run)
  std::string last_rv_;
  std::minstd_rand random_{std::random_device{}()};
};

}  // namespace kube
