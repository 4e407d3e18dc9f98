#include "tests/integration/snapshotter/snapshot_fixture.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <filesystem>
#include <iostream>

#include "base/file.h"
#include "csi/proto/csi.grpc.pb.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/snapshot_service_accounts.h"
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

void SnapshotTest::SetUpTestSuite() {
  auto crds = FindSnapshotPeer("SNAPSHOT_CRDS_DIR", "crds");
  ASSERT_TRUE(crds.ok()) << crds.error().message;
  auto plane = testsupport::ControlPlane::Start({.crd_dirs = {*crds}});
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  admin_ = ClientFor(plane_->admin_kubeconfig()).release();
  ASSERT_NE(admin_, nullptr);

  auto sidecar = plane_->AddServiceAccount(testsupport::SnapshotterIdentity());
  ASSERT_TRUE(sidecar.ok()) << sidecar.error().message;
  sidecar_kubeconfig_ = *sidecar;
  auto controller = plane_->AddServiceAccount(testsupport::SnapshotControllerIdentity());
  ASSERT_TRUE(controller.ok()) << controller.error().message;
  controller_kubeconfig_ = *controller;
  suite_ready_ = true;
}

void SnapshotTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
  suite_ready_ = false;
}

std::unique_ptr<kube::Client> SnapshotTest::ClientFor(const std::string& kubeconfig) {
  auto config = kube::LoadKubeconfig(kubeconfig);
  if (!config.ok()) {
    ADD_FAILURE() << config.error().message;
    return nullptr;
  }
  config->qps = 1000;
  config->burst = 1000;
  auto client = kube::Client::Create(*config);
  if (!client.ok()) {
    ADD_FAILURE() << client.error().message;
    return nullptr;
  }
  return std::move(client).value();
}

void SnapshotTest::SetUp() {
  ASSERT_TRUE(suite_ready_) << "the suite's control plane set-up failed (see above)";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  work_dir_ = plane_->work_dir() + "/" + name;
  std::filesystem::remove_all(work_dir_);
  std::filesystem::create_directories(work_dir_);
  // Not in work_dir_: a unix socket path must stay under 108 bytes.
  socket_ = fmt::format("{}/csi-{}.sock", plane_->work_dir(), ++tests_started_);
}

void SnapshotTest::TearDown() {
  if (HasFailure()) {
    for (const auto& [name, process] :
         {std::pair{"sidecar", &sidecar_}, std::pair{"snapshot-controller", &controller_},
          std::pair{"driver", &driver_}}) {
      if (*process) {
        std::cerr << "---- " << name << " log tail (" << (*process)->log_file() << ") ----\n"
                  << (*process)->LogTail(kLogTailLines) << "\n";
      }
    }
  }
  sidecar_.reset();
  controller_.reset();
  driver_.reset();
}

std::unique_ptr<testsupport::Process> SnapshotTest::Spawn(const std::string& name,
                                                          std::vector<std::string> argv) {
  auto process = testsupport::Process::Spawn(
      {.argv = std::move(argv), .log_file = work_dir_ + "/" + name + ".log"});
  if (!process.ok()) {
    ADD_FAILURE() << "start " << name << ": " << process.error().message;
    return nullptr;
  }
  return std::move(process).value();
}

void SnapshotTest::StartMockDriver(const std::string& driver, int volumes) {
  auto binary = FindSnapshotPeer("CSI_MOCK_BIN", "csi-mock");
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  driver_ = Spawn("driver", {*binary, "--endpoint=" + socket_, "--name=" + driver,
                             "--create-volumes=" + std::to_string(volumes)});
  ASSERT_NE(driver_, nullptr);
  ASSERT_TRUE(AwaitSocket(socket_, *driver_)) << "driver did not start:\n" << driver_->LogTail(20);
}

void SnapshotTest::StartSnapshotController(std::vector<std::string> extra_args) {
  auto binary = FindSnapshotPeer("UPSTREAM_SNAPSHOT_CONTROLLER_BIN", "snapshot");
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  std::vector<std::string> argv = {*binary,
                                   "--kubeconfig=" + controller_kubeconfig_,
                                   "--leader-election=false",
                                   "--retry-interval-start=200ms",
                                   "--retry-interval-max=5s",
                                   "--kube-api-qps=100",
                                   "--kube-api-burst=200",
                                   "--v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  controller_ = Spawn("snapshot-controller", std::move(argv));
  ASSERT_NE(controller_, nullptr);
}

void SnapshotTest::StartSidecar(const std::string& binary, std::vector<std::string> extra_args) {
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
  sidecar_ = Spawn("sidecar", std::move(argv));
  ASSERT_NE(sidecar_, nullptr);
}

void SnapshotPairTest::StartSidecarUnderTest(std::vector<std::string> extra_args) {
  auto binary = GetParam().binary();
  ASSERT_TRUE(binary.ok()) << GetParam().name << " csi-snapshotter: " << binary.error().message;
  StartSidecar(*binary, std::move(extra_args));
}

kube::PersistentVolumeClaim SnapshotTest::CreateBoundPvc(const std::string& ns,
                                                         const std::string& pvc_name,
                                                         const std::string& pv_name,
                                                         const std::string& driver,
                                                         const std::string& volume_handle) {
  kube::PersistentVolumeClaim claim;
  claim.metadata.namespace_ = ns;
  claim.metadata.name = pvc_name;
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
                                       const std::string& deletion_policy) {
  kube::VolumeSnapshotClass snapshot_class;
  snapshot_class.metadata.name = name;
  snapshot_class.driver = driver;
  snapshot_class.deletion_policy = deletion_policy;
  auto created = admin_->Create(snapshot_class);
  ASSERT_TRUE(created.ok()) << "create VolumeSnapshotClass: " << created.error().message;
}

void SnapshotTest::CreateVolumeSnapshot(const std::string& ns, const std::string& name,
                                        const std::string& pvc_name,
                                        const std::string& class_name) {
  kube::VolumeSnapshot snapshot;
  snapshot.metadata.namespace_ = ns;
  snapshot.metadata.name = name;
  snapshot.spec.source.persistent_volume_claim_name = pvc_name;
  snapshot.spec.volume_snapshot_class_name = class_name;
  auto created = admin_->Create(snapshot);
  ASSERT_TRUE(created.ok()) << "create VolumeSnapshot: " << created.error().message;
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
  auto log = base::ReadFile(driver_->log_file());
  if (!log.ok()) return 0;
  const std::string line = fmt::format("csi-mock call /csi.v1.Controller/{}: OK", method);
  int count = 0;
  for (auto pos = log->find(line); pos != std::string::npos; pos = log->find(line, pos + 1)) {
    ++count;
  }
  return count;
}

}  // namespace snapshot_it
