// A scripted API server for the reflector and informer tests: VolumeAttachment
// builders, a ListerWatcher that answers from a script, and an EventHandler
// that records what it is told. Waits are real-time thread hand-offs, bounded
// by kHandOffTimeout; time itself comes from a FakeClock.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/api/storage/v1/volume_attachment.h"
#include "kube/runtime/event_handler.h"
#include "kube/runtime/lister_watcher.h"
#include "tests/support/hand_off.h"

namespace kube::testing {

using VA = VolumeAttachment;

using testsupport::kHandOffTimeout;

inline VA MakeVa(std::string name, std::string rv) {
  VA va;
  va.metadata.name = std::move(name);
  va.metadata.resource_version = std::move(rv);
  return va;
}

inline ObjectList<VA> Page(std::vector<VA> items, std::string rv, std::string continue_token = "") {
  ObjectList<VA> list;
  list.items = std::move(items);
  list.metadata.resource_version = std::move(rv);
  list.metadata.continue_token = std::move(continue_token);
  return list;
}

inline WatchEvent<VA> MakeEvent(WatchEventType type, VA va) {
  WatchEvent<VA> e;
  e.type = type;
  e.object = std::move(va);
  return e;
}

// A scripted API: each List/Watch call pops the next scripted answer; a Watch
// with nothing scripted blocks until stopped, like an idle watch.
class ScriptedListerWatcher final : public ListerWatcher<VA> {
 public:
  struct WatchScript {
    std::vector<WatchEvent<VA>> events;
    base::Status end;  // returned after the events
  };

  void ScriptList(base::Result<ObjectList<VA>> answer) {
    std::lock_guard lock(mu_);
    lists_.push_back(std::move(answer));
  }
  void ScriptWatch(WatchScript script) {
    std::lock_guard lock(mu_);
    watches_.push_back(std::move(script));
    cv_.notify_all();
  }

  base::Result<ObjectList<VA>> List(const ListOptions& options) override {
    std::lock_guard lock(mu_);
    list_calls_.push_back(options);
    cv_.notify_all();
    if (lists_.empty()) return base::Error::Http(500, "no scripted list");
    auto answer = std::move(lists_.front());
    lists_.pop_front();
    return answer;
  }

  base::Status Watch(const WatchOptions& options,
                     const std::function<bool(WatchEvent<VA>&&)>& on_event,
                     std::stop_token stop) override {
    WatchScript script;
    {
      std::unique_lock lock(mu_);
      watch_calls_.push_back(options);
      ++watching_;
      cv_.notify_all();
      cv_.wait(lock, stop, [&] { return !watches_.empty(); });
      if (stop.stop_requested()) {
        --watching_;
        return {};
      }
      script = std::move(watches_.front());
      watches_.pop_front();
    }
    for (auto& e : script.events) {
      if (!on_event(std::move(e))) break;
    }
    std::lock_guard lock(mu_);
    --watching_;
    return script.end;
  }

  std::vector<ListOptions> list_calls() {
    std::lock_guard lock(mu_);
    return list_calls_;
  }
  std::vector<WatchOptions> watch_calls() {
    std::lock_guard lock(mu_);
    return watch_calls_;
  }
  // Waits (real time, bounded) until List has been called n times.
  bool AwaitListCalls(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return list_calls_.size() >= n; });
  }
  // Whether a Watch call is in progress.
  bool watching() {
    std::lock_guard lock(mu_);
    return watching_ > 0;
  }
  // Waits (real time, bounded) until Watch has been called n times.
  bool AwaitWatchCalls(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return watch_calls_.size() >= n; });
  }

 private:
  std::mutex mu_;
  std::condition_variable_any cv_;
  std::deque<base::Result<ObjectList<VA>>> lists_;
  std::deque<WatchScript> watches_;
  std::vector<ListOptions> list_calls_;
  std::vector<WatchOptions> watch_calls_;
  int watching_ = 0;
};

class RecordingHandler final : public EventHandler<VA> {
 public:
  void OnAdd(const Ptr& o) override { Record("add " + o->metadata.name); }
  void OnUpdate(const Ptr& a, const Ptr& b) override {
    Record("update " + b->metadata.name + " " + a->metadata.resource_version + "->" +
           b->metadata.resource_version);
  }
  void OnDelete(const Ptr& o) override { Record("delete " + o->metadata.name); }
  void OnRelisted() override { Record("relisted"); }

  std::vector<std::string> events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  bool AwaitCount(size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kHandOffTimeout, [&] { return events_.size() >= n; });
  }

 private:
  void Record(std::string e) {
    std::lock_guard lock(mu_);
    events_.push_back(std::move(e));
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> events_;
};

}  // namespace kube::testing
