// RunWithInformers: the last step of a process's start-up. Starts the
// InformerSet, runs each controller (anything with Run(std::stop_token)) on
// a thread of its own until `stop`, waits for all of them to return - their
// in-flight reconciles finished - and only then stops the informers, whose
// events feed the controllers until that moment.
#pragma once

#include <stop_token>
#include <thread>
#include <vector>

#include "kube/runtime/informer_set.h"

namespace kube {

template <class... Runnables>
void RunWithInformers(InformerSet& informers, std::stop_token stop, Runnables&... runnables) {
  informers.Start();
  {
    std::vector<std::jthread> threads;
    (threads.emplace_back([&runnables, stop] { runnables.Run(stop); }), ...);
  }
  informers.Stop();
}

}  // namespace kube
