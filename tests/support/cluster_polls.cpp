#include "tests/support/cluster_polls.h"

#include <thread>

#include "kube/client/config.h"

namespace testsupport {

base::Result<std::unique_ptr<kube::Client>> TestClient(const std::string& kubeconfig) {
  auto config = kube::LoadKubeconfig(kubeconfig);
  if (!config.ok()) return config.error();
  config->qps = 1000;
  config->burst = 1000;
  return kube::Client::Create(*config);
}

bool PollUntil(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  for (auto deadline = std::chrono::steady_clock::now() + timeout;
       std::chrono::steady_clock::now() < deadline;
       std::this_thread::sleep_for(std::chrono::milliseconds(100))) {
    if (condition()) return true;
  }
  return condition();
}

std::vector<kube::Event> EventsAbout(kube::Client& client, const std::string& ns,
                                     const std::string& kind, const std::string& name) {
  std::vector<kube::Event> found;
  auto events = client.List<kube::Event>(ns);
  if (!events.ok()) return found;
  for (auto& event : events->items) {
    if (event.involved_object.kind == kind && event.involved_object.name == name) {
      found.push_back(std::move(event));
    }
  }
  return found;
}

std::optional<kube::Event> AwaitEvent(kube::Client& client, const std::string& ns,
                                      const std::string& kind, const std::string& name,
                                      const std::string& reason,
                                      std::chrono::milliseconds timeout) {
  std::optional<kube::Event> found;
  PollUntil(
      [&] {
        for (auto& event : EventsAbout(client, ns, kind, name)) {
          if (event.reason == reason) found = std::move(event);
        }
        return found.has_value();
      },
      timeout);
  return found;
}

}  // namespace testsupport
