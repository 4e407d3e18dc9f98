#include "tests/integration/snapshotter/snapshot_fixture.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "base/file.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/api/core/v1/secret.h"
#include "tests/support/access_review.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/snapshot_service_accounts.h"
#include "tests/support/test_case_files.h"
#include "tests/support/test_objects.h"

namespace snapshot_it {
namespace {

using namespace std::chrono_literals;

constexpr int kLogTailLines = 60;

// A peer from the environment or tools/peers/build.sh (its output in
// $TMPDIR, as there is no control plane work directory yet for the first).
base::Result<std::string> FindSnapshotPeer(std::string_view variable, std::string_view peer) {
  const std::string log =
      (std::filesystem::temp_directory_path() / "integration-snapshotter-peers.log").string();
  return testsupport::FindPeer(variable, peer, log);
}

bool AwaitSocket(const std::string& path, testsupport::Process& process) {
  for (auto deadline = std::chrono::steady_clock::now() + 30s;
       std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(50ms)) {
    if (std::filesystem::exists(path)) return true;
    if (!process.IsRunning()) return false;
  }
  return false;
}

}  // namespace

SidecarUnderTest UpstreamSidecar() {
  return {.name = "Upstream",
          .binary = [] { return FindSnapshotPeer("UPSTREAM_SNAPSHOTTER_BIN", "snapshot"); }};
}

SidecarUnderTest OurSidecar() {
  return {.name = "Ours",
          .binary = []() -> base::Result<std::string> { return std::string(SNAPSHOTTER_BIN); }};
}

ControllerUnderTest UpstreamController() {
  return {.name = "Upstream", .binary = [] {
            return FindSnapshotPeer("UPSTREAM_SNAPSHOT_CONTROLLER_BIN", "snapshot");
          }};
}

ControllerUnderTest OurController() {
  return {.name = "Ours", .binary = []() -> base::Result<std::string> {
#ifdef SNAPSHOT_CONTROLLER_BIN
            return std::string(SNAPSHOT_CONTROLLER_BIN);
#else
            return base::Error(
                "this build has no snapshot-controller target (cmd/snapshot-controller)");
#endif
          }};
}

void SnapshotTest::StartControlPlane(bool with_snapshot_crds) {
  testsupport::ControlPlaneOptions options;
  if (with_snapshot_crds) {
    auto crds = FindSnapshotPeer("SNAPSHOT_CRDS_DIR", "crds");
    ASSERT_TRUE(crds.ok()) << crds.error().message;
    options.crd_dirs = {*crds};
  }
  auto plane = testsupport::ControlPlane::Start(options);
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  admin_ = ClientFor(plane_->admin_kubeconfig()).release();
  ASSERT_NE(admin_, nullptr);

  auto accounts = testsupport::AddSnapshotServiceAccounts(*plane_);
  ASSERT_TRUE(accounts.ok()) << accounts.error().message;
  sidecar_kubeconfig_ = accounts->sidecar;
  controller_kubeconfig_ = accounts->controller;
  suite_ready_ = true;
}

void SnapshotTest::InstallSnapshotCrds(bool with_group_crds) {
  auto crds = FindSnapshotPeer("SNAPSHOT_CRDS_DIR", "crds");
  ASSERT_TRUE(crds.ok()) << crds.error().message;
  std::string dir = *crds;
  if (!with_group_crds) {
    // InstallCrds takes a directory: one with the single snapshot CRDs only.
    dir = plane_->work_dir() + "/snapshot-crds-without-groups";
    std::filesystem::create_directories(dir);
    for (const auto& entry : std::filesystem::directory_iterator(*crds)) {
      if (entry.path().filename().string().starts_with("snapshot.storage.k8s.io_")) {
        std::filesystem::copy_file(entry.path(),
                                   std::filesystem::path(dir) / entry.path().filename(),
                                   std::filesystem::copy_options::overwrite_existing);
      }
    }
  }
  auto installed = plane_->InstallCrds(dir);
  ASSERT_TRUE(installed.ok()) << installed.error().message;
}

void SnapshotTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
  suite_ready_ = false;
}

std::unique_ptr<kube::Client> SnapshotTest::ClientFor(const std::string& kubeconfig) {
  auto client = testsupport::TestClient(kubeconfig);
  if (!client.ok()) ADD_FAILURE() << client.error().message;
  return client.ok() ? std::move(client).value() : nullptr;
}

void SnapshotTest::SetUp() {
  ASSERT_TRUE(suite_ready_) << "the suite's control plane set-up failed (see above)";
  work_dir_ = testsupport::FreshTestCaseDir(plane_->work_dir());
  std::filesystem::create_directories(fault_dir());
  // Not in work_dir_: a unix socket path must stay under 108 bytes.
  socket_ = fmt::format("{}/csi-{}.sock", plane_->work_dir(), ++tests_started_);
}

void SnapshotTest::TearDown() {
  if (HasFailure()) {
    auto show = [](const std::string& name, const testsupport::Process& process) {
      testsupport::PrintLogTail(name, process, kLogTailLines);
    };
    for (const auto& sidecar : sidecars_) show("sidecar", *sidecar);
    for (const auto& controller : controllers_) show("snapshot-controller", *controller);
    if (driver_) show("driver", *driver_);
  }
  sidecars_.clear();
  controllers_.clear();
  driver_.reset();
}

std::unique_ptr<testsupport::Process> SnapshotTest::Spawn(
    const std::string& name, std::vector<std::string> argv,
    std::vector<std::pair<std::string, std::string>> env) {
  return testsupport::SpawnLogged(work_dir_, name, std::move(argv), std::move(env));
}

void SnapshotTest::StartMockDriver(const std::string& driver, int volumes) {
  auto binary = FindSnapshotPeer("CSI_MOCK_BIN", "csi-mock");
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  driver_ = Spawn("driver", {*binary, "--endpoint=" + socket_, "--name=" + driver,
                             "--create-volumes=" + std::to_string(volumes)});
  ASSERT_NE(driver_, nullptr);
  ASSERT_TRUE(AwaitSocket(socket_, *driver_)) << "driver did not start:\n" << driver_->LogTail(20);
}

void SnapshotTest::StartFaultDriver(const std::string& driver, const std::string& volumes,
                                    std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {
      FAULT_DRIVER_BIN,       "--endpoint=" + socket_,        "--name=" + driver,
      "--volumes=" + volumes, "--control-dir=" + fault_dir(), "--state-file=" + state_file()};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  driver_ = Spawn("driver", std::move(argv));
  ASSERT_NE(driver_, nullptr);
  fault_driver_ = true;
  ASSERT_TRUE(AwaitSocket(socket_, *driver_)) << "driver did not start:\n" << driver_->LogTail(20);
}

void SnapshotTest::StartSnapshotController(std::vector<std::string> extra_args) {
  ASSERT_NE(StartControllerOf(UpstreamController(), std::move(extra_args)), nullptr);
}

testsupport::Process* SnapshotTest::StartController(
    const std::string& binary, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  std::vector<std::string> argv = {binary,
                                   "--kubeconfig=" + controller_kubeconfig_,
                                   "--leader-election=false",
                                   "--retry-interval-start=200ms",
                                   "--retry-interval-max=5s",
                                   "--kube-api-qps=100",
                                   "--kube-api-burst=200",
                                   "--v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto process = Spawn(log_name, std::move(argv), std::move(env));
  if (!process) return nullptr;
  controllers_.push_back(std::move(process));
  return controllers_.back().get();
}

testsupport::Process* SnapshotTest::StartSidecar(
    const std::string& binary, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  std::vector<std::string> argv = {binary,
                                   "--kubeconfig=" + sidecar_kubeconfig_,
                                   "--csi-address=" + socket_,
                                   "--timeout=10s",
                                   "--retry-interval-start=200ms",
                                   "--retry-interval-max=5s",
                                   "--kube-api-qps=100",
                                   "--kube-api-burst=200",
                                   "--v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto process = Spawn(log_name, std::move(argv), std::move(env));
  if (!process) return nullptr;
  sidecars_.push_back(std::move(process));
  return sidecars_.back().get();
}

std::string SnapshotTest::SidecarLog() const {
  auto log = base::ReadFile(sidecar().log_file());
  return log.ok() ? *log : "";
}

testsupport::Process* SnapshotTest::StartControllerOf(
    const ControllerUnderTest& controller, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  auto binary = controller.binary();
  if (!binary.ok()) {
    ADD_FAILURE() << controller.name << " snapshot-controller: " << binary.error().message;
    return nullptr;
  }
  return StartController(*binary, std::move(extra_args), std::move(env), log_name);
}

testsupport::Process* SnapshotTest::StartSidecarOf(
    const SidecarUnderTest& sidecar, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  auto binary = sidecar.binary();
  if (!binary.ok()) {
    ADD_FAILURE() << sidecar.name << " csi-snapshotter: " << binary.error().message;
    return nullptr;
  }
  return StartSidecar(*binary, std::move(extra_args), std::move(env), log_name);
}

std::string SnapshotTest::OwnName(const std::string& base, const std::string& owner) {
  std::string suffix = owner;
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return base + "-" + suffix;
}

SnapshotTest::Names SnapshotTest::OwnNames(const std::string& base, const std::string& owner) {
  const std::string own = OwnName(base, owner);
  return {.driver = own + ".csi.example.com",
          .pvc = "pvc-" + own,
          .pv = "pv-" + own,
          .snapshot_class = "class-" + own,
          .snapshot = "snap-" + own};
}

kube::PersistentVolumeClaim SnapshotTest::CreateBoundPvc(
    const std::string& ns, const std::string& pvc_name, const std::string& pv_name,
    const std::string& driver, const std::string& volume_handle, kube::StringMap labels) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = ns;
  claim.metadata.name = pvc_name;
  claim.metadata.labels = std::move(labels);
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.spec.requests_storage = "1Gi";
  claim.spec.storage_class_name = "";  // static binding, no provisioner
  claim.spec.volume_name = pv_name;
  auto pvc = admin_->Create(claim);
  EXPECT_TRUE(pvc.ok()) << "create PVC: " << pvc.error().message;
  if (!pvc.ok()) return {};

  kube::PersistentVolume volume = kube::testobjects::CsiPv(pv_name, driver, volume_handle);
  volume.spec.claim_ref =
      kube::ClaimReference{.namespace_ = ns, .name = pvc_name, .uid = pvc->metadata.uid};
  auto pv = admin_->Create(volume);
  EXPECT_TRUE(pv.ok()) << "create PV: " << pv.error().message;
  // No kube-controller-manager runs: the binding's status is ours to write.
  pvc->status.phase = "Bound";
  auto bound = admin_->UpdateStatus(*pvc);
  EXPECT_TRUE(bound.ok()) << "PVC status Bound: " << bound.error().message;
  if (pv.ok()) {
    pv->status.phase = "Bound";
    auto pv_bound = admin_->UpdateStatus(*pv);
    EXPECT_TRUE(pv_bound.ok()) << "PV status Bound: " << pv_bound.error().message;
  }
  return bound.ok() ? *bound : *pvc;
}

void SnapshotTest::CreateSnapshotClass(const std::string& name, const std::string& driver,
                                       const std::string& deletion_policy,
                                       kube::StringMap parameters) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = name;
  snapshot_class.driver = driver;
  snapshot_class.deletion_policy = deletion_policy;
  snapshot_class.parameters = std::move(parameters);
  auto created = admin_->Create(snapshot_class);
  ASSERT_TRUE(created.ok()) << "create VolumeSnapshotClass: " << created.error().message;
}

kube::VolumeSnapshot SnapshotTest::CreateVolumeSnapshot(
    const std::string& ns, const std::string& name, const std::string& pvc_name,
    const std::optional<std::string>& class_name) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = ns;
  snapshot.metadata.name = name;
  snapshot.spec.source.persistent_volume_claim_name = pvc_name;
  snapshot.spec.volume_snapshot_class_name = class_name;
  auto created = admin_->Create(snapshot);
  EXPECT_TRUE(created.ok()) << "create VolumeSnapshot: " << created.error().message;
  return created.ok() ? *created : snapshot;
}

void SnapshotTest::CreateSecret(const std::string& ns, const std::string& name,
                                kube::StringMap data) {
  kube::Secret secret;
  secret.metadata.namespace_ = ns;
  secret.metadata.name = name;
  secret.data = std::move(data);
  auto created = admin_->Create(secret);
  ASSERT_TRUE(created.ok()) << "create Secret: " << created.error().message;
}

void SnapshotTest::GrantSidecarSecretRead(const std::string& ns) {
  auto as_sidecar = ClientFor(sidecar_kubeconfig_);
  ASSERT_NE(as_sidecar, nullptr);
  auto granted = testsupport::GrantSecretGet(*admin_, *as_sidecar, ns, kSnapshotterNamespace,
                                             kSnapshotterAccount, "csi-snapshotter-secrets");
  ASSERT_TRUE(granted.ok()) << granted.error().message;
}

bool SnapshotTest::Eventually(const std::function<bool()>& condition,
                              std::chrono::seconds timeout) {
  return testsupport::PollUntil(condition, timeout);
}

std::vector<kube::Event> SnapshotTest::EventsAbout(const std::string& ns, const std::string& kind,
                                                   const std::string& name) const {
  return testsupport::EventsAbout(*admin_, ns, kind, name);
}

std::optional<kube::Event> SnapshotTest::AwaitEvent(const std::string& ns, const std::string& kind,
                                                    const std::string& name,
                                                    const std::string& reason) {
  return testsupport::AwaitEvent(*admin_, ns, kind, name, reason, kAwaitTimeout);
}

std::string SnapshotTest::CreateDriverSnapshot(const std::string& name,
                                               const std::string& source_volume) const {
  auto channel = grpc::CreateChannel("unix://" + socket_, grpc::InsecureChannelCredentials());
  auto stub = csi::v1::Controller::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + 10s);
  csi::v1::CreateSnapshotRequest request;
  request.set_name(name);
  request.set_source_volume_id(source_volume);
  csi::v1::CreateSnapshotResponse response;
  grpc::Status status = stub->CreateSnapshot(&context, request, &response);
  EXPECT_TRUE(status.ok()) << "CreateSnapshot: " << status.error_message();
  return status.ok() ? response.snapshot().snapshot_id() : "";
}

bool SnapshotTest::DriverHasSnapshot(const std::string& snapshot_id) const {
  auto channel = grpc::CreateChannel("unix://" + socket_, grpc::InsecureChannelCredentials());
  auto stub = csi::v1::Controller::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + 10s);
  csi::v1::ListSnapshotsRequest request;
  request.set_snapshot_id(snapshot_id);
  csi::v1::ListSnapshotsResponse response;
  grpc::Status status = stub->ListSnapshots(&context, request, &response);
  EXPECT_TRUE(status.ok()) << "ListSnapshots: " << status.error_message();
  for (const auto& entry : response.entries()) {
    if (entry.snapshot().snapshot_id() == snapshot_id) return true;
  }
  return false;
}

int SnapshotTest::DriverCallsOk(std::string_view method) const {
  if (!driver_) return 0;
  if (fault_driver_) return testsupport::CountFaultDriverCalls(DriverState(), method, true);
  auto log = base::ReadFile(driver_->log_file());
  return log.ok() ? testsupport::CountMockDriverCalls(*log, method, true) : 0;
}

int SnapshotTest::DriverCalls(std::string_view method) const {
  EXPECT_TRUE(fault_driver_) << "only the fault driver records failed calls";
  return testsupport::CountFaultDriverCalls(DriverState(), method, false);
}

void SnapshotTest::WriteFaults(const std::string& json) const {
  const std::string temp = fault_dir() + "/faults.json.tmp";
  std::ofstream(temp) << json;
  std::filesystem::rename(temp, fault_dir() + "/faults.json");
}

nlohmann::json SnapshotTest::DriverState() const {
  return testsupport::ReadFaultDriverState(state_file());
}

nlohmann::json SnapshotTest::DriverSnapshotRecord(const std::string& snapshot_name) const {
  nlohmann::json state = DriverState();
  if (!state.contains("snapshots") || !state["snapshots"].contains(snapshot_name)) return nullptr;
  return state["snapshots"][snapshot_name];
}

int SnapshotTest::DriverSnapshotCounter(const std::string& snapshot_name,
                                        const std::string& counter) const {
  nlohmann::json record = DriverSnapshotRecord(snapshot_name);
  return record.is_object() ? record.value(counter, 0) : 0;
}

std::string DriverSnapshotName(const kube::VolumeSnapshot& snapshot) {
  return "snapshot-" + snapshot.metadata.uid.str();
}

bool Ready(const kube::VolumeSnapshot& snapshot) {
  return snapshot.status && snapshot.status->ready_to_use.value_or(false);
}

}  // namespace snapshot_it
