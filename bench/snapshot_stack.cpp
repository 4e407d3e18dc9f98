#include "bench/snapshot_stack.h"

#include <nlohmann/json.hpp>

#include "bench/driver_faults.h"
#include "bench/floor_snapshot_controller.h"
#include "bench/floor_snapshot_sidecar.h"
#include "bench/objects.h"
#include "bench/snapshot_objects.h"
#include "bench/snapshot_workload.h"
#include "kube/client/config.h"
#include "snapshot/snapshot_clients.h"
#include "tests/support/snapshot_service_accounts.h"

namespace bench {
namespace {

// Under the kernel's 128 KiB limit on one argument; --volumes repeats merge.
constexpr size_t kVolumesArgBytes = 64 * 1024;

// One client per clientset upstream builds: core and snapshot, each with
// its own QPS limiter (docs/snapshots.md §3.2 step 1).
base::Result<snapshot::SnapshotClients> ClientsFor(const std::string& kubeconfig,
                                                   const BenchOptions& options) {
  auto config = kube::LoadKubeconfig(kubeconfig);
  if (!config.ok()) return config.error();
  config->qps = options.qps;
  config->burst = options.burst;
  return snapshot::SnapshotClients::Create(*config);
}

// The floor's two halves and their clients (declared first: they outlive
// the halves).
class SnapshotFloor : public InProcessFloor {
 public:
  static base::Result<std::unique_ptr<InProcessFloor>> Start(const BenchOptions& options,
                                                             const Cluster& cluster,
                                                             const RunDirs& dirs) {
    std::unique_ptr<SnapshotFloor> floor(new SnapshotFloor());
    auto controller_clients = ClientsFor(cluster.kubeconfigs.at("controller"), options);
    if (!controller_clients.ok()) return controller_clients.error();
    floor->controller_clients_ = std::move(*controller_clients);
    auto sidecar_clients = ClientsFor(cluster.kubeconfigs.at("sidecar"), options);
    if (!sidecar_clients.ok()) return sidecar_clients.error();
    floor->sidecar_clients_ = std::move(*sidecar_clients);
    auto controller = FloorSnapshotController::Start(floor->controller_clients_, options.workers);
    if (!controller.ok()) return controller.error();
    floor->controller_ = std::move(*controller);
    // The sidecar's floor writes only contents: all on the snapshot client.
    auto sidecar =
        FloorSnapshotSidecar::Start(*floor->sidecar_clients_.snapshots,
                                    {.workers = options.workers, .csi_socket = dirs.csi_socket});
    if (!sidecar.ok()) return sidecar.error();
    floor->sidecar_ = std::move(*sidecar);
    return std::unique_ptr<InProcessFloor>(std::move(floor));
  }

 private:
  SnapshotFloor() = default;

  snapshot::SnapshotClients controller_clients_;
  snapshot::SnapshotClients sidecar_clients_;
  std::unique_ptr<FloorSnapshotController> controller_;
  std::unique_ptr<FloorSnapshotSidecar> sidecar_;
};

class SnapshotStack : public Stack {
 public:
  SnapshotStack(const BenchOptions& options, std::unique_ptr<SnapshotWorkload> workload)
      : options_(options), workload_(std::move(workload)) {}

  Workload& workload() override { return *workload_; }

  testsupport::ControlPlaneOptions PlaneOptions() const override {
    return {.crd_dirs = {options_.crds_dir}};
  }

  base::Status SetUpCluster(Cluster& cluster) override {
    auto sidecar = cluster.plane->AddServiceAccount(testsupport::SnapshotterIdentity());
    if (!sidecar.ok()) return sidecar.error();
    cluster.kubeconfigs["sidecar"] = *sidecar;
    auto controller = cluster.plane->AddServiceAccount(testsupport::SnapshotControllerIdentity());
    if (!controller.ok()) return controller.error();
    cluster.kubeconfigs["controller"] = *controller;
    return CreateSnapshotClass(*cluster.admin);
  }

  base::Result<std::vector<std::string>> DriverArgs(const std::string& dir) override {
    nlohmann::json rule = nlohmann::json::object();
    if (options_.latency.count() > 0) rule["delay"] = DelayOf(options_.latency);
    if (workload_->ReadyAfter() > 1) rule["ready_after"] = workload_->ReadyAfter();
    auto control = FaultControlFlag(
        dir, rule.empty() ? nlohmann::json::object() : nlohmann::json{{"CreateSnapshot", {rule}}});
    if (!control.ok()) return control.error();
    std::vector<std::string> args = {*control};
    std::string volumes;
    for (const auto& handle : workload_->VolumeHandles()) {
      if (volumes.size() > kVolumesArgBytes) {
        args.push_back("--volumes=" + volumes);
        volumes.clear();
      }
      volumes += (volumes.empty() ? "" : ",") + handle + ":0";
    }
    if (!volumes.empty()) args.push_back("--volumes=" + volumes);
    return args;
  }

  base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                          const Cluster& cluster,
                                                          const RunDirs& dirs) override {
    if (kind == "floor") {
      auto floor = SnapshotFloor::Start(options_, cluster, dirs);
      if (!floor.ok()) return floor.error();
      return Contender::InProcess(std::move(*floor));
    }
    const bool our_controller = kind == "ours";
    const bool our_sidecar = kind == "ours" || kind == "mixed";
    std::vector<std::string> controller = {
        our_controller ? options_.ours_controller_bin : options_.upstream_controller_bin,
        "--kubeconfig=" + cluster.kubeconfigs.at("controller")};
    std::vector<std::string> sidecar = {our_sidecar ? options_.ours_bin : options_.upstream_bin,
                                        "--kubeconfig=" + cluster.kubeconfigs.at("sidecar"),
                                        "--csi-address=" + dirs.csi_socket,
                                        "--timeout=" + options_.timeout};
    for (const auto& flag : ClientFlags(options_)) {
      controller.push_back(flag);
      sidecar.push_back(flag);
    }
    return Contender::Spawn(
        {{.role = "controller", .argv = controller, .log_file = dirs.dir + "/controller.log"},
         {.role = "sidecar", .argv = sidecar, .log_file = dirs.dir + "/sidecar.log"}});
  }

  const RequestFilter& Requests() const override {
    static const RequestFilter filter = {
        .resources = {"volumesnapshots", "volumesnapshotcontents", "volumesnapshotclasses",
                      "volumegroupsnapshots", "volumegroupsnapshotcontents",
                      "volumegroupsnapshotclasses", "persistentvolumeclaims", "persistentvolumes",
                      "events", "secrets", "customresourcedefinitions"},
        .generator_writes = {"POST volumesnapshots", "DELETE volumesnapshots"}};
    return filter;
  }

 private:
  const BenchOptions& options_;
  std::unique_ptr<SnapshotWorkload> workload_;
};

}  // namespace

base::Result<std::unique_ptr<Stack>> MakeSnapshotStack(BenchOptions& options) {
  if (options.ours_bin.empty()) options.ours_bin = OURS_SNAPSHOTTER_BIN;
  if (options.ours_controller_bin.empty()) {
    options.ours_controller_bin = OURS_SNAPSHOT_CONTROLLER_BIN;
  }
  if (options.crds_dir.empty()) return base::Error("the snapshot stack needs --crds-dir");
  for (const auto& kind : options.contenders) {
    if ((kind == "upstream" || kind == "mixed") && options.upstream_controller_bin.empty()) {
      return base::Error(kind + " needs --upstream-controller-bin");
    }
    if (kind == "upstream" && options.upstream_bin.empty()) {
      return base::Error("upstream needs --upstream-bin");
    }
  }
  auto workload = MakeSnapshotWorkload(options);
  if (!workload.ok()) return workload.error();
  return std::unique_ptr<Stack>(new SnapshotStack(options, std::move(*workload)));
}

}  // namespace bench
