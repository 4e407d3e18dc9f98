#include "bench/attacher_stack.h"

#include "bench/attach_workload.h"
#include "bench/floor_controller.h"
#include "bench/objects.h"

namespace bench {
namespace {

class AttacherStack : public OneBinaryStack<Workload> {
 public:
  using OneBinaryStack::OneBinaryStack;

  base::Status SetUpCluster(Cluster& cluster) override {
    cluster.kubeconfigs["attacher"] = cluster.plane->attacher_kubeconfig();
    return CreateCsiNode(*cluster.admin);
  }

  base::Result<std::vector<std::string>> DriverArgs(const std::string&) override {
    std::string latency = std::to_string(options_.latency.count()) + "ms";
    return std::vector<std::string>{std::string("--node-id=") + kNodeName,
                                    "--publish-latency=" + latency,
                                    "--unpublish-latency=" + latency};
  }

  base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                          const Cluster& cluster,
                                                          const RunDirs& dirs) override {
    const std::string& kubeconfig = cluster.kubeconfigs.at("attacher");
    if (kind == "floor") {
      auto floor =
          ClientFloor<FloorController>::Start(options_, kubeconfig, [&](kube::Client& client) {
            return FloorController::Start(client, {.workers = options_.workers,
                                                   .publish_latency = options_.latency,
                                                   .unpublish_latency = options_.latency});
          });
      if (!floor.ok()) return floor.error();
      return Contender::InProcess(std::move(*floor));
    }
    // Default verbosity for both: logging cost is part of what an operator runs.
    return Contender::Spawn({{.role = "",
                              .argv = BinaryArgv(kind, kubeconfig, dirs),
                              .log_file = dirs.dir + "/attacher.log"}});
  }

  const RequestFilter& Requests() const override {
    static const RequestFilter filter = {
        .resources = {"volumeattachments", "persistentvolumes", "csinodes", "secrets", "events"},
        .generator_writes = {"POST volumeattachments", "DELETE volumeattachments",
                             "POST persistentvolumes", "DELETE persistentvolumes"}};
    return filter;
  }
};

}  // namespace

base::Result<std::unique_ptr<Stack>> MakeAttacherStack(BenchOptions& options) {
  return MakeOneBinaryStack<AttacherStack>(options, OURS_ATTACHER_BIN, "attacher",
                                           MakeAttachWorkload);
}

}  // namespace bench
