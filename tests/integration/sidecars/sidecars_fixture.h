// csi-sidecars end to end (docs/csi-sidecars.md): a real control plane with
// kube-controller-manager (the PV binder) and the snapshot CRDs, the fault
// driver, and csi-sidecars as the ServiceAccount of
// deploy/kubernetes/csi-sidecars/rbac.yaml - and, for the rolling update,
// upstream's four separate sidecars as the same account. One control plane
// per suite; each test has drivers and objects of its own names.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kube/client/client.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"

namespace sidecars_it {

inline constexpr std::chrono::seconds kAwaitTimeout{60};

// The Leases a driver's four controllers hold, under upstream's names.
struct DriverLeases {
  std::string attacher, provisioner, resizer, snapshotter;
  std::vector<std::string> all() const { return {attacher, provisioner, resizer, snapshotter}; }
};
DriverLeases LeasesOf(const std::string& driver);

class CsiSidecarsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartSuite(/*snapshot_crds=*/true); }
  // The suite's control plane, with or without the snapshot CRDs.
  static void StartSuite(bool snapshot_crds);
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  // tests/fault_csi_driver named `driver` with `extra_args`.
  void StartFaultDriver(const std::string& driver, std::vector<std::string> extra_args);
  // csi-sidecars as the csi-sidecars account with `args` after
  // --kubeconfig, --csi-address and -v=5; logged as `<log_name>.log`.
  // Its leader-election identity is `identity` for every Lease.
  testsupport::Process* StartCsiSidecars(std::vector<std::string> args,
                                         const std::string& identity = "csi-sidecars",
                                         const std::string& log_name = "csi-sidecars");
  // An upstream sidecar (UPSTREAM_<NAME>_BIN) likewise, its identity the
  // hostname; fails the test if it cannot be found.
  testsupport::Process* StartUpstream(const std::string& variable, const std::string& peer,
                                      std::vector<std::string> args, const std::string& log_name);
  static std::string LogOf(const testsupport::Process& process);

  // Objects, as admin.
  void CreateJson(const std::string& path, const nlohmann::json& object);
  static nlohmann::json GetJson(const std::string& path);
  void PatchJson(const std::string& path, const nlohmann::json& merge_patch);
  // A StorageClass of `driver` allowing expansion, and a 1Gi claim of it;
  // returns the claim as created.
  nlohmann::json CreateClassAndClaim(const std::string& name, const std::string& driver);
  // Whether the claim `name` (in "default") becomes Bound within kAwaitTimeout.
  static bool ClaimBound(const std::string& name);
  // Polls until `done` holds for the object at `path`; the last version.
  static nlohmann::json Await(const std::string& path,
                              const std::function<bool(const nlohmann::json&)>& done,
                              std::chrono::seconds timeout = kAwaitTimeout);
  // The Lease's holderIdentity, "" when it has none or does not exist.
  static std::string HolderOf(const std::string& lease);

  std::string work_dir_;
  std::string socket_;

  static testsupport::ControlPlane* plane_;
  static kube::Client* admin_;
  static std::string kubeconfig_;  // the csi-sidecars account's

 private:
  std::vector<std::unique_ptr<testsupport::Process>> processes_;
};

}  // namespace sidecars_it
