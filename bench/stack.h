// Stack: the component a benchmark measures (the attacher, or the snapshot
// pair: snapshot-controller + csi-snapshotter) as the runner sees it. It owns
// the cell's workload and knows what a control plane needs beyond the tests'
// launcher (CRDs, the components' identities, fixed objects), the fault
// driver's flags, how each contender starts, and which API requests are its.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "bench/api_requests.h"
#include "bench/contender.h"
#include "bench/options.h"
#include "bench/workload.h"
#include "kube/client/client.h"
#include "tests/support/control_plane.h"

namespace bench {

// A control plane with its admin client (unthrottled: the load generator
// must never be the bottleneck) and the kubeconfigs of the identities the
// stack set up on it, by role.
struct Cluster {
  std::unique_ptr<testsupport::ControlPlane> plane;
  std::unique_ptr<kube::Client> admin;
  std::map<std::string, std::string> kubeconfigs;
};

// Where one run's contender finds the driver and writes its logs.
struct RunDirs {
  std::string dir;         // the run's log directory
  std::string csi_socket;  // the fault driver's
};

class Stack {
 public:
  virtual ~Stack() = default;

  virtual Workload& workload() = 0;
  virtual testsupport::ControlPlaneOptions PlaneOptions() const { return {}; }
  // Runs once per control plane, before Populate: identities (filling
  // cluster.kubeconfigs) and the objects every run needs.
  virtual base::Status SetUpCluster(Cluster& cluster) = 0;
  // The fault driver's flags beyond --endpoint and --name; writes what the
  // driver reads (faults.json) under `dir` first.
  virtual base::Result<std::vector<std::string>> DriverArgs(const std::string& dir) = 0;
  virtual base::Result<std::unique_ptr<Contender>> StartContender(const std::string& kind,
                                                                  const Cluster& cluster,
                                                                  const RunDirs& dirs) = 0;
  virtual const RequestFilter& Requests() const = 0;
};

// For a stack of one binary (the attacher, the resizer): its contenders are
// ours, upstream and floor, and upstream needs --upstream-bin. `component`
// names the binary in the error about "mixed".
base::Status CheckOneBinaryContenders(const BenchOptions& options, const std::string& component);

// A stack S(options, workload) of one binary: an empty --ours-bin becomes
// `ours_bin`, the contenders are checked (CheckOneBinaryContenders), and
// `make_workload(options)` picks the workload.
template <class S, class MakeWorkload>
base::Result<std::unique_ptr<Stack>> MakeOneBinaryStack(BenchOptions& options, const char* ours_bin,
                                                        const std::string& component,
                                                        MakeWorkload make_workload) {
  if (options.ours_bin.empty()) options.ours_bin = ours_bin;
  if (base::Status valid = CheckOneBinaryContenders(options, component); !valid.ok()) {
    return valid.error();
  }
  auto workload = make_workload(options);
  if (!workload.ok()) return workload.error();
  return std::unique_ptr<Stack>(new S(options, std::move(*workload)));
}

// A stack of one binary and its workload W (the attacher, the resizer, the
// provisioner).
template <class W>
class OneBinaryStack : public Stack {
 public:
  OneBinaryStack(const BenchOptions& options, std::unique_ptr<W> workload)
      : options_(options), workload_(std::move(workload)) {}

  Workload& workload() override { return *workload_; }

 protected:
  // The flags every contender binary gets, whoever built it: `kind`'s binary,
  // the identity's kubeconfig, the driver socket, --timeout and ClientFlags.
  std::vector<std::string> BinaryArgv(const std::string& kind, const std::string& kubeconfig,
                                      const RunDirs& dirs,
                                      std::string_view workers_flag = "--worker-threads") const {
    std::vector<std::string> argv = {
        kind == "ours" ? options_.ours_bin : options_.upstream_bin, "--kubeconfig=" + kubeconfig,
        "--csi-address=" + dirs.csi_socket, "--timeout=" + options_.timeout};
    for (auto& flag : ClientFlags(options_, workers_flag)) argv.push_back(std::move(flag));
    return argv;
  }

  const BenchOptions& options_;
  std::unique_ptr<W> workload_;
};

// Adds the ServiceAccount `identity` to the cluster's plane and keeps its
// kubeconfig under `role`.
base::Status AddIdentity(Cluster& cluster, const testsupport::ServiceAccountIdentity& identity,
                         const std::string& role);

// A client with the identity of `kubeconfig` and the contender's QPS and
// burst, for a floor.
base::Result<std::unique_ptr<kube::Client>> FloorClient(const BenchOptions& options,
                                                        const std::string& kubeconfig);

// A floor controller C and the one client it shares among its workers
// (declared first, so it outlives the controller). `start` starts C on it.
template <class C>
class ClientFloor : public InProcessFloor {
 public:
  using StartOn = std::function<base::Result<std::unique_ptr<C>>(kube::Client&)>;

  static base::Result<std::unique_ptr<InProcessFloor>> Start(const BenchOptions& options,
                                                             const std::string& kubeconfig,
                                                             const StartOn& start) {
    auto client = FloorClient(options, kubeconfig);
    if (!client.ok()) return client.error();
    std::unique_ptr<ClientFloor> floor(new ClientFloor());
    floor->client_ = std::move(*client);
    auto controller = start(*floor->client_);
    if (!controller.ok()) return controller.error();
    floor->controller_ = std::move(*controller);
    return std::unique_ptr<InProcessFloor>(std::move(floor));
  }

 private:
  ClientFloor() = default;

  std::unique_ptr<kube::Client> client_;
  std::unique_ptr<C> controller_;
};

}  // namespace bench
