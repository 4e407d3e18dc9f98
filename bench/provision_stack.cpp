#include "bench/provision_stack.h"

#include "bench/driver_faults.h"
#include "bench/floor_provisioner.h"
#include "bench/provision_objects.h"
#include "bench/provision_workload.h"
#include "tests/support/provisioner_service_account.h"

namespace bench {
namespace {

class ProvisionStack : public OneBinaryStack<ProvisionWorkload> {
 public:
  using OneBinaryStack::OneBinaryStack;

  base::Status SetUpCluster(Cluster& cluster) override {
    if (auto added = AddIdentity(cluster, testsupport::ProvisionerIdentity(), "provisioner");
        !added.ok()) {
      return added;
    }
    return CreateProvisionedClass(*cluster.admin);
  }

  base::Result<std::vector<std::string>> DriverArgs(const std::string& dir) override {
    auto control = LatencyControlFlag(dir, "CreateVolume", options_.latency);
    if (!control.ok()) return control.error();
    std::vector<std::string> args = workload_->DriverFlags();
    args.push_back(*control);
    return args;
  }

  base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                          const Cluster& cluster,
                                                          const RunDirs& dirs) override {
    const std::string& kubeconfig = cluster.kubeconfigs.at("provisioner");
    if (kind == "floor") {
      auto floor =
          ClientFloor<FloorProvisioner>::Start(options_, kubeconfig, [&](kube::Client& client) {
            return FloorProvisioner::Start(
                client, {.workers = options_.workers, .csi_socket = dirs.csi_socket});
          });
      if (!floor.ok()) return floor.error();
      return Contender::InProcess(std::move(*floor));
    }
    std::vector<std::string> argv = BinaryArgv(kind, kubeconfig, dirs);
    for (auto& flag : workload_->ProvisionerFlags()) argv.push_back(std::move(flag));
    return Contender::Spawn({{.role = "",
                              .argv = argv,
                              .log_file = dirs.dir + "/provisioner.log",
                              .env = workload_->ProvisionerEnv()}});
  }

  const RequestFilter& Requests() const override {
    static const RequestFilter filter = {
        .resources = {"persistentvolumeclaims", "persistentvolumes", "events", "storageclasses",
                      "csinodes", "nodes", "csistoragecapacities", "volumeattachments",
                      "volumeattributesclasses", "secrets", "pods", "replicasets"},
        .generator_writes = {"POST persistentvolumeclaims"}};
    return filter;
  }
};

}  // namespace

base::Result<std::unique_ptr<Stack>> MakeProvisionStack(BenchOptions& options) {
  return MakeOneBinaryStack<ProvisionStack>(options, OURS_PROVISIONER_BIN, "provisioner",
                                            MakeProvisionWorkload);
}

}  // namespace bench
