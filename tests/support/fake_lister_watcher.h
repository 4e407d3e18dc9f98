// FakeListerWatcher<T>: a scripted ListerWatcher for controller unit tests.
// It lists its items in one page, or as the initial events of a streaming
// list; then each Watch delivers what Send() queues and otherwise idles until
// stopped, or until BreakWatch() makes it fail as a lost connection does. The
// first FailLists(n) lists (of either kind) fail. Waits on it are
// real-time thread hand-offs, bounded by kHandOffTimeout. Header-only: unit
// test binaries that do not link the test support library use it too.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <vector>

#include "kube/runtime/lister_watcher.h"
#include "tests/support/hand_off.h"

namespace testsupport {

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

  // The watch (this one or the next) fails with a transport error once the
  // events sent before are delivered.
  void BreakWatch() {
    std::lock_guard lock(mu_);
    ++watch_breaks_;
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
    while (cv_.wait(lock, stop, [&] { return !events_.empty() || watch_breaks_ > 0; })) {
      if (events_.empty()) {
        --watch_breaks_;
        return base::Error::Transport("scripted watch break: connection lost");
      }
      kube::WatchEvent<T> event = std::move(events_.front());
      events_.pop_front();
      lock.unlock();
      on_event(std::move(event));
      lock.lock();
      ++delivered_;
      cv_.notify_all();
    }
    return {};
  }

  // Waits until the reflector has handled `n` of the Send() events: its store
  // and its event handler are done with them.
  bool AwaitDelivered(int n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return delivered_ >= n; });
  }

 private:
  base::Result<kube::ObjectList<T>> ListLocked() {
    if (list_failures_ > 0) {
      --list_failures_;
      return base::Error::Http(500, "scripted list failure");
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
  int delivered_ = 0;                       // guarded by mu_
  int watch_breaks_ = 0;                    // guarded by mu_
};

}  // namespace testsupport
