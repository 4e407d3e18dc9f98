#include "tests/integration/resizer/resizer_fixture.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>

#include "base/file.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/client/api_error.h"
#include "tests/support/access_review.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/http_get.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/readiness.h"
#include "tests/support/test_case_files.h"

namespace resizer_it {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

constexpr int kResizerLogTail = 60;

base::Result<std::string> FindResizerPeer(std::string_view variable, std::string_view peer) {
  const std::string log =
      (std::filesystem::temp_directory_path() / "integration-resizer-peers.log").string();
  return testsupport::FindPeer(variable, peer, log);
}

std::unique_ptr<kube::Client> ResizerClientFor(const std::string& kubeconfig) {
  auto client = testsupport::TestClient(kubeconfig);
  if (!client.ok()) ADD_FAILURE() << client.error().message;
  return client.ok() ? std::move(client).value() : nullptr;
}

std::string ClaimPath(const std::string& name) {
  return "/api/v1/namespaces/default/persistentvolumeclaims/" + name;
}

}  // namespace

ResizerUnderTest UpstreamResizer() {
  return {.name = "Upstream",
          .binary = [] { return FindResizerPeer("UPSTREAM_RESIZER_BIN", "resizer"); }};
}

ResizerUnderTest OurResizer() {
  return {.name = "Ours",
          .binary = []() -> base::Result<std::string> { return std::string(RESIZER_BIN); }};
}

std::string StatusString(const json& claim, const std::string& pointer) {
  const json::json_pointer at(pointer);
  if (!claim.is_object() || !claim.contains(at) || !claim.at(at).is_string()) return "";
  return claim.at(at).get<std::string>();
}

bool HasTrueCondition(const json& claim, const std::string& type) {
  const json::json_pointer at("/status/conditions");
  if (!claim.is_object() || !claim.contains(at)) return false;
  return std::ranges::any_of(claim.at(at), [&](const json& c) {
    return c.value("type", "") == type && c.value("status", "") == "True";
  });
}

void ResizerTest::SetUpTestSuite() {
  auto plane = testsupport::ControlPlane::Start({});
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  admin_ = ResizerClientFor(plane_->admin_kubeconfig()).release();
  ASSERT_NE(admin_, nullptr);
  auto account = plane_->AddServiceAccount(testsupport::ResizerIdentity());
  ASSERT_TRUE(account.ok()) << account.error().message;
  resizer_kubeconfig_ = *account;
  suite_ready_ = true;
}

void ResizerTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
  suite_ready_ = false;
}

void ResizerTest::SetUp() {
  ASSERT_TRUE(suite_ready_) << "the suite's control plane set-up failed (see above)";
  work_dir_ = testsupport::FreshTestCaseDir(plane_->work_dir());
  // Not in work_dir_: a unix socket path must stay under 108 bytes.
  socket_ = fmt::format("{}/rz-{}.sock", plane_->work_dir(), ++tests_started_);
}

void ResizerTest::TearDown() {
  if (HasFailure()) {
    for (const auto& resizer : resizers_) {
      testsupport::PrintLogTail("resizer", *resizer, kResizerLogTail);
    }
    if (driver_) testsupport::PrintLogTail("driver", *driver_, kResizerLogTail);
  }
  resizers_.clear();
  driver_.reset();
}

std::string ResizerTest::Own(const std::string& base) const {
  std::string owner = GetParam().name;
  std::ranges::transform(owner, owner.begin(), [](unsigned char c) { return std::tolower(c); });
  return base + "-" + owner;
}

std::string ResizerTest::DriverFor(const std::string& base) const {
  return Own(base) + ".csi.example.com";
}

void ResizerTest::StartMockDriver(const std::string& driver) {
  auto binary = FindResizerPeer("CSI_MOCK_BIN", "csi-mock");
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  driver_ = testsupport::SpawnLogged(work_dir_, "driver",
                                     {*binary, "--endpoint=" + socket_, "--name=" + driver});
  ASSERT_NO_FATAL_FAILURE(AwaitDriverSocket());
}

void ResizerTest::StartFaultDriver(const std::string& driver, std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {FAULT_DRIVER_BIN, "--endpoint=" + socket_, "--name=" + driver};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  driver_ = testsupport::SpawnLogged(work_dir_, "driver", std::move(argv));
  ASSERT_NO_FATAL_FAILURE(AwaitDriverSocket());
}

void ResizerTest::StartFaultDriverWithFaults(const std::string& driver, const std::string& faults,
                                             std::vector<std::string> extra_args) {
  std::filesystem::create_directories(work_dir_ + "/control");
  SetFaults(faults);
  extra_args.push_back("--control-dir=" + work_dir_ + "/control");
  extra_args.push_back("--state-file=" + DriverStatePath());
  StartFaultDriver(driver, std::move(extra_args));
}

void ResizerTest::SetFaults(const std::string& faults) {
  const std::string path = work_dir_ + "/control/faults.json";
  std::ofstream(path + ".tmp") << faults;
  std::filesystem::rename(path + ".tmp", path);
}

void ResizerTest::AwaitDriverSocket() {
  ASSERT_NE(driver_, nullptr);
  auto listening =
      testsupport::WaitFor("driver", "its socket", *driver_, 30s, [&]() -> base::Status {
        if (std::filesystem::exists(socket_)) return {};
        return base::Error("no socket " + socket_);
      });
  ASSERT_TRUE(listening.ok()) << listening.error().message;
}

std::string ResizerTest::CreateDriverVolume(const std::string& name, int64_t bytes) {
  auto channel = grpc::CreateChannel("unix://" + socket_, grpc::InsecureChannelCredentials());
  auto stub = csi::v1::Controller::NewStub(channel);
  csi::v1::CreateVolumeRequest request;
  request.set_name(name);
  request.mutable_capacity_range()->set_required_bytes(bytes);
  auto* capability = request.add_volume_capabilities();
  capability->mutable_mount();
  capability->mutable_access_mode()->set_mode(
      csi::v1::VolumeCapability::AccessMode::SINGLE_NODE_WRITER);
  csi::v1::CreateVolumeResponse response;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + 10s);
  grpc::Status status = stub->CreateVolume(&context, request, &response);
  EXPECT_TRUE(status.ok()) << "CreateVolume " << name << ": " << status.error_message();
  return response.volume().volume_id();
}

testsupport::Process* ResizerTest::StartResizerOf(
    const ResizerUnderTest& resizer, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  auto binary = resizer.binary();
  if (!binary.ok()) {
    ADD_FAILURE() << resizer.name << " csi-resizer: " << binary.error().message;
    return nullptr;
  }
  std::vector<std::string> argv = {*binary,
                                   "--kubeconfig=" + resizer_kubeconfig_,
                                   "--csi-address=" + socket_,
                                   "--retry-interval-start=100ms",
                                   "--retry-interval-max=2s",
                                   "-v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto process = testsupport::SpawnLogged(work_dir_, log_name, std::move(argv), std::move(env));
  if (!process) return nullptr;
  resizers_.push_back(std::move(process));
  return resizers_.back().get();
}

int ResizerTest::ExitCodeOf(std::vector<std::string> args) {
  auto binary = GetParam().binary();
  if (!binary.ok()) {
    ADD_FAILURE() << GetParam().name << " csi-resizer: " << binary.error().message;
    return -1;
  }
  args.insert(args.begin(), *binary);
  auto process = testsupport::SpawnLogged(work_dir_, "resizer-exit", std::move(args));
  if (!process) return -1;
  const bool exited = testsupport::PollUntil([&] { return !process->IsRunning(); }, 20s);
  resizers_.push_back(std::move(process));
  return exited ? resizers_.back()->exit_status() : -1;
}

void ResizerTest::CreateExpandableClass(const std::string& name, const std::string& driver) {
  const json object = {{"apiVersion", "storage.k8s.io/v1"},
                       {"kind", "StorageClass"},
                       {"metadata", {{"name", name}}},
                       {"provisioner", driver},
                       {"allowVolumeExpansion", true}};
  auto created = admin_->Request("POST", "/apis/storage.k8s.io/v1/storageclasses", object.dump(),
                                 "application/json");
  ASSERT_TRUE(created.ok()) << "create StorageClass " << name << ": " << created.error().message;
}

json ResizerTest::CreateBoundClaim(const BoundClaimSpec& spec) {
  const std::string pv_name = "pv-" + spec.name;
  json metadata = {{"name", spec.name}, {"namespace", "default"}};
  if (!spec.claim_annotations.empty()) metadata["annotations"] = spec.claim_annotations;
  json claim = {{"apiVersion", "v1"},
                {"kind", "PersistentVolumeClaim"},
                {"metadata", metadata},
                {"spec",
                 {{"accessModes", {"ReadWriteOnce"}},
                  {"storageClassName", spec.storage_class},
                  {"volumeName", pv_name},
                  {"resources", {{"requests", {{"storage", spec.size}}}}}}}};
  auto created = admin_->Request("POST", "/api/v1/namespaces/default/persistentvolumeclaims",
                                 claim.dump(), "application/json");
  EXPECT_TRUE(created.ok()) << "create PVC " << spec.name << ": " << created.error().message;
  if (!created.ok()) return nullptr;
  const std::string uid = json::parse(*created)["metadata"]["uid"];
  json csi = {{"driver", spec.driver}, {"volumeHandle", spec.volume_handle}, {"fsType", "ext4"}};
  if (spec.expand_secret) {
    csi["controllerExpandSecretRef"] = {{"namespace", spec.expand_secret->first},
                                        {"name", spec.expand_secret->second}};
  }
  json pv = {{"apiVersion", "v1"},
             {"kind", "PersistentVolume"},
             {"metadata", {{"name", pv_name}}},
             {"spec",
              {{"capacity", {{"storage", spec.size}}},
               {"accessModes", {"ReadWriteOnce"}},
               {"persistentVolumeReclaimPolicy", "Retain"},
               {"storageClassName", spec.storage_class},
               {"claimRef", {{"namespace", "default"}, {"name", spec.name}, {"uid", uid}}}}}};
  if (spec.in_tree_gce_pd.empty()) {
    pv["spec"]["csi"] = csi;
  } else {
    pv["metadata"]["labels"] = {{"topology.kubernetes.io/zone", kGceZone}};
    pv["spec"]["gcePersistentDisk"] = {{"pdName", spec.in_tree_gce_pd}, {"fsType", "ext4"}};
  }
  auto pv_created =
      admin_->Request("POST", "/api/v1/persistentvolumes", pv.dump(), "application/json");
  EXPECT_TRUE(pv_created.ok()) << "create PV " << pv_name << ": " << pv_created.error().message;
  // What the PV binder would write: Bound, with the PV's capacity.
  const json status = {{"status",
                        {{"phase", "Bound"},
                         {"accessModes", {"ReadWriteOnce"}},
                         {"capacity", {{"storage", spec.size}}}}}};
  auto bound = admin_->Request("PATCH", ClaimPath(spec.name) + "/status", status.dump(),
                               "application/merge-patch+json");
  EXPECT_TRUE(bound.ok()) << "bind PVC " << spec.name << ": " << bound.error().message;
  return bound.ok() ? json::parse(*bound) : json();
}

base::Status ResizerTest::PatchClaim(const std::string& name, const json& merge_patch) {
  auto written =
      admin_->Request("PATCH", ClaimPath(name), merge_patch.dump(), "application/merge-patch+json");
  if (!written.ok()) return written.error();
  return {};
}

base::Status ResizerTest::RequestSize(const std::string& name, const std::string& size) {
  return PatchClaim(name, {{"spec", {{"resources", {{"requests", {{"storage", size}}}}}}}});
}

void ResizerTest::CreateAttributesClass(const std::string& name, const std::string& driver,
                                        const std::map<std::string, std::string>& parameters) {
  const json object = {{"apiVersion", "storage.k8s.io/v1"},
                       {"kind", "VolumeAttributesClass"},
                       {"metadata", {{"name", name}}},
                       {"driverName", driver},
                       {"parameters", parameters}};
  auto created = admin_->Request("POST", "/apis/storage.k8s.io/v1/volumeattributesclasses",
                                 object.dump(), "application/json");
  ASSERT_TRUE(created.ok()) << "create VolumeAttributesClass " << name << ": "
                            << created.error().message;
}

base::Status ResizerTest::RequestClass(const std::string& name, const std::string& klass) {
  return PatchClaim(name, {{"spec", {{"volumeAttributesClassName", klass}}}});
}

void ResizerTest::CreateSecret(const std::string& ns, const std::string& name,
                               const std::map<std::string, std::string>& data) {
  const json object = {{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"metadata", {{"name", name}, {"namespace", ns}}},
                       {"stringData", data}};
  auto created = admin_->Request("POST", fmt::format("/api/v1/namespaces/{}/secrets", ns),
                                 object.dump(), "application/json");
  ASSERT_TRUE(created.ok() || kube::IsConflict(created.error())) << created.error().message;
}

void ResizerTest::GrantSecretRead(const std::string& ns) {
  const json object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}};
  auto created = admin_->Request("POST", "/api/v1/namespaces", object.dump(), "application/json");
  ASSERT_TRUE(created.ok() || kube::IsConflict(created.error())) << created.error().message;
  auto as_resizer = ResizerClientFor(resizer_kubeconfig_);
  ASSERT_NE(as_resizer, nullptr);
  auto granted = testsupport::GrantSecretGet(*admin_, *as_resizer, ns, kResizerNamespace,
                                             kResizerAccount, "csi-resizer-secrets");
  ASSERT_TRUE(granted.ok()) << granted.error().message;
}

json ResizerTest::GetClaim(const std::string& name) {
  auto body = admin_->Request("GET", ClaimPath(name));
  if (!body.ok()) return nullptr;
  json object = json::parse(*body, nullptr, /*allow_exceptions=*/false);
  return object.is_discarded() ? nullptr : object;
}

json ResizerTest::GetPv(const std::string& name) {
  auto body = admin_->Request("GET", "/api/v1/persistentvolumes/" + name);
  if (!body.ok()) return nullptr;
  json object = json::parse(*body, nullptr, /*allow_exceptions=*/false);
  return object.is_discarded() ? nullptr : object;
}

json ResizerTest::AwaitClaim(const std::string& name, const std::function<bool(const json&)>& done,
                             std::chrono::seconds timeout) {
  json last;
  testsupport::PollUntil(
      [&] {
        last = GetClaim(name);
        return !last.is_null() && done(last);
      },
      timeout);
  return last;
}

std::optional<kube::Event> ResizerTest::AwaitClaimEvent(const std::string& claim,
                                                        const std::string& reason) {
  return testsupport::AwaitEvent(*admin_, "default", "PersistentVolumeClaim", claim, reason,
                                 kResizeAwait);
}

std::optional<kube::Event> ResizerTest::AwaitClaimEventWithMessage(const std::string& claim,
                                                                   const std::string& reason,
                                                                   const std::string& message) {
  std::optional<kube::Event> found;
  testsupport::PollUntil(
      [&] {
        for (kube::Event& event :
             testsupport::EventsAbout(*admin_, "default", "PersistentVolumeClaim", claim)) {
          if (event.reason == reason && event.message == message) {
            found = std::move(event);
            return true;
          }
        }
        return false;
      },
      kResizeAwait);
  return found;
}

void ResizerTest::CreatePodUsing(const std::string& name, const std::string& claim) {
  const json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"serviceAccountName", kResizerAccount},
        {"automountServiceAccountToken", false},
        {"containers", {{{"name", "app"}, {"image", "registry.k8s.io/pause:3.10"}}}},
        {"volumes", {{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", claim}}}}}}}}};
  auto created =
      admin_->Request("POST", "/api/v1/namespaces/default/pods", pod.dump(), "application/json");
  ASSERT_TRUE(created.ok()) << "create Pod " << name << ": " << created.error().message;
}

void ResizerTest::DeletePod(const std::string& name) {
  auto deleted = admin_->Request("DELETE", "/api/v1/namespaces/default/pods/" + name);
  ASSERT_TRUE(deleted.ok()) << "delete Pod " << name << ": " << deleted.error().message;
}

int ResizerTest::DriverCalls(const std::string& method, const std::string& code) const {
  if (!driver_) return 0;
  auto log = base::ReadFile(driver_->log_file());
  if (!log.ok()) return 0;
  const std::string needle = "csi-mock call /csi.v1.Controller/" + method + ": " + code + "\n";
  int count = 0;
  for (size_t at = log->find(needle); at != std::string::npos; at = log->find(needle, at + 1)) {
    ++count;
  }
  return count;
}

}  // namespace resizer_it
