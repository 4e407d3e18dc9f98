#include "tests/support/cluster_objects.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <thread>

namespace testsupport {
namespace {

using nlohmann::json;

constexpr char kJson[] = "application/json";
constexpr char kMergePatch[] = "application/merge-patch+json";

base::Status Post(kube::Client& client, const std::string& collection, const json& object) {
  auto body = client.Request("POST", collection, object.dump(), kJson);
  if (!body.ok()) {
    return body.error().Wrap(fmt::format("create {} {}", object.value("kind", "object"),
                                         object["metadata"].value("name", "")));
  }
  return {};
}

base::Result<json> GetJson(kube::Client& client, const std::string& path) {
  auto body = client.Request("GET", path);
  if (!body.ok()) return body.error().Wrap("GET " + path);
  json document = json::parse(*body, nullptr, false);
  if (document.is_discarded()) return base::Error("GET " + path + ": not JSON");
  return document;
}

// The object's status.phase once it is `phase`; an error naming what it is.
base::Status HasPhase(kube::Client& client, const std::string& path, const std::string& phase) {
  auto object = GetJson(client, path);
  if (!object.ok()) return object.error();
  const std::string now = object->value(json::json_pointer("/status/phase"), "");
  if (now != phase) return base::Error(fmt::format("{} is {}, not {}", path, now, phase));
  return {};
}

std::string NodePath(const std::string& node) { return "/api/v1/nodes/" + node; }

}  // namespace

std::string CsiVolumeName(const std::string& driver, const std::string& handle) {
  return fmt::format("kubernetes.io/csi/{}^{}", driver, handle);
}

base::Status CreateNode(kube::Client& client, const NodeObject& node) {
  json labels = node.labels;
  labels["kubernetes.io/hostname"] = node.name;
  labels["kubernetes.io/os"] = "linux";
  const json resources = {{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "110"}};
  const json object = {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata",
       {{"name", node.name},
        {"labels", labels},
        {"annotations", {{kControllerManagedAttachDetach, "true"}}}}},
      // Nodes take their status on creation, as a kubelet registers them.
      {"status",
       {{"capacity", resources},
        {"allocatable", resources},
        {"conditions", json::array({{{"type", "Ready"},
                                     {"status", "True"},
                                     {"reason", "KubeletReady"},
                                     {"message", "no kubelet: a test fixture"}}})},
        {"volumesInUse", node.volumes_in_use}}},
  };
  if (auto status = Post(client, "/api/v1/nodes", object); !status.ok()) return status;
  // Admission taints every new Node not-ready; only the node lifecycle
  // controller would take it off.
  auto patched =
      client.Request("PATCH", NodePath(node.name), R"({"spec":{"taints":null}})", kMergePatch);
  if (!patched.ok()) return patched.error().Wrap("untaint node " + node.name);
  return {};
}

base::Status SetVolumesInUse(kube::Client& client, const std::string& node,
                             const std::vector<std::string>& volume_names) {
  const json patch = {{"status", {{"volumesInUse", volume_names}}}};
  auto patched = client.Request("PATCH", NodePath(node) + "/status", patch.dump(), kMergePatch);
  if (!patched.ok()) return patched.error().Wrap("set volumesInUse of node " + node);
  return {};
}

base::Status CreateCsiNode(kube::Client& client, const std::string& node, const std::string& driver,
                           const std::string& node_id,
                           const std::vector<std::string>& topology_keys) {
  json entry = {{"name", driver}, {"nodeID", node_id}};
  if (!topology_keys.empty()) entry["topologyKeys"] = topology_keys;
  const json object = {
      {"apiVersion", "storage.k8s.io/v1"},
      {"kind", "CSINode"},
      {"metadata", {{"name", node}}},
      {"spec", {{"drivers", json::array({entry})}}},
  };
  return Post(client, "/apis/storage.k8s.io/v1/csinodes", object);
}

base::Status CreateCsiDriver(kube::Client& client, const std::string& driver,
                             bool attach_required) {
  const json object = {
      {"apiVersion", "storage.k8s.io/v1"},
      {"kind", "CSIDriver"},
      {"metadata", {{"name", driver}}},
      {"spec", {{"attachRequired", attach_required}, {"podInfoOnMount", false}}},
  };
  return Post(client, "/apis/storage.k8s.io/v1/csidrivers", object);
}

base::Status CreateBoundClaim(kube::Client& client, const ClaimObject& claim,
                              std::chrono::milliseconds timeout) {
  const std::string pv_path = "/api/v1/persistentvolumes/" + claim.volume;
  const std::string claim_path =
      fmt::format("/api/v1/namespaces/{}/persistentvolumeclaims/{}", claim.ns, claim.claim);
  const json volume = {
      {"apiVersion", "v1"},
      {"kind", "PersistentVolume"},
      {"metadata", {{"name", claim.volume}}},
      {"spec",
       {{"capacity", {{"storage", "1Gi"}}},
        {"accessModes", json::array({claim.access_mode})},
        {"persistentVolumeReclaimPolicy", "Retain"},
        {"storageClassName", ""},
        {"volumeMode", "Filesystem"},
        {"csi", {{"driver", claim.driver}, {"volumeHandle", claim.handle}}}}},
  };
  if (auto status = Post(client, "/api/v1/persistentvolumes", volume); !status.ok()) {
    return status;
  }
  if (auto status = Eventually(timeout, [&] { return HasPhase(client, pv_path, "Available"); });
      !status.ok()) {
    return status.error().Wrap("the PersistentVolume binder never saw " + claim.volume);
  }
  const json object = {
      {"apiVersion", "v1"},
      {"kind", "PersistentVolumeClaim"},
      {"metadata", {{"name", claim.claim}, {"namespace", claim.ns}}},
      {"spec",
       {{"accessModes", json::array({claim.access_mode})},
        {"resources", {{"requests", {{"storage", "1Gi"}}}}},
        // "": no storage class, so no default class applies and nothing provisions.
        {"storageClassName", ""},
        {"volumeName", claim.volume}}},
  };
  if (auto status = Post(
          client, fmt::format("/api/v1/namespaces/{}/persistentvolumeclaims", claim.ns), object);
      !status.ok()) {
    return status;
  }
  auto bound = Eventually(timeout, [&]() -> base::Status {
    if (auto status = HasPhase(client, claim_path, "Bound"); !status.ok()) return status;
    if (auto status = HasPhase(client, pv_path, "Bound"); !status.ok()) return status;
    auto pv = GetJson(client, pv_path);
    if (!pv.ok()) return pv.error();
    const std::string bound_to = pv->value(json::json_pointer("/spec/claimRef/name"), "");
    if (bound_to != claim.claim) {
      return base::Error(fmt::format("{} is bound to claim '{}'", claim.volume, bound_to));
    }
    return {};
  });
  if (!bound.ok())
    return bound.error().Wrap("the PersistentVolume binder never bound " + claim.claim);
  return {};
}

base::Status CreatePod(kube::Client& client, const PodObject& pod) {
  json volumes = json::array();
  json mounts = json::array();
  for (const std::string& claim : pod.claims) {
    volumes.push_back({{"name", claim}, {"persistentVolumeClaim", {{"claimName", claim}}}});
    mounts.push_back({{"name", claim}, {"mountPath", "/data/" + claim}});
  }
  json spec = {
      {"containers", json::array({{{"name", "app"},
                                   // Never pulled: no kubelet runs here.
                                   {"image", "registry.invalid/app:never-pulled"},
                                   {"volumeMounts", mounts}}})},
      {"volumes", volumes},
      {"terminationGracePeriodSeconds", 0},
  };
  if (!pod.node.empty()) spec["nodeName"] = pod.node;
  if (!pod.node_selector.empty()) spec["nodeSelector"] = pod.node_selector;
  const json object = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", pod.name}, {"namespace", pod.ns}}},
      {"spec", spec},
  };
  return Post(client, fmt::format("/api/v1/namespaces/{}/pods", pod.ns), object);
}

base::Status DeletePod(kube::Client& client, const std::string& ns, const std::string& name) {
  auto deleted = client.Request("DELETE", fmt::format("/api/v1/namespaces/{}/pods/{}", ns, name),
                                R"({"gracePeriodSeconds":0})", kJson);
  if (!deleted.ok()) return deleted.error().Wrap("delete pod " + ns + "/" + name);
  return {};
}

base::Result<std::vector<std::string>> VolumesAttached(kube::Client& client,
                                                       const std::string& node) {
  auto object = GetJson(client, NodePath(node));
  if (!object.ok()) return object.error();
  std::vector<std::string> names;
  for (const json& entry :
       object->value(json::json_pointer("/status/volumesAttached"), json::array())) {
    names.push_back(entry.value("name", ""));
  }
  return names;
}

base::Result<std::string> FindVolumeAttachment(kube::Client& client, const std::string& volume,
                                               const std::string& node) {
  auto list = GetJson(client, "/apis/storage.k8s.io/v1/volumeattachments");
  if (!list.ok()) return list.error();
  for (const json& item : list->value("items", json::array())) {
    if (item.value(json::json_pointer("/spec/source/persistentVolumeName"), "") == volume &&
        item.value(json::json_pointer("/spec/nodeName"), "") == node) {
      return item.value(json::json_pointer("/metadata/name"), "");
    }
  }
  return base::Error::Http(404, fmt::format("no VolumeAttachment of {} to {}", volume, node));
}

base::Status Eventually(std::chrono::milliseconds timeout,
                        const std::function<base::Status()>& check) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    auto status = check();
    if (status.ok()) return status;
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed >= timeout) {
      return status.error().Wrap(fmt::format("still failing after {:.1f}s",
                                             std::chrono::duration<double>(elapsed).count()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

}  // namespace testsupport
