// What integration tests keep asking a test cluster: a client whose rate
// limiter never slows a test, the Events about one object, and polls until a
// condition holds (every 100 ms, one last try at the deadline).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/event.h"
#include "kube/client/client.h"

namespace testsupport {

// A client for `kubeconfig` with QPS and burst 1000.
base::Result<std::unique_ptr<kube::Client>> TestClient(const std::string& kubeconfig);

// Polls `condition` until it holds or `timeout` passes; whether it held.
bool PollUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout);

// The Events in `ns` about the object of `kind` named `name` (none when the
// list fails). Events about cluster-scoped objects are in "default".
std::vector<kube::Event> EventsAbout(kube::Client& client, const std::string& ns,
                                     const std::string& kind, const std::string& name);

// Polls until an Event with `reason` about that object exists; the last one
// listed, or nullopt after `timeout`.
std::optional<kube::Event> AwaitEvent(kube::Client& client, const std::string& ns,
                                      const std::string& kind, const std::string& name,
                                      const std::string& reason, std::chrono::milliseconds timeout);

}  // namespace testsupport
