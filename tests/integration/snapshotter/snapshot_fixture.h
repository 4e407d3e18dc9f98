// The snapshot stack end to end: a real control plane with the snapshot CRDs
// and both RBAC manifests of deploy/kubernetes/ (csi-snapshotter/,
// snapshot-controller/) applied, the Kubernetes e2e mock CSI driver, upstream's
// snapshot-controller, and a csi-snapshotter sidecar binary given by path (so
// the same tests run upstream's or ours). Each component runs as its own
// RBAC-limited ServiceAccount. One control plane per test suite; a driver,
// controller and sidecar per test, stopped (log tails shown on failure) when
// the test ends.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/persistent_volume.h"
#include "kube/api/core/v1/persistent_volume_claim.h"
#include "kube/api/snapshot/v1/volume_snapshot.h"
#include "kube/api/snapshot/v1/volume_snapshot_class.h"
#include "kube/api/snapshot/v1/volume_snapshot_content.h"
#include "kube/client/api_error.h"
#include "kube/client/client.h"
#include "tests/support/control_plane.h"
#include "tests/support/process.h"
#include "tests/support/snapshot_service_accounts.h"

namespace snapshot_it {

inline constexpr std::chrono::seconds kAwaitTimeout{120};

// The ServiceAccounts of the RBAC manifests.
using testsupport::kSnapshotControllerAccount;
using testsupport::kSnapshotControllerNamespace;
using testsupport::kSnapshotterAccount;
using testsupport::kSnapshotterNamespace;

// A csi-snapshotter binary the pair tests run: its name in test names, and
// where the binary is (the error says why it cannot be found).
struct SidecarUnderTest {
  std::string name;
  std::function<base::Result<std::string>()> binary;

  friend void PrintTo(const SidecarUnderTest& sidecar, std::ostream* out) { *out << sidecar.name; }
};
// Upstream's, from $UPSTREAM_SNAPSHOTTER_BIN or tools/peers/build.sh snapshot.
SidecarUnderTest UpstreamSidecar();

class SnapshotTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  // Processes; each fails the test fatally if it cannot start (call them
  // under ASSERT_NO_FATAL_FAILURE). The driver is waited for until its socket
  // exists.
  // The e2e mock driver named `driver`, with `volumes` created volumes (IDs
  // 4, 5, ..., 100 GiB each).
  void StartMockDriver(const std::string& driver, int volumes = 1);
  // Upstream's snapshot-controller as the snapshot-controller ServiceAccount.
  void StartSnapshotController(std::vector<std::string> extra_args = {});
  // The csi-snapshotter at `binary` as the csi-snapshotter ServiceAccount,
  // talking to the driver's socket, with short retry intervals and -v=5.
  void StartSidecar(const std::string& binary, std::vector<std::string> extra_args = {});

  // Objects, created as admin; each fails the test if the server refuses.
  // A PV with a CSI source (driver, volume_handle) bound to PVC ns/pvc_name,
  // both 1Gi ReadWriteOnce, the PVC's status phase Bound.
  kube::PersistentVolumeClaim CreateBoundPvc(const std::string& ns, const std::string& pvc_name,
                                             const std::string& pv_name, const std::string& driver,
                                             const std::string& volume_handle);
  void CreateSnapshotClass(const std::string& name, const std::string& driver,
                           const std::string& deletion_policy);
  void CreateVolumeSnapshot(const std::string& ns, const std::string& name,
                            const std::string& pvc_name, const std::string& class_name);

  // Polls `kind` ns/name (as admin) until `done` holds or `timeout` passes;
  // returns the last version seen (nullopt if it never existed).
  template <class T>
  std::optional<T> Await(const std::string& ns, const std::string& name,
                         const std::function<bool(const T&)>& done,
                         std::chrono::seconds timeout = kAwaitTimeout) {
    std::optional<T> last;
    for (auto deadline = std::chrono::steady_clock::now() + timeout;
         std::chrono::steady_clock::now() < deadline;
         std::this_thread::sleep_for(std::chrono::milliseconds(200))) {
      auto object = admin_->Get<T>(ns, name);
      if (!object.ok()) continue;
      last = *object;
      if (done(*last)) break;
    }
    return last;
  }
  // Polls until a GET of `kind` ns/name answers 404.
  template <class T>
  bool AwaitGone(const std::string& ns, const std::string& name,
                 std::chrono::seconds timeout = kAwaitTimeout) {
    for (auto deadline = std::chrono::steady_clock::now() + timeout;
         std::chrono::steady_clock::now() < deadline;
         std::this_thread::sleep_for(std::chrono::milliseconds(200))) {
      auto object = admin_->Get<T>(ns, name);
      if (!object.ok() && kube::IsNotFound(object.error())) return true;
    }
    return false;
  }

  // What the driver holds and was asked.
  // Whether the driver lists a snapshot with this ID (ListSnapshots).
  bool DriverHasSnapshot(const std::string& snapshot_id) const;
  // How often the driver answered `method` (e.g. "DeleteSnapshot") with OK.
  int DriverCallsOk(std::string_view method) const;

  // A client acting as a ServiceAccount of the manifests.
  static std::unique_ptr<kube::Client> ClientFor(const std::string& kubeconfig);

  const std::string& work_dir() const { return work_dir_; }
  const std::string& socket() const { return socket_; }

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline kube::Client* admin_ = nullptr;
  static inline std::string sidecar_kubeconfig_;
  static inline std::string controller_kubeconfig_;

 private:
  // Spawns `argv` with its log in the work directory, or fails the test.
  std::unique_ptr<testsupport::Process> Spawn(const std::string& name,
                                              std::vector<std::string> argv);

  static inline bool suite_ready_ = false;  // SetUpTestSuite got to its end
  static inline int tests_started_ = 0;     // numbers the sockets

  std::string work_dir_;
  std::string socket_;
  std::unique_ptr<testsupport::Process> driver_;
  std::unique_ptr<testsupport::Process> controller_;
  std::unique_ptr<testsupport::Process> sidecar_;
};

// The pair tests: parameterized by the sidecar under test, so the same checks
// run against upstream's csi-snapshotter and ours.
class SnapshotPairTest : public SnapshotTest,
                         public ::testing::WithParamInterface<SidecarUnderTest> {
 protected:
  // Finds the sidecar under test and starts it (StartSidecar).
  void StartSidecarUnderTest(std::vector<std::string> extra_args = {});
};

}  // namespace snapshot_it
