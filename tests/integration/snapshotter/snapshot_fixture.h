// The snapshot stack end to end: a real control plane with the snapshot CRDs
// and both RBAC manifests of deploy/kubernetes/ (csi-snapshotter/,
// snapshot-controller/) applied, a CSI driver (the Kubernetes e2e mock driver,
// or tests/fault_csi_driver for failures a real driver will not produce), and
// snapshot-controller and csi-snapshotter binaries given by path (so the same
// tests run upstream's or ours). Each component runs as its own RBAC-limited
// ServiceAccount. One control plane per test suite; a driver, controllers and
// sidecars per test, stopped (log tails shown on failure) when the test ends.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/event.h"
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

// The warning of either binary, upstream's and ours, started while the group
// snapshot CRDs are missing: groups are off for the process
// (docs/snapshots.md §3.2 step 7, §4.1).
inline constexpr char kGroupCrdsMissingWarning[] =
    "VolumeGroupSnapshot CRDs were not found; disabling the VolumeGroupSnapshot feature for this "
    "run.";

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
// Ours, cmd/csi-snapshotter of this build.
SidecarUnderTest OurSidecar();

// A snapshot-controller binary, as SidecarUnderTest is a sidecar.
struct ControllerUnderTest {
  std::string name;
  std::function<base::Result<std::string>()> binary;

  friend void PrintTo(const ControllerUnderTest& controller, std::ostream* out) {
    *out << controller.name;
  }
};
// Upstream's, from $UPSTREAM_SNAPSHOT_CONTROLLER_BIN or tools/peers/build.sh
// snapshot.
ControllerUnderTest UpstreamController();
// Ours, cmd/snapshot-controller of this build; an error when this build has
// no such target.
ControllerUnderTest OurController();

class SnapshotTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartControlPlane(/*with_snapshot_crds=*/true); }
  static void TearDownTestSuite();
  // For suites that need a control plane without the snapshot CRDs.
  static void StartControlPlane(bool with_snapshot_crds);
  // Installs the snapshot CRDs (all six, or without `with_group_crds` the
  // three snapshot.storage.k8s.io ones, Established when it returns).
  static void InstallSnapshotCrds(bool with_group_crds = true);
  void SetUp() override;
  void TearDown() override;

  // Processes; the drivers and StartSnapshotController fail the test
  // fatally if they cannot start (call them under ASSERT_NO_FATAL_FAILURE),
  // StartController and StartSidecar fail it and are null. A driver is
  // waited for until its socket exists.
  // The e2e mock driver named `driver`, with `volumes` created volumes (IDs
  // 4, 5, ..., 100 GiB each).
  void StartMockDriver(const std::string& driver, int volumes = 1);
  // tests/fault_csi_driver named `driver`, with the back end's `volumes`
  // ("ID:BYTES,..."); faults come from WriteFaults, DriverState shows what it
  // saw.
  void StartFaultDriver(const std::string& driver, const std::string& volumes,
                        std::vector<std::string> extra_args = {});
  // Upstream's snapshot-controller, as StartController starts it.
  void StartSnapshotController(std::vector<std::string> extra_args = {});
  // The snapshot-controller at `binary` as the snapshot-controller
  // ServiceAccount, without leader election, with short retry intervals and
  // -v=5; `extra_args` come last, so they override those. Logged as
  // `<log_name>.log`; fails the test and is null if it cannot start.
  testsupport::Process* StartController(const std::string& binary,
                                        std::vector<std::string> extra_args = {},
                                        std::vector<std::pair<std::string, std::string>> env = {},
                                        const std::string& log_name = "snapshot-controller");
  // The csi-snapshotter at `binary` as the csi-snapshotter ServiceAccount,
  // talking to the driver's socket, with --timeout=10s, short retry
  // intervals and -v=5; `extra_args` come last, so they override those (Go
  // flag syntax: the last value wins). Logged as `<log_name>.log`; the first
  // one started is sidecar().
  testsupport::Process* StartSidecar(const std::string& binary,
                                     std::vector<std::string> extra_args = {},
                                     std::vector<std::pair<std::string, std::string>> env = {},
                                     const std::string& log_name = "sidecar");
  testsupport::Process& sidecar() const { return *sidecars_.front(); }
  // StartController and StartSidecar of a binary under test, once it is
  // found (the test fails saying why not).
  testsupport::Process* StartControllerOf(const ControllerUnderTest& controller,
                                          std::vector<std::string> extra_args = {},
                                          std::vector<std::pair<std::string, std::string>> env = {},
                                          const std::string& log_name = "snapshot-controller");
  testsupport::Process* StartSidecarOf(const SidecarUnderTest& sidecar,
                                       std::vector<std::string> extra_args = {},
                                       std::vector<std::pair<std::string, std::string>> env = {},
                                       const std::string& log_name = "sidecar");
  std::string SidecarLog() const;

  // Objects, created as admin; each fails the test if the server refuses.
  // A PV with a CSI source (driver, volume_handle) bound to PVC ns/pvc_name,
  // both 1Gi ReadWriteOnce, the PVC's status phase Bound; the PVC has `labels`.
  kube::PersistentVolumeClaim CreateBoundPvc(const std::string& ns, const std::string& pvc_name,
                                             const std::string& pv_name, const std::string& driver,
                                             const std::string& volume_handle,
                                             kube::StringMap labels = {});
  void CreateSnapshotClass(const std::string& name, const std::string& driver,
                           const std::string& deletion_policy, kube::StringMap parameters = {});
  // Returns the created VolumeSnapshot (its UID names the snapshot); without
  // `class_name` the controller picks the default class.
  kube::VolumeSnapshot CreateVolumeSnapshot(const std::string& ns, const std::string& name,
                                            const std::string& pvc_name,
                                            const std::optional<std::string>& class_name);
  void CreateSecret(const std::string& ns, const std::string& name, kube::StringMap data);
  // Gives the sidecar's ServiceAccount `get` on the Secrets of `ns`, as an
  // operator does for classes that name secrets (the RBAC manifest only
  // comments that rule), and waits until the authorizer applies it.
  void GrantSidecarSecretRead(const std::string& ns);

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
  // Polls `condition` until it holds or `timeout` passes; returns whether it held.
  static bool Eventually(const std::function<bool()>& condition,
                         std::chrono::seconds timeout = kAwaitTimeout);
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

  // The Events in `ns` about the object of `kind` named `name`, as admin
  // (Events about cluster-scoped objects are in "default").
  std::vector<kube::Event> EventsAbout(const std::string& ns, const std::string& kind,
                                       const std::string& name) const;
  // Polls until an Event with `reason` about that object exists.
  std::optional<kube::Event> AwaitEvent(const std::string& ns, const std::string& kind,
                                        const std::string& name, const std::string& reason);

  // What the driver holds and was asked.
  // Takes a snapshot of `source_volume` named `name` straight through the
  // driver's socket, as a backup tool would (for pre-provisioned contents);
  // returns its ID, or "" (and fails the test).
  std::string CreateDriverSnapshot(const std::string& name, const std::string& source_volume) const;
  // Whether the driver lists a snapshot with this ID (ListSnapshots; the
  // fault driver counts it as an answer about the snapshot).
  bool DriverHasSnapshot(const std::string& snapshot_id) const;
  // How often the driver answered `method` (e.g. "DeleteSnapshot") with OK.
  int DriverCallsOk(std::string_view method) const;
  // How often the driver received `method`, whatever it answered.
  int DriverCalls(std::string_view method) const;
  // The fault driver's faults.json, replaced atomically.
  void WriteFaults(const std::string& json) const;
  // The fault driver's state file ({} until its first call).
  nlohmann::json DriverState() const;
  // The state file's record of the snapshot named `snapshot_name` (null
  // until a CreateSnapshot call named it).
  nlohmann::json DriverSnapshotRecord(const std::string& snapshot_name) const;
  // A counter of that record ("create_calls", "answers", ...), 0 without one.
  int DriverSnapshotCounter(const std::string& snapshot_name, const std::string& counter) const;

  // A client acting as a ServiceAccount of the manifests.
  static std::unique_ptr<kube::Client> ClientFor(const std::string& kubeconfig);

  // The names of one test's objects, made `owner`'s own (tests of several
  // parameters share the suite's control plane).
  struct Names {
    std::string driver;                             // <base>-<owner>.csi.example.com
    std::string pvc, pv, snapshot_class, snapshot;  // pvc-<base>-<owner>, ...
  };
  // `base` made `owner`'s own ("pvc-a", "Ours" → "pvc-a-ours").
  static std::string OwnName(const std::string& base, const std::string& owner);
  static Names OwnNames(const std::string& base, const std::string& owner);

  const std::string& work_dir() const { return work_dir_; }
  const std::string& socket() const { return socket_; }
  std::string fault_dir() const { return work_dir_ + "/faults"; }
  std::string state_file() const { return work_dir_ + "/driver-state.json"; }

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline kube::Client* admin_ = nullptr;
  static inline std::string sidecar_kubeconfig_;
  static inline std::string controller_kubeconfig_;

 private:
  // Spawns `argv` with `env` and its log in the work directory, or fails the
  // test.
  std::unique_ptr<testsupport::Process> Spawn(
      const std::string& name, std::vector<std::string> argv,
      std::vector<std::pair<std::string, std::string>> env = {});

  static inline bool suite_ready_ = false;  // SetUpTestSuite got to its end
  static inline int tests_started_ = 0;     // numbers the sockets

  std::string work_dir_;
  std::string socket_;
  bool fault_driver_ = false;  // the driver is tests/fault_csi_driver
  std::unique_ptr<testsupport::Process> driver_;
  std::vector<std::unique_ptr<testsupport::Process>> controllers_;
  std::vector<std::unique_ptr<testsupport::Process>> sidecars_;
};

// The tests of our deliberate differences (docs/snapshots.md §9), which
// upstream's sidecar does not meet: they run our sidecar only, and their
// suite's name says so.
class OursOnlyTest : public SnapshotTest {
 protected:
  // Our sidecar, as StartSidecar starts it.
  testsupport::Process* StartOurSidecar(std::vector<std::string> extra_args = {}) {
    return StartSidecar(SNAPSHOTTER_BIN, std::move(extra_args));
  }
};

// The name the sidecar gives the driver's snapshot of `snapshot` with the
// default --snapshot-name-prefix and uuid length (docs/snapshots.md §3.4).
std::string DriverSnapshotName(const kube::VolumeSnapshot& snapshot);
// readyToUse of a VolumeSnapshot is true.
bool Ready(const kube::VolumeSnapshot& snapshot);

// The pair tests: parameterized by the sidecar under test, so the same checks
// run against upstream's csi-snapshotter and ours.
class SnapshotPairTest : public SnapshotTest,
                         public ::testing::WithParamInterface<SidecarUnderTest> {
 protected:
  // Finds the sidecar under test and starts it (StartSidecar).
  testsupport::Process* StartSidecarUnderTest(std::vector<std::string> extra_args = {}) {
    return StartSidecarOf(GetParam(), std::move(extra_args));
  }
  // `base` made the sidecar's own ("pvc-a" → "pvc-a-ours"): both sidecars'
  // tests share the suite's control plane.
  std::string Unique(const std::string& base) const { return OwnName(base, GetParam().name); }
  // The names of one test's objects, made the sidecar's own.
  Names NamesFor(const std::string& base) const { return OwnNames(base, GetParam().name); }
};

}  // namespace snapshot_it
