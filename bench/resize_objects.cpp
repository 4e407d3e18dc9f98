#include "bench/resize_objects.h"

#include <nlohmann/json.hpp>
#include <string>

#include "bench/bound_claim.h"
#include "bench/objects.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/storage/v1/storage_class.h"

namespace bench {

base::Status CreateExpandableClass(kube::Client& admin) {
  kube::StorageClass storage_class;
  storage_class.metadata.name = kResizeClassName;
  storage_class.provisioner = kDriverName;
  storage_class.allow_volume_expansion = true;
  auto created = admin.Create(storage_class);
  if (!created.ok()) return created.error().Wrap("creating the StorageClass");
  return {};
}

base::Status CreateResizableClaim(kube::Client& admin, const std::string& name,
                                  bool binder_annotations) {
  return CreateBoundClaim(admin, {.ns = kResizeNamespace,
                                  .name = name,
                                  .handle = name,
                                  .storage_class = kResizeClassName,
                                  .size = kResizeFrom,
                                  .capacity_in_status = true,
                                  .binder_annotations = binder_annotations});
}

namespace {

nlohmann::json Container(const std::string& name, const std::string& image) {
  nlohmann::json env = nlohmann::json::array();
  for (int i = 0; i < 8; ++i) {
    env.push_back(
        {{"name", "SETTING_" + std::to_string(i)}, {"value", "value-" + std::to_string(i)}});
  }
  env.push_back(
      {{"name", "POD_NAME"},
       {"valueFrom", {{"fieldRef", {{"apiVersion", "v1"}, {"fieldPath", "metadata.name"}}}}}});
  const nlohmann::json probe = {{"httpGet", {{"path", "/healthz"}, {"port", 8080}}},
                                {"initialDelaySeconds", 10},
                                {"periodSeconds", 10}};
  return {{"name", name},
          {"image", image},
          {"args", {"--config=/etc/app/config.yaml", "--log-level=info"}},
          {"ports", {{{"name", "http"}, {"containerPort", 8080}, {"protocol", "TCP"}}}},
          {"env", env},
          {"resources",
           {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}},
            {"limits", {{"cpu", "500m"}, {"memory", "512Mi"}}}}},
          {"volumeMounts", {{{"name", "data"}, {"mountPath", "/var/lib/app"}}}},
          {"livenessProbe", probe},
          {"readinessProbe", probe}};
}

nlohmann::json RunningStatus(const std::string& image) {
  const std::string since = "2026-11-30T00:00:00Z";
  nlohmann::json conditions = nlohmann::json::array();
  for (const char* type :
       {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
    conditions.push_back({{"type", type}, {"status", "True"}, {"lastTransitionTime", since}});
  }
  nlohmann::json containers = nlohmann::json::array();
  for (const char* name : {"app", "sidecar"}) {
    containers.push_back({{"name", name},
                          {"image", image},
                          {"imageID", image + "@sha256:" + std::string(64, 'a')},
                          {"containerID", "containerd://" + std::string(64, 'b')},
                          {"ready", true},
                          {"started", true},
                          {"restartCount", 0},
                          {"state", {{"running", {{"startedAt", since}}}}}});
  }
  return {{"status",
           {{"phase", "Running"},
            {"conditions", conditions},
            {"hostIP", "10.0.0.12"},
            {"podIP", "10.244.3.17"},
            {"podIPs", {{{"ip", "10.244.3.17"}}}},
            {"startTime", since},
            {"qosClass", "Burstable"},
            {"containerStatuses", containers}}}};
}

}  // namespace

base::Status CreateRunningPodUsing(kube::Client& admin, const std::string& name,
                                   const std::string& claim) {
  const std::string image = "registry.example.com/team/app:v1.42.0";
  const nlohmann::json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata",
       {{"name", name},
        {"namespace", kResizeNamespace},
        {"labels", {{"app", "bench"}, {"tier", "backend"}, {"pod-template-hash", "5d8f7c9b4"}}},
        {"annotations", {{"kubectl.kubernetes.io/restartedAt", "2026-11-30T00:00:00Z"}}},
        {"ownerReferences",
         {{{"apiVersion", "apps/v1"},
           {"kind", "ReplicaSet"},
           {"name", "bench-5d8f7c9b4"},
           {"uid", "6f1c2d3e-4a5b-6c7d-8e9f-0a1b2c3d4e5f"},
           {"controller", true},
           {"blockOwnerDeletion", true}}}}}},
      {"spec",
       {{"containers", {Container("app", image), Container("sidecar", image)}},
        {"volumes", {{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", claim}}}}}},
        {"nodeSelector", {{"kubernetes.io/os", "linux"}}},
        {"tolerations",
         {{{"key", "node.kubernetes.io/not-ready"},
           {"operator", "Exists"},
           {"effect", "NoExecute"},
           {"tolerationSeconds", 300}}}},
        {"serviceAccountName", "default"},
        {"terminationGracePeriodSeconds", 30}}}};
  const std::string pods = std::string("/api/v1/namespaces/") + kResizeNamespace + "/pods";
  auto created = admin.Request("POST", pods, pod.dump(), "application/json");
  if (!created.ok()) return created.error().Wrap("creating Pod " + name);
  auto running = admin.Request("PATCH", pods + "/" + name + "/status", RunningStatus(image).dump(),
                               "application/merge-patch+json");
  if (!running.ok()) return running.error().Wrap("marking Pod " + name + " Running");
  return {};
}

base::Status RequestStorage(kube::Client& admin, const std::string& name, const std::string& size) {
  const nlohmann::json patch = {{"spec", {{"resources", {{"requests", {{"storage", size}}}}}}}};
  auto raised = admin.Patch<kube::PersistentVolumeClaim>(kResizeNamespace, name,
                                                         kube::PatchType::kMerge, patch.dump());
  if (!raised.ok()) return raised.error().Wrap("raising the request of PVC " + name);
  return {};
}

}  // namespace bench
