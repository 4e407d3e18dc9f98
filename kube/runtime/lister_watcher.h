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

// Lists and watches one namespace ("" = all) through a Client.
template <class T>
class ClientListerWatcher final : public ListerWatcher<T> {
 public:
  ClientListerWatcher(Client& client, std::string ns) : client_(client), ns_(std::move(ns)) {}

  base::Result<ObjectList<T>> List(const ListOptions& options) override {
    return client_.List<T>(ns_, options);
  }
  base::Status Watch(const WatchOptions& options,
                     const std::function<bool(WatchEvent<T>&&)>& on_event,
                     std::stop_token stop) override {
    return client_.Watch<T>(ns_, options, on_event, stop);
  }

 private:
  Client& client_;
  const std::string ns_;
};

}  // namespace kube
