#include "tests/integration/sidecars/sidecars_fixture.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include "base/file.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/readiness.h"
#include "tests/support/source_dir.h"
#include "tests/support/test_case_files.h"

namespace sidecars_it {

using namespace std::chrono_literals;

testsupport::ControlPlane* CsiSidecarsTest::plane_ = nullptr;
kube::Client* CsiSidecarsTest::admin_ = nullptr;
std::string CsiSidecarsTest::kubeconfig_;

namespace {

// A driver name as a Lease name takes it: dots (and slashes) become dashes.
std::string Dashed(std::string name) {
  std::replace(name.begin(), name.end(), '.', '-');
  std::replace(name.begin(), name.end(), '/', '-');
  return name;
}

}  // namespace

DriverLeases LeasesOf(const std::string& driver) {
  return {.attacher = "external-attacher-leader-" + Dashed(driver),
          .provisioner = Dashed(driver),
          .resizer = "external-resizer-" + Dashed(driver),
          .snapshotter = "external-snapshotter-leader-" + Dashed(driver)};
}

void CsiSidecarsTest::StartSuite(bool snapshot_crds) {
  testsupport::ControlPlaneOptions options{.controller_manager = true};
  if (snapshot_crds) {
    const std::string log = std::filesystem::temp_directory_path() / "sidecars-peers.log";
    auto crds = testsupport::FindPeer("SNAPSHOT_CRDS_DIR", "snapshot", log);
    ASSERT_TRUE(crds.ok()) << crds.error().message;
    options.crd_dirs = {*crds};
  }
  auto plane = testsupport::ControlPlane::Start(options);
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  auto admin = testsupport::TestClient(plane_->admin_kubeconfig());
  ASSERT_TRUE(admin.ok()) << admin.error().message;
  admin_ = std::move(admin).value().release();
  auto account = plane_->AddServiceAccount(
      {.rbac_manifest = testsupport::SourcePath("deploy/kubernetes/csi-sidecars/rbac.yaml"),
       .ns = "default",
       .name = "csi-sidecars",
       .probe_paths = {"/api/v1/persistentvolumes?limit=1",
                       "/apis/coordination.k8s.io/v1/namespaces/default/leases?limit=1"}});
  ASSERT_TRUE(account.ok()) << account.error().message;
  kubeconfig_ = *account;
}

void CsiSidecarsTest::TearDownTestSuite() {
  delete admin_;
  admin_ = nullptr;
  delete plane_;
  plane_ = nullptr;
}

void CsiSidecarsTest::SetUp() {
  ASSERT_NE(plane_, nullptr) << "no control plane";
  work_dir_ = testsupport::FreshTestCaseDir(plane_->work_dir());
  // A socket path has at most 108 bytes: the plane's folder and a number.
  static int tests = 0;
  socket_ = plane_->work_dir() + "/driver-" + std::to_string(++tests) + ".sock";
}

void CsiSidecarsTest::TearDown() {
  // Sidecars first, then the driver they talk to.
  for (auto it = processes_.rbegin(); it != processes_.rend(); ++it) {
    if (HasFailure()) {
      std::cerr << "---- " << (*it)->log_file() << " ----\n" << (*it)->LogTail(40) << "\n";
    }
    (*it)->Stop();
  }
  processes_.clear();
}

void CsiSidecarsTest::StartFaultDriver(const std::string& driver,
                                       std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {FAULT_DRIVER_BIN, "--endpoint=" + socket_, "--name=" + driver};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto process = testsupport::SpawnLogged(work_dir_, "driver", std::move(argv));
  ASSERT_NE(process, nullptr);
  base::Status listening =
      testsupport::WaitFor("driver", "its socket", *process, 30s, [&]() -> base::Status {
        if (std::filesystem::exists(socket_)) return {};
        return base::Error("no socket " + socket_);
      });
  processes_.push_back(std::move(process));
  ASSERT_TRUE(listening.ok()) << listening.error().message;
}

testsupport::Process* CsiSidecarsTest::StartCsiSidecars(std::vector<std::string> args,
                                                        const std::string& identity,
                                                        const std::string& log_name) {
  std::vector<std::string> argv = {CSI_SIDECARS_BIN, "--kubeconfig=" + kubeconfig_,
                                   "--csi-address=" + socket_, "-v=5"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto process = testsupport::SpawnLogged(work_dir_, log_name, std::move(argv),
                                          {{"CSI_ATTACHER_LEADER_IDENTITY", identity},
                                           {"CSI_PROVISIONER_LEADER_IDENTITY", identity},
                                           {"CSI_RESIZER_LEADER_IDENTITY", identity},
                                           {"CSI_SNAPSHOTTER_LEADER_IDENTITY", identity}});
  if (!process) return nullptr;
  processes_.push_back(std::move(process));
  return processes_.back().get();
}

testsupport::Process* CsiSidecarsTest::StartUpstream(const std::string& variable,
                                                     const std::string& peer,
                                                     std::vector<std::string> args,
                                                     const std::string& log_name) {
  auto binary = testsupport::FindPeer(variable, peer, work_dir_ + "/peers.log");
  if (!binary.ok()) {
    ADD_FAILURE() << "upstream " << peer << " (" << variable << "): " << binary.error().message;
    return nullptr;
  }
  std::vector<std::string> argv = {*binary, "--kubeconfig=" + kubeconfig_,
                                   "--csi-address=" + socket_, "-v=5"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto process = testsupport::SpawnLogged(work_dir_, log_name, std::move(argv));
  if (!process) return nullptr;
  processes_.push_back(std::move(process));
  return processes_.back().get();
}

std::string CsiSidecarsTest::LogOf(const testsupport::Process& process) {
  auto log = base::ReadFile(process.log_file());
  return log.ok() ? *log : "";
}

void CsiSidecarsTest::CreateJson(const std::string& path, const nlohmann::json& object) {
  auto created = admin_->Request("POST", path, object.dump(), "application/json");
  ASSERT_TRUE(created.ok()) << "POST " << path << ": " << created.error().message;
}

nlohmann::json CsiSidecarsTest::GetJson(const std::string& path) {
  auto body = admin_->Request("GET", path);
  if (!body.ok()) return nullptr;
  return nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
}

void CsiSidecarsTest::PatchJson(const std::string& path, const nlohmann::json& merge_patch) {
  auto patched = admin_->Request("PATCH", path, merge_patch.dump(), "application/merge-patch+json");
  ASSERT_TRUE(patched.ok()) << "PATCH " << path << ": " << patched.error().message;
}

nlohmann::json CsiSidecarsTest::CreateClassAndClaim(const std::string& name,
                                                    const std::string& driver) {
  CreateJson("/apis/storage.k8s.io/v1/storageclasses", {{"apiVersion", "storage.k8s.io/v1"},
                                                        {"kind", "StorageClass"},
                                                        {"metadata", {{"name", name}}},
                                                        {"provisioner", driver},
                                                        {"allowVolumeExpansion", true}});
  CreateJson("/api/v1/namespaces/default/persistentvolumeclaims",
             {{"apiVersion", "v1"},
              {"kind", "PersistentVolumeClaim"},
              {"metadata", {{"name", name}}},
              {"spec",
               {{"storageClassName", name},
                {"accessModes", {"ReadWriteOnce"}},
                {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}});
  return GetJson("/api/v1/namespaces/default/persistentvolumeclaims/" + name);
}

bool CsiSidecarsTest::ClaimBound(const std::string& name) {
  auto phase = [](const nlohmann::json& claim) {
    return claim.value(nlohmann::json::json_pointer("/status/phase"), std::string());
  };
  return phase(Await("/api/v1/namespaces/default/persistentvolumeclaims/" + name,
                     [&](const nlohmann::json& c) { return phase(c) == "Bound"; })) == "Bound";
}

nlohmann::json CsiSidecarsTest::Await(const std::string& path,
                                      const std::function<bool(const nlohmann::json&)>& done,
                                      std::chrono::seconds timeout) {
  nlohmann::json last;
  testsupport::PollUntil(
      [&] {
        last = GetJson(path);
        return !last.is_null() && !last.is_discarded() && done(last);
      },
      timeout);
  return last;
}

std::string CsiSidecarsTest::HolderOf(const std::string& lease) {
  nlohmann::json object =
      GetJson("/apis/coordination.k8s.io/v1/namespaces/default/leases/" + lease);
  if (object.is_null() || object.is_discarded()) return "";
  return object.value(nlohmann::json::json_pointer("/spec/holderIdentity"), std::string());
}

}  // namespace sidecars_it
