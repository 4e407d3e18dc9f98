#include "bench/pod_stack.h"

#include <array>

#include "bench/objects.h"
#include "bench/pod_workload.h"
#include "bench/resize_objects.h"
#include "bench/snapshot_objects.h"

namespace bench {
namespace {

// The controllers, in start order, with each one's binary in this build and
// its worker-count flag (the resizer's is --workers).
struct Controller {
  const char* name;
  const char* ours_bin;
  const char* workers_flag;
};
constexpr std::array<Controller, 4> kControllers = {{
    {"attacher", OURS_ATTACHER_BIN, "--worker-threads"},
    {"provisioner", OURS_PROVISIONER_BIN, "--worker-threads"},
    {"resizer", OURS_RESIZER_BIN, "--workers"},
    {"snapshotter", OURS_SNAPSHOTTER_BIN, "--worker-threads"},
}};

class PodStack : public Stack {
 public:
  PodStack(const BenchOptions& options, std::unique_ptr<PodWorkload> workload)
      : options_(options), workload_(std::move(workload)) {}

  Workload& workload() override { return *workload_; }

  testsupport::ControlPlaneOptions PlaneOptions() const override {
    return {.crd_dirs = {options_.crds_dir}, .controller_manager = true};
  }

  base::Status SetUpCluster(Cluster& cluster) override {
    cluster.kubeconfigs["admin"] = cluster.plane->admin_kubeconfig();
    if (auto status = CreateExpandableClass(*cluster.admin); !status.ok()) return status;
    if (auto status = CreateSnapshotClass(*cluster.admin); !status.ok()) return status;
    return CreateCsiNode(*cluster.admin);
  }

  base::Result<std::vector<std::string>> DriverArgs(const std::string& dir) override {
    return std::vector<std::string>{"--capabilities=PUBLISH_UNPUBLISH_VOLUME,EXPAND_VOLUME"};
  }

  base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                          const Cluster& cluster,
                                                          const RunDirs& dirs) override {
    const std::vector<std::string> common = {"--kubeconfig=" + cluster.kubeconfigs.at("admin"),
                                             "--csi-address=" + dirs.csi_socket,
                                             "--timeout=" + options_.timeout};
    // ClientFlags' first flag is the worker count; the rest (QPS, burst) are
    // shared.
    const std::vector<std::string> client = ClientFlags(options_);
    const std::vector<std::string> shared(client.begin() + 1, client.end());
    if (kind == "csi-sidecars") {
      std::vector<std::string> argv = {OURS_CSI_SIDECARS_BIN,
                                       "--controllers=attacher,provisioner,resizer,snapshotter"};
      argv.insert(argv.end(), common.begin(), common.end());
      argv.insert(argv.end(), shared.begin(), shared.end());
      for (const auto& controller : kControllers) {
        // --attacher-worker-threads, --resizer-workers: its own flag under its name.
        argv.push_back("--" + std::string(controller.name) + "-" +
                       std::string(controller.workers_flag).substr(2) + "=" +
                       std::to_string(options_.workers));
      }
      return Contender::Spawn(
          {{.role = "sidecars", .argv = argv, .log_file = dirs.dir + "/csi-sidecars.log"}});
    }
    std::vector<Contender::Binary> binaries;
    for (const auto& controller : kControllers) {
      std::vector<std::string> argv = {kind == "ours4"
                                           ? std::string(controller.ours_bin)
                                           : options_.upstream_sidecar_bins.at(controller.name)};
      argv.insert(argv.end(), common.begin(), common.end());
      for (auto& flag : ClientFlags(options_, controller.workers_flag)) {
        argv.push_back(std::move(flag));
      }
      binaries.push_back({.role = controller.name,
                          .argv = std::move(argv),
                          .log_file = dirs.dir + "/" + controller.name + ".log"});
    }
    return Contender::Spawn(std::move(binaries));
  }

  const RequestFilter& Requests() const override {
    static const RequestFilter filter = {
        .resources = {"persistentvolumeclaims", "persistentvolumes", "volumeattachments",
                      "volumesnapshotcontents", "volumesnapshots", "volumesnapshotclasses",
                      "volumegroupsnapshotcontents", "volumegroupsnapshotclasses", "events",
                      "storageclasses", "csinodes", "nodes", "csistoragecapacities",
                      "volumeattributesclasses", "secrets", "pods", "replicasets", "leases",
                      "customresourcedefinitions"},
        .generator_writes = {"POST persistentvolumeclaims", "PATCH persistentvolumeclaims",
                             "POST volumeattachments", "POST volumesnapshotcontents"}};
    return filter;
  }

 private:
  const BenchOptions& options_;
  std::unique_ptr<PodWorkload> workload_;
};

}  // namespace

base::Result<std::unique_ptr<Stack>> MakePodStack(BenchOptions& options) {
  if (options.crds_dir.empty()) return base::Error("the pod stack needs --crds-dir");
  for (const auto& kind : options.contenders) {
    if (kind != "upstream4" && kind != "ours4" && kind != "csi-sidecars") {
      return base::Error("the pod stack's contenders are upstream4, ours4 and csi-sidecars");
    }
    if (kind != "upstream4") continue;
    for (const auto& controller : kControllers) {
      if (!options.upstream_sidecar_bins.contains(controller.name)) {
        return base::Error(std::string("upstream4 needs --upstream-") + controller.name + "-bin");
      }
    }
  }
  auto workload = MakePodWorkload(options);
  if (!workload.ok()) return workload.error();
  return std::unique_ptr<Stack>(new PodStack(options, std::move(*workload)));
}

}  // namespace bench
