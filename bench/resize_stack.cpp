#include "bench/resize_stack.h"

#include "bench/driver_faults.h"
#include "bench/floor_resizer.h"
#include "bench/resize_objects.h"
#include "bench/resize_workload.h"
#include "tests/support/resizer_service_account.h"

namespace bench {
namespace {

class ResizeStack : public OneBinaryStack<Workload> {
 public:
  using OneBinaryStack::OneBinaryStack;

  base::Status SetUpCluster(Cluster& cluster) override {
    if (auto added = AddIdentity(cluster, testsupport::ResizerIdentity(), "resizer"); !added.ok()) {
      return added;
    }
    return CreateExpandableClass(*cluster.admin);
  }

  base::Result<std::vector<std::string>> DriverArgs(const std::string& dir) override {
    auto control = LatencyControlFlag(dir, "ControllerExpandVolume", options_.latency);
    if (!control.ok()) return control.error();
    return std::vector<std::string>{"--capabilities=EXPAND_VOLUME", *control};
  }

  base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                          const Cluster& cluster,
                                                          const RunDirs& dirs) override {
    const std::string& kubeconfig = cluster.kubeconfigs.at("resizer");
    if (kind == "floor") {
      auto floor =
          ClientFloor<FloorResizer>::Start(options_, kubeconfig, [&](kube::Client& client) {
            return FloorResizer::Start(
                client, {.workers = options_.workers, .csi_socket = dirs.csi_socket});
          });
      if (!floor.ok()) return floor.error();
      return Contender::InProcess(std::move(*floor));
    }
    return Contender::Spawn({{.role = "",
                              .argv = BinaryArgv(kind, kubeconfig, dirs, "--workers"),
                              .log_file = dirs.dir + "/resizer.log"}});
  }

  const RequestFilter& Requests() const override {
    static const RequestFilter filter = {
        .resources = {"persistentvolumeclaims", "persistentvolumes", "pods", "events", "secrets",
                      "volumeattributesclasses"},
        .generator_writes = {"PATCH persistentvolumeclaims"}};
    return filter;
  }
};

}  // namespace

base::Result<std::unique_ptr<Stack>> MakeResizeStack(BenchOptions& options) {
  return MakeOneBinaryStack<ResizeStack>(options, OURS_RESIZER_BIN, "resizer", MakeResizeWorkload);
}

}  // namespace bench
