// ObjectWatch<T>: lists every object of kind T (all namespaces), then watches
// from the list's resourceVersion on its own thread, resuming a watch the
// server ends, and hands each object to a callback (deleted = it came in a
// DELETED event). Shared by the observers that time a run and by the floor
// controllers. Stops and joins when destroyed.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

#include "base/result.h"
#include "kube/client/client.h"

namespace bench {

template <class T>
class ObjectWatch {
 public:
  using Callback = std::function<void(const T& object, bool deleted)>;

  // The initial list is handed to `callback` before Start returns.
  static base::Result<std::unique_ptr<ObjectWatch>> Start(kube::Client& client, Callback callback) {
    std::unique_ptr<ObjectWatch> watch(new ObjectWatch(client, std::move(callback)));
    auto list = client.List<T>("");
    if (!list.ok()) return list.error().Wrap("listing " + std::string(T::kFacts.plural));
    for (const auto& object : list->items) watch->callback_(object, false);
    watch->watcher_ = std::jthread([w = watch.get(), rv = list->metadata.resource_version](
                                       std::stop_token stop) { w->WatchLoop(stop, rv); });
    return watch;
  }

  ~ObjectWatch() {
    watcher_.request_stop();
    if (watcher_.joinable()) watcher_.join();
  }

 private:
  ObjectWatch(kube::Client& client, Callback callback)
      : client_(client), callback_(std::move(callback)) {}

  void WatchLoop(std::stop_token stop, std::string resource_version) {
    // A benchmark never runs long enough for its resourceVersion to be
    // compacted away, so a resumed watch needs no relist.
    while (!stop.stop_requested()) {
      kube::WatchOptions options;
      options.resource_version = resource_version;
      options.timeout_seconds = 3600;
      std::function<bool(kube::WatchEvent<T> &&)> on_event = [&](kube::WatchEvent<T>&& event) {
        if (event.type == kube::WatchEventType::kError) return false;
        resource_version = event.object.metadata.resource_version;
        if (event.type == kube::WatchEventType::kBookmark) return true;
        callback_(event.object, event.type == kube::WatchEventType::kDeleted);
        return true;
      };
      auto status = client_.Watch<T>("", options, on_event, stop);
      if (!status.ok() && !stop.stop_requested()) {
        std::fprintf(stderr, "bench: %.*s watch failed: %s\n",
                     static_cast<int>(T::kFacts.kind.size()), T::kFacts.kind.data(),
                     status.error().message.c_str());
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
    }
  }

  kube::Client& client_;
  Callback callback_;
  std::jthread watcher_;
};

}  // namespace bench
