// The resizer end to end: a real control plane (etcd + kube-apiserver, whose
// admission enforces allowVolumeExpansion; no controller manager, so the
// tests bind claims themselves as docs/resizer.md §8 describes), the
// resizer's RBAC of deploy/kubernetes/csi-resizer/rbac.yaml, the Kubernetes
// e2e mock driver, and a csi-resizer binary given by path, so the same tests
// run upstream's or ours ("pair tests"). The resizer runs as its
// RBAC-limited ServiceAccount. One control plane per suite; a driver and
// resizers per test, stopped (log tails shown on failure) when it ends.
//
// Objects are written and read as JSON documents, so every field the
// resizer writes can be checked.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kube/api/core/v1/event.h"
#include "kube/client/client.h"
#include "tests/support/binary_under_test.h"
#include "tests/support/control_plane.h"
#include "tests/support/csi_sidecars.h"
#include "tests/support/http_get.h"
#include "tests/support/process.h"
#include "tests/support/resizer_service_account.h"

namespace resizer_it {

inline constexpr std::chrono::seconds kResizeAwait{30};
inline constexpr int64_t kGi = int64_t{1} << 30;
using testsupport::kResizerAccount;
using testsupport::kResizerNamespace;

using ResizerUnderTest = testsupport::BinaryUnderTest;
// Upstream's, from $UPSTREAM_RESIZER_BIN or tools/peers/build.sh resizer.
ResizerUnderTest UpstreamResizer();
// Ours, cmd/csi-resizer of this build.
ResizerUnderTest OurResizer();

// A PV of the driver bound to a claim, as the PV binder would leave them.
struct BoundClaimSpec {
  std::string name;           // the claim's; the PV is "pv-<name>"
  std::string storage_class;  // allowVolumeExpansion: true (CreateExpandableClass)
  std::string driver;
  std::string volume_handle;  // the driver's volume ID
  std::string size = "1Gi";   // request, status.capacity and the PV's capacity
  std::optional<std::pair<std::string, std::string>> expand_secret = {};  // namespace, name
  // Set: the PV is this in-tree GCE PD (in zone kGceZone), not a CSI volume
  // of `driver`.
  std::string in_tree_gce_pd = {};
  std::map<std::string, std::string> claim_annotations = {};
};

// The zone label of in-tree GCE PD volumes, and so of their translated handles.
inline constexpr char kGceZone[] = "us-central1-a";

class ResizerTest : public ::testing::TestWithParam<ResizerUnderTest> {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  // `base` made this pair's own ("grow", "Ours" → "grow-ours").
  std::string Own(const std::string& base) const;
  // The driver name of this test: <base>-<owner>.csi.example.com.
  std::string DriverFor(const std::string& base) const;

  // The e2e mock driver named `driver` (it grows volumes, refuses to shrink
  // one with InvalidArgument and answers NotFound for unknown IDs). Fails
  // the test fatally if it cannot start.
  void StartMockDriver(const std::string& driver);
  // CreateVolume on the running driver: the new volume's ID.
  std::string CreateDriverVolume(const std::string& name, int64_t bytes);

  // tests/fault_csi_driver named `driver` with `extra_args`.
  void StartFaultDriver(const std::string& driver, std::vector<std::string> extra_args);
  // The same with --control-dir holding `faults` as its faults.json and
  // --state-file at DriverStatePath().
  void StartFaultDriverWithFaults(const std::string& driver, const std::string& faults,
                                  std::vector<std::string> extra_args);
  // Replaces the fault driver's faults.json (written aside, then renamed, so
  // the driver never reads half of it).
  void SetFaults(const std::string& faults);
  std::string DriverStatePath() const { return work_dir_ + "/driver-state.json"; }

  // `resizer` as its ServiceAccount on the driver's socket, short retry
  // intervals and -v=5, then `extra_args`; null on failure.
  testsupport::Process* StartResizerOf(const ResizerUnderTest& resizer,
                                       std::vector<std::string> extra_args = {},
                                       std::vector<std::pair<std::string, std::string>> env = {},
                                       const std::string& log_name = "resizer");
  // StartResizerOf the resizer under test.
  testsupport::Process* StartResizer(std::vector<std::string> extra_args = {}) {
    return StartResizerOf(GetParam(), std::move(extra_args));
  }
  // The binary under test with `args` alone (no kubeconfig, no socket unless
  // given): its exit code, or -1 if it did not exit within 20 s.
  int ExitCodeOf(std::vector<std::string> args);

  void CreateExpandableClass(const std::string& name, const std::string& driver);
  // The claim as written; null on failure.
  nlohmann::json CreateBoundClaim(const BoundClaimSpec& spec);
  // Applies `merge_patch` to the claim; the API server's error when it refuses.
  base::Status PatchClaim(const std::string& name, const nlohmann::json& merge_patch);
  // Sets the claim's spec.resources.requests.storage; the API server's error
  // when it refuses.
  base::Status RequestSize(const std::string& name, const std::string& size);
  // A VolumeAttributesClass of `driver` with `parameters`.
  void CreateAttributesClass(const std::string& name, const std::string& driver,
                             const std::map<std::string, std::string>& parameters);
  // Sets the claim's spec.volumeAttributesClassName; the API server's error
  // when it refuses.
  base::Status RequestClass(const std::string& name, const std::string& klass);
  void CreateSecret(const std::string& ns, const std::string& name,
                    const std::map<std::string, std::string>& data);
  void GrantSecretRead(const std::string& ns);

  static nlohmann::json GetClaim(const std::string& name);
  static nlohmann::json GetPv(const std::string& name);
  // Polls the claim until `done` holds; the last version seen.
  static nlohmann::json AwaitClaim(const std::string& name,
                                   const std::function<bool(const nlohmann::json&)>& done,
                                   std::chrono::seconds timeout = kResizeAwait);
  static std::optional<kube::Event> AwaitClaimEvent(const std::string& claim,
                                                    const std::string& reason);
  // The claim's Event of `reason` with exactly `message`, once there is one.
  static std::optional<kube::Event> AwaitClaimEventWithMessage(const std::string& claim,
                                                               const std::string& reason,
                                                               const std::string& message);
  // A Pod (never scheduled: it stays Pending) with the claim `claim` as a
  // volume, and its deletion.
  void CreatePodUsing(const std::string& name, const std::string& claim);
  void DeletePod(const std::string& name);
  // How often the mock driver's log shows `method` answered with `code`.
  int DriverCalls(const std::string& method, const std::string& code = "OK") const;

  void AwaitDriverSocket();

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline kube::Client* admin_ = nullptr;
  static inline std::string resizer_kubeconfig_;
  static inline bool suite_ready_ = false;
  static inline int tests_started_ = 0;

  std::string work_dir_;
  std::string socket_;
  std::unique_ptr<testsupport::Process> driver_;
  std::vector<std::unique_ptr<testsupport::Process>> resizers_;
};

// testsupport::AwaitSeries within kResizeAwait.
inline std::string AwaitSeries(int port, const std::string& family,
                               const std::vector<std::string>& labels) {
  return testsupport::AwaitSeries(port, family, labels, kResizeAwait);
}

// The status fields the resizer writes, "" when absent.
std::string StatusString(const nlohmann::json& claim, const std::string& pointer);
bool HasTrueCondition(const nlohmann::json& claim, const std::string& type);

#define INSTANTIATE_RESIZER_PAIRS(suite)                                   \
  INSTANTIATE_TEST_SUITE_P(                                                \
      Resizers, suite, ::testing::Values(UpstreamResizer(), OurResizer()), \
      [](const ::testing::TestParamInfo<ResizerUnderTest>& info) { return info.param.name; })

// The suites csi-sidecars --controllers=resizer runs too
// (docs/csi-sidecars.md): same tests, csi-sidecars given the resizer's
// command line.
#define INSTANTIATE_RESIZER_IN_CSI_SIDECARS(suite)                                       \
  INSTANTIATE_TEST_SUITE_P(                                                              \
      CsiSidecars, suite,                                                                \
      ::testing::Values(testsupport::CsiSidecarsUnderTest("resizer", CSI_SIDECARS_BIN)), \
      [](const ::testing::TestParamInfo<ResizerUnderTest>& info) { return info.param.name; })

}  // namespace resizer_it
