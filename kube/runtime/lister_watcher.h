// ListerWatcher<T>: the two API calls a Reflector needs, behind an interface
// so the reflector's list/watch/relist logic is unit-tested against a scripted
// fake while production uses the real Client.
#pragma once

#include <functional>
#include <stop_token>
#include <string>

#include "base/result.h"
#include "kube/client/client.h"

namespace kube {

template <class T>
class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  virtual base::Result<ObjectList<T>> List(const ListOptions& options) = 0;
  // Same contract as Client::Watch.
  virtual base::Status Watch(const WatchOptions& options,
                             const std::function<bool(WatchEvent<T>&&)>& on_event,
                             std::stop_token stop) = 0;
};

// Lists and watches one namespace ("" = all) through a Client. A non-empty
// `label_selector` (client-go's WithTweakListOptions) goes on every list and
// watch, so the store only ever holds the objects it selects.
template <class T>
class ClientListerWatcher final : public ListerWatcher<T> {
 public:
  ClientListerWatcher(Client& client, std::string ns, std::string label_selector = {})
      : client_(client), ns_(std::move(ns)), label_selector_(std::move(label_selector)) {}

  base::Result<ObjectList<T>> List(const ListOptions& options) override {
    ListOptions selected = options;
    selected.label_selector = label_selector_;
    return client_.List<T>(ns_, selected);
  }
  base::Status Watch(const WatchOptions& options,
                     const std::function<bool(WatchEvent<T>&&)>& on_event,
                     std::stop_token stop) override {
    WatchOptions selected = options;
    selected.label_selector = label_selector_;
    return client_.Watch<T>(ns_, selected, on_event, stop);
  }

 private:
  Client& client_;
  const std::string ns_;
  const std::string label_selector_;
};

}  // namespace kube
