// The provisioner end to end: a real control plane whose
// kube-controller-manager runs the PersistentVolume binder (it annotates
// claims for their class's provisioner, binds claims to the volumes made for
// them and releases volumes whose claim is gone), the provisioner's RBAC of
// deploy/kubernetes/csi-provisioner/rbac.yaml, a CSI driver (the Kubernetes
// e2e mock driver, or tests/fault_csi_driver, which records what each call
// carried), and a csi-provisioner binary given by path, so the same tests run
// upstream's or ours. The provisioner runs as its RBAC-limited
// ServiceAccount. One control plane per test suite; a driver and provisioners
// per test, stopped (log tails shown on failure) when the test ends.
//
// Objects are written and read as JSON documents, so every field of a PV the
// provisioner writes can be checked, whatever the typed kinds of kube/api keep.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "kube/api/core/v1/event.h"
#include "kube/client/client.h"
#include "tests/support/binary_under_test.h"
#include "tests/support/control_plane.h"
#include "tests/support/csi_sidecars.h"
#include "tests/support/process.h"
#include "tests/support/provisioner_service_account.h"

namespace provisioner_it {

inline constexpr std::chrono::seconds kAwaitTimeout{60};

// The ServiceAccount of deploy/kubernetes/csi-provisioner/rbac.yaml.
using testsupport::kProvisionerAccount;
using testsupport::kProvisionerNamespace;

// Where the tests keep the Secrets their classes name: the only namespace
// whose Secrets the provisioner may read (GrantSecretRead), so the RBAC test
// sees the manifest's rules alone in the others.
inline constexpr char kSecretsNamespace[] = "provisioner-secrets";

// What the provisioner writes on a PV (docs/provisioner.md §3.2, §3.9).
inline constexpr char kPvFinalizer[] = "external-provisioner.volume.kubernetes.io/finalizer";
inline constexpr char kProvisionedBy[] = "pv.kubernetes.io/provisioned-by";
inline constexpr char kDeletionSecretName[] =
    "volume.kubernetes.io/provisioner-deletion-secret-name";
inline constexpr char kDeletionSecretNamespace[] =
    "volume.kubernetes.io/provisioner-deletion-secret-namespace";
inline constexpr char kProvisionerIdentity[] = "storage.kubernetes.io/csiProvisionerIdentity";
// What kube-controller-manager writes on a claim it hands to a provisioner.
inline constexpr char kStorageProvisioner[] = "volume.kubernetes.io/storage-provisioner";

// A csi-provisioner binary the pair tests run.
using ProvisionerUnderTest = testsupport::BinaryUnderTest;
// Upstream's, from $UPSTREAM_PROVISIONER_BIN or tools/peers/build.sh provisioner.
ProvisionerUnderTest UpstreamProvisioner();
// Ours, cmd/csi-provisioner of this build; an error when this build has no
// such target.
ProvisionerUnderTest OurProvisioner();

// A StorageClass as the tests write it.
struct ClassSpec {
  std::string name;
  std::string provisioner;
  std::map<std::string, std::string> parameters = {};
  std::string reclaim_policy = "Delete";
  std::vector<std::string> mount_options = {};
  std::string binding_mode = {};                // volumeBindingMode; "": Immediate
  nlohmann::json allowed_topologies = nullptr;  // allowedTopologies when set
};

// A PersistentVolumeClaim of a class.
struct ClaimSpec {
  std::string name;
  std::string storage_class;
  std::string ns = "default";
  std::vector<std::string> access_modes = {"ReadWriteOnce"};
  std::string size = "1Gi";
  std::string volume_mode = {};              // "": the API server's default, Filesystem
  nlohmann::json data_source = nullptr;      // spec.dataSource when set
  nlohmann::json data_source_ref = nullptr;  // spec.dataSourceRef when set
  std::string attributes_class = {};         // spec.volumeAttributesClassName when set
  std::map<std::string, std::string> annotations = {};
};

class ProvisionerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { StartSuite(); }
  // The suite's control plane, its API server given `extra_apiserver_args`.
  static void StartSuite(std::vector<std::string> extra_apiserver_args = {});
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  // Drivers; each fails the test fatally if it cannot start (call under
  // ASSERT_NO_FATAL_FAILURE) and is waited for until its socket exists.
  // The e2e mock driver named `driver`: volume IDs count from 4, each
  // volume's context is {"name": <CreateVolume name>}.
  void StartMockDriver(const std::string& driver);
  // tests/fault_csi_driver named `driver`, with `extra_args`; DriverState
  // shows what it saw.
  void StartFaultDriver(const std::string& driver, std::vector<std::string> extra_args = {});

  // The csi-provisioner at `binary` as the provisioner's ServiceAccount,
  // talking to the driver's socket, with --timeout=10s, short retry intervals
  // and -v=5; `extra_args` come last, so they override those (Go flag
  // syntax: the last value wins). Logged as `<log_name>.log`; fails the test
  // and is null if it cannot start.
  testsupport::Process* StartProvisioner(const std::string& binary,
                                         std::vector<std::string> extra_args = {},
                                         std::vector<std::pair<std::string, std::string>> env = {},
                                         const std::string& log_name = "provisioner");
  // StartProvisioner of a binary under test, once it is found (the test
  // fails saying why not).
  testsupport::Process* StartProvisionerOf(
      const ProvisionerUnderTest& provisioner, std::vector<std::string> extra_args = {},
      std::vector<std::pair<std::string, std::string>> env = {},
      const std::string& log_name = "provisioner");
  // The whole log of a provisioner this test started.
  static std::string LogOf(const testsupport::Process& process);

  // Objects, written as admin; each fails the test if the server refuses.
  void CreateStorageClass(const ClassSpec& spec);
  // Returns the created claim (its UID names the PV), null on failure.
  nlohmann::json CreateClaim(const ClaimSpec& spec);
  void DeleteClaim(const std::string& ns, const std::string& name);
  void CreateSecret(const std::string& ns, const std::string& name,
                    const std::map<std::string, std::string>& string_data);
  // Creates namespace kSecretsNamespace if missing, gives the provisioner's
  // ServiceAccount `get` on its Secrets, as an operator does for classes that
  // name secrets (the RBAC manifest only comments that rule), and waits
  // until the authorizer applies it.
  void GrantSecretRead();

  // Reads as admin: the object at API `path`, null when it cannot be read.
  static nlohmann::json GetJson(const std::string& path);
  static nlohmann::json GetPv(const std::string& name);
  static nlohmann::json GetClaim(const std::string& ns, const std::string& name);
  // Polls the PV until `done` holds or `timeout` passes; the last version
  // seen (null if it never existed).
  static nlohmann::json AwaitPv(const std::string& name,
                                const std::function<bool(const nlohmann::json&)>& done,
                                std::chrono::seconds timeout = kAwaitTimeout);
  // Polls until the claim is Bound; the last version seen.
  static nlohmann::json AwaitBound(const std::string& ns, const std::string& name,
                                   std::chrono::seconds timeout = kAwaitTimeout);
  // Polls until a GET of the PV answers 404.
  static bool AwaitPvGone(const std::string& name, std::chrono::seconds timeout = kAwaitTimeout);
  // Polls `condition` until it holds or `timeout` passes; returns whether it held.
  static bool Eventually(const std::function<bool()>& condition,
                         std::chrono::seconds timeout = kAwaitTimeout);

  // The Events in `ns` about the object of `kind` named `name`, as admin.
  static std::vector<kube::Event> EventsAbout(const std::string& ns, const std::string& kind,
                                              const std::string& name);
  // Polls until an Event with `reason` about that object exists.
  static std::optional<kube::Event> AwaitEvent(const std::string& ns, const std::string& kind,
                                               const std::string& name, const std::string& reason);

  // What the driver was asked and holds.
  // How often the driver received Controller `method` (e.g. "CreateVolume"),
  // whatever it answered, and how often it answered OK.
  int DriverCalls(std::string_view method) const;
  int DriverCallsOk(std::string_view method) const;
  // Replaces the fault driver's faults.json (tests/fault_csi_driver README)
  // atomically: a temporary file renamed over it.
  void WriteDriverFaults(const nlohmann::json& faults) const;
  // The fault driver's state file ({} until its first call).
  nlohmann::json DriverState() const;
  // The fault driver's record of the volume CreateVolume named `name`
  // (state file "volumes_by_name"), null without one.
  nlohmann::json DriverVolumeRecord(const std::string& name) const;
  // The requests of the fault driver's recorded `method` calls, in order.
  std::vector<nlohmann::json> DriverRequests(std::string_view method) const;
  // Those of its CreateVolume calls for the volume (PV) named `name`.
  std::vector<nlohmann::json> DriverCreateRequestsFor(const std::string& name) const;
  // The volumes the driver lists (ListVolumes): volume ID → volume context.
  std::map<std::string, std::map<std::string, std::string>> DriverVolumes() const;

  // The names of one test's objects, made `owner`'s own (tests of several
  // parameters share the suite's control plane).
  struct Names {
    std::string driver;         // <base>-<owner>.csi.example.com
    std::string storage_class;  // <base>-<owner>
    std::string claim;          // <base>-<owner>
  };
  // `base` made `owner`'s own ("delete", "Ours" → "delete-ours").
  static std::string OwnName(const std::string& base, const std::string& owner);
  static Names OwnNames(const std::string& base, const std::string& owner);

  const std::string& work_dir() const { return work_dir_; }
  const std::string& socket() const { return socket_; }

  static inline testsupport::ControlPlane* plane_ = nullptr;
  static inline kube::Client* admin_ = nullptr;
  static inline std::string provisioner_kubeconfig_;

 private:
  void AwaitDriverSocket();

  static inline bool suite_ready_ = false;  // SetUpTestSuite got to its end
  static inline int tests_started_ = 0;     // numbers the sockets

  std::string work_dir_;
  std::string socket_;
  bool fault_driver_ = false;  // the driver is tests/fault_csi_driver
  std::unique_ptr<testsupport::Process> driver_;
  std::vector<std::unique_ptr<testsupport::Process>> provisioners_;
};

// This machine's hostname, which upstream's provisioner puts in its Event
// source and uses as its leader-election identity.
std::string HostName();

// Whether `event` comes from the provisioning controller's recorder: source
// and reporting component <driver>_<hostname>_<random UUID>
// (docs/provisioner.md §3.10); the reason why not in `why`.
bool FromProvisionController(const kube::Event& event, const std::string& driver, std::string* why);

// status.phase of a claim or PV, "" when there is none (or no object).
std::string PhaseOf(const nlohmann::json& object);
// The object's annotation `key`, "" when there is none.
std::string AnnotationOf(const nlohmann::json& object, const std::string& key);

// The PV's required node affinity as "key In value ..." strings, one per
// requirement of each term, in order.
std::vector<std::string> NodeAffinityOf(const nlohmann::json& pv);

// The name the provisioner gives the PV (and the CSI volume) of `claim` with
// the default --volume-name-prefix and uuid length (docs/provisioner.md §3.3).
std::string PvNameOf(const nlohmann::json& claim);

// The tests of our deliberate differences (docs/provisioner.md §9), which
// upstream's provisioner does not meet: they run ours only, and their
// suite's name says so.
class OursOnlyTest : public ProvisionerTest {
 protected:
  testsupport::Process* StartOurProvisioner(std::vector<std::string> extra_args = {}) {
    return StartProvisionerOf(OurProvisioner(), std::move(extra_args));
  }
};

// The pair tests: parameterized by the provisioner under test, so the same
// checks run against upstream's csi-provisioner and ours.
class ProvisionerPairTest : public ProvisionerTest,
                            public ::testing::WithParamInterface<ProvisionerUnderTest> {
 protected:
  // Finds the provisioner under test and starts it (StartProvisioner).
  testsupport::Process* StartProvisionerUnderTest(std::vector<std::string> extra_args = {}) {
    return StartProvisionerOf(GetParam(), std::move(extra_args));
  }
  // `base` made the provisioner's own ("claim-a" → "claim-a-ours").
  std::string Unique(const std::string& base) const { return OwnName(base, GetParam().name); }
  Names NamesFor(const std::string& base) const { return OwnNames(base, GetParam().name); }
};

// Instantiates a ProvisionerPairTest suite for upstream's provisioner and ours
// (provision_test.cpp instantiates ProvisionerPairTest itself).
#define INSTANTIATE_PROVISIONER_PAIRS(suite)                                           \
  INSTANTIATE_TEST_SUITE_P(                                                            \
      Provisioners, suite, ::testing::Values(UpstreamProvisioner(), OurProvisioner()), \
      [](const ::testing::TestParamInfo<ProvisionerUnderTest>& info) { return info.param.name; })

// The suites csi-sidecars --controllers=provisioner runs too
// (docs/csi-sidecars.md): same tests, csi-sidecars given the provisioner's
// command line.
#define INSTANTIATE_PROVISIONER_IN_CSI_SIDECARS(suite)                                       \
  INSTANTIATE_TEST_SUITE_P(                                                                  \
      CsiSidecars, suite,                                                                    \
      ::testing::Values(testsupport::CsiSidecarsUnderTest("provisioner", CSI_SIDECARS_BIN)), \
      [](const ::testing::TestParamInfo<ProvisionerUnderTest>& info) { return info.param.name; })

}  // namespace provisioner_it
