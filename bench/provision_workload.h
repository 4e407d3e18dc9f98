// ProvisionWorkload: what the provisioner workloads (provision_stack.h)
// share: the observer of PersistentVolumes (done = the PV carries a claimRef
// to the claim whose UID its name holds, "pvc-<uid>": without
// kube-controller-manager nothing binds them, so a PV created for its claim
// is what is measured), the steps built on it, and what a workload adds to
// the driver's and the provisioners' flags. MakeProvisionWorkload picks one
// by --workload: prov-backlog, prov-stream, prov-scale (one file each) or
// prov-capacity (provision_capacity.cpp).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "bench/object_observer.h"
#include "bench/workload.h"
#include "kube/api/core/v1/persistent_volume.h"

namespace bench {

using VolumeObserver = ObjectObserver<kube::PersistentVolume>;
using EnvVars = std::vector<std::pair<std::string, std::string>>;

class ProvisionWorkload : public Workload {
 public:
  base::Status StartObserving(kube::Client& admin) override;
  void StopObserving() override { observer_.reset(); }
  // The provisioners' Events wait behind their PV writes at QPS 5.
  bool SettlesRequests() const override { return true; }

  // Beyond the stack's: the fault driver's flags, the provisioner binaries'
  // flags and environment.
  virtual std::vector<std::string> DriverFlags() const { return {}; }
  virtual std::vector<std::string> ProvisionerFlags() const { return {}; }
  virtual EnvVars ProvisionerEnv() const { return {}; }

 protected:
  const VolumeObserver& volumes() const { return *observer_; }
  // Creates claim `claim` and waits until its PV exists: proves the
  // contender is up and has worked through its initial lists. Its PV's name.
  base::Result<std::string> ProvisionOne(RunContext& ctx, const std::string& claim);
  base::Status WaitAllProvisioned(RunContext& ctx, const std::vector<std::string>& volumes);
  // Creates the claims at once (--creator-threads in flight), stamping each
  // just before its request; then waits for their PVs. The figures: wall_s
  // (first request until the last PV), provisioned_per_s, provision_p50_ms
  // and _p99_ms (a claim's creation to its PV).
  base::Result<Figures> ProvisionAtOnce(RunContext& ctx, const std::vector<std::string>& claims);

 private:
  std::unique_ptr<VolumeObserver> observer_;
};

base::Result<std::unique_ptr<ProvisionWorkload>> MakeProvisionWorkload(const BenchOptions& options);

// CreatePendingClaim for each name, on `threads` threads: their PVs' names,
// in order; `created` (if given) gets the moment just before each request.
base::Result<std::vector<std::string>> CreatePendingClaims(
    kube::Client& admin, const std::vector<std::string>& names, int threads,
    std::vector<Clock::time_point>* created = nullptr);

}  // namespace bench
