#include "tests/integration/provisioner/provisioner_fixture.h"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>
#include <fstream>
#include <regex>

#include "base/file.h"
#include "csi/proto/csi.grpc.pb.h"
#include "kube/client/api_error.h"
#include "tests/support/access_review.h"
#include "tests/support/cluster_polls.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/readiness.h"
#include "tests/support/test_case_files.h"

namespace provisioner_it {
namespace {

using namespace std::chrono_literals;

constexpr int kLogTailLines = 60;

// A peer from the environment or tools/peers/build.sh (its output in
// $TMPDIR, as there is no control plane work directory yet for the first).
base::Result<std::string> FindProvisionerPeer(std::string_view variable, std::string_view peer) {
  const std::string log =
      (std::filesystem::temp_directory_path() / "integration-provisioner-peers.log").string();
  return testsupport::FindPeer(variable, peer, log);
}

std::unique_ptr<kube::Client> ClientFor(const std::string& kubeconfig) {
  auto client = testsupport::TestClient(kubeconfig);
  if (!client.ok()) ADD_FAILURE() << client.error().message;
  return client.ok() ? std::move(client).value() : nullptr;
}

}  // namespace

ProvisionerUnderTest UpstreamProvisioner() {
  return {.name = "Upstream",
          .binary = [] { return FindProvisionerPeer("UPSTREAM_PROVISIONER_BIN", "provisioner"); }};
}

ProvisionerUnderTest OurProvisioner() {
  return {.name = "Ours", .binary = []() -> base::Result<std::string> {
#ifdef PROVISIONER_BIN
            return std::string(PROVISIONER_BIN);
#else
            return base::Error("this build has no csi-provisioner target (cmd/csi-provisioner)");
#endif
          }};
}

std::string HostName() {
  char name[HOST_NAME_MAX + 1] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

bool FromProvisionController(const kube::Event& event, const std::string& driver,
                             std::string* why) {
  static const std::regex kUuid("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  const std::string prefix = driver + "_" + HostName() + "_";
  const std::string& component = event.source.component;
  if (!component.starts_with(prefix) ||
      !std::regex_match(component.substr(std::min(prefix.size(), component.size())), kUuid)) {
    *why = fmt::format("source component \"{}\" is not {}<uuid>", component, prefix);
    return false;
  }
  if (event.reporting_component != component) {
    *why = fmt::format("reporting component \"{}\" is not the source's \"{}\"",
                       event.reporting_component, component);
    return false;
  }
  return true;
}

namespace {

// The string at `pointer` in `object`, "" when there is none.
std::string StringAt(const nlohmann::json& object, const nlohmann::json::json_pointer& pointer) {
  if (!object.contains(pointer)) return "";
  const nlohmann::json& value = object.at(pointer);
  return value.is_string() ? value.get<std::string>() : "";
}

}  // namespace

std::string PhaseOf(const nlohmann::json& object) {
  return StringAt(object, nlohmann::json::json_pointer("/status/phase"));
}

std::string AnnotationOf(const nlohmann::json& object, const std::string& key) {
  return StringAt(object, nlohmann::json::json_pointer("/metadata/annotations") / key);
}

std::vector<std::string> NodeAffinityOf(const nlohmann::json& pv) {
  std::vector<std::string> texts;
  const nlohmann::json terms =
      pv.value(nlohmann::json::json_pointer("/spec/nodeAffinity/required/nodeSelectorTerms"),
               nlohmann::json::array());
  for (const nlohmann::json& term : terms) {
    for (const nlohmann::json& requirement :
         term.value("matchExpressions", nlohmann::json::array())) {
      std::string text = requirement.value("key", "") + " " + requirement.value("operator", "");
      for (const nlohmann::json& value : requirement.value("values", nlohmann::json::array())) {
        text += " " + value.get<std::string>();
      }
      texts.push_back(text);
    }
  }
  return texts;
}

std::string PvNameOf(const nlohmann::json& claim) {
  return "pvc-" + StringAt(claim, nlohmann::json::json_pointer("/metadata/uid"));
}

void ProvisionerTest::StartSuite(std::vector<std::string> extra_apiserver_args) {
  // The scheduler picks the node of WaitForFirstConsumer claims (topology_test.cpp).
  auto plane =
      testsupport::ControlPlane::Start({.extra_apiserver_args = std::move(extra_apiserver_args),
                                        .controller_manager = true,
                                        .scheduler = true});
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  admin_ = ClientFor(plane_->admin_kubeconfig()).release();
  ASSERT_NE(admin_, nullptr);
  auto provisioner = plane_->AddServiceAccount(testsupport::ProvisionerIdentity());
  ASSERT_TRUE(provisioner.ok()) << provisioner.error().message;
  provisioner_kubeconfig_ = *provisioner;
  suite_ready_ = true;
}

void ProvisionerTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
  suite_ready_ = false;
}

void ProvisionerTest::SetUp() {
  ASSERT_TRUE(suite_ready_) << "the suite's control plane set-up failed (see above)";
  work_dir_ = testsupport::FreshTestCaseDir(plane_->work_dir());
  std::filesystem::create_directories(work_dir_ + "/faults");
  // Not in work_dir_: a unix socket path must stay under 108 bytes.
  socket_ = fmt::format("{}/csi-{}.sock", plane_->work_dir(), ++tests_started_);
}

void ProvisionerTest::TearDown() {
  if (HasFailure()) {
    for (const auto& provisioner : provisioners_) {
      testsupport::PrintLogTail("provisioner", *provisioner, kLogTailLines);
    }
    if (driver_) testsupport::PrintLogTail("driver", *driver_, kLogTailLines);
  }
  provisioners_.clear();
  driver_.reset();
}

void ProvisionerTest::AwaitDriverSocket() {
  ASSERT_NE(driver_, nullptr);
  auto listening =
      testsupport::WaitFor("driver", "its socket", *driver_, 30s, [&]() -> base::Status {
        if (std::filesystem::exists(socket_)) return {};
        return base::Error("no socket " + socket_);
      });
  ASSERT_TRUE(listening.ok()) << listening.error().message;
}

void ProvisionerTest::StartMockDriver(const std::string& driver) {
  auto binary = FindProvisionerPeer("CSI_MOCK_BIN", "csi-mock");
  ASSERT_TRUE(binary.ok()) << binary.error().message;
  driver_ = testsupport::SpawnLogged(work_dir_, "driver",
                                     {*binary, "--endpoint=" + socket_, "--name=" + driver});
  ASSERT_NO_FATAL_FAILURE(AwaitDriverSocket());
}

void ProvisionerTest::StartFaultDriver(const std::string& driver,
                                       std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {FAULT_DRIVER_BIN, "--endpoint=" + socket_, "--name=" + driver,
                                   "--control-dir=" + work_dir_ + "/faults",
                                   "--state-file=" + work_dir_ + "/driver-state.json"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  driver_ = testsupport::SpawnLogged(work_dir_, "driver", std::move(argv));
  fault_driver_ = true;
  ASSERT_NO_FATAL_FAILURE(AwaitDriverSocket());
}

testsupport::Process* ProvisionerTest::StartProvisioner(
    const std::string& binary, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  std::vector<std::string> argv = {binary,
                                   "--kubeconfig=" + provisioner_kubeconfig_,
                                   "--csi-address=" + socket_,
                                   "--timeout=10s",
                                   "--retry-interval-start=100ms",
                                   "--retry-interval-max=2s",
                                   "-v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto process = testsupport::SpawnLogged(work_dir_, log_name, std::move(argv), std::move(env));
  if (!process) return nullptr;
  provisioners_.push_back(std::move(process));
  return provisioners_.back().get();
}

testsupport::Process* ProvisionerTest::StartProvisionerOf(
    const ProvisionerUnderTest& provisioner, std::vector<std::string> extra_args,
    std::vector<std::pair<std::string, std::string>> env, const std::string& log_name) {
  auto binary = provisioner.binary();
  if (!binary.ok()) {
    ADD_FAILURE() << provisioner.name << " csi-provisioner: " << binary.error().message;
    return nullptr;
  }
  return StartProvisioner(*binary, std::move(extra_args), std::move(env), log_name);
}

std::string ProvisionerTest::LogOf(const testsupport::Process& process) {
  auto log = base::ReadFile(process.log_file());
  return log.ok() ? *log : "";
}

void ProvisionerTest::CreateStorageClass(const ClassSpec& spec) {
  nlohmann::json object = {{"apiVersion", "storage.k8s.io/v1"},
                           {"kind", "StorageClass"},
                           {"metadata", {{"name", spec.name}}},
                           {"provisioner", spec.provisioner},
                           {"reclaimPolicy", spec.reclaim_policy}};
  if (!spec.parameters.empty()) object["parameters"] = spec.parameters;
  if (!spec.mount_options.empty()) object["mountOptions"] = spec.mount_options;
  if (!spec.binding_mode.empty()) object["volumeBindingMode"] = spec.binding_mode;
  if (!spec.allowed_topologies.is_null()) object["allowedTopologies"] = spec.allowed_topologies;
  auto created = admin_->Request("POST", "/apis/storage.k8s.io/v1/storageclasses", object.dump(),
                                 "application/json");
  ASSERT_TRUE(created.ok()) << "create StorageClass " << spec.name << ": "
                            << created.error().message;
}

nlohmann::json ProvisionerTest::CreateClaim(const ClaimSpec& spec) {
  nlohmann::json object = {{"apiVersion", "v1"},
                           {"kind", "PersistentVolumeClaim"},
                           {"metadata", {{"name", spec.name}, {"namespace", spec.ns}}},
                           {"spec",
                            {{"accessModes", spec.access_modes},
                             {"storageClassName", spec.storage_class},
                             {"resources", {{"requests", {{"storage", spec.size}}}}}}}};
  if (!spec.annotations.empty()) object["metadata"]["annotations"] = spec.annotations;
  if (!spec.volume_mode.empty()) object["spec"]["volumeMode"] = spec.volume_mode;
  if (!spec.data_source.is_null()) object["spec"]["dataSource"] = spec.data_source;
  if (!spec.data_source_ref.is_null()) object["spec"]["dataSourceRef"] = spec.data_source_ref;
  if (!spec.attributes_class.empty()) {
    object["spec"]["volumeAttributesClassName"] = spec.attributes_class;
  }
  auto created =
      admin_->Request("POST", fmt::format("/api/v1/namespaces/{}/persistentvolumeclaims", spec.ns),
                      object.dump(), "application/json");
  EXPECT_TRUE(created.ok()) << "create PVC " << spec.name << ": " << created.error().message;
  if (!created.ok()) return nullptr;
  return nlohmann::json::parse(*created, nullptr, /*allow_exceptions=*/false);
}

void ProvisionerTest::DeleteClaim(const std::string& ns, const std::string& name) {
  auto deleted = admin_->Request(
      "DELETE", fmt::format("/api/v1/namespaces/{}/persistentvolumeclaims/{}", ns, name));
  ASSERT_TRUE(deleted.ok()) << "delete PVC " << name << ": " << deleted.error().message;
}

void ProvisionerTest::CreateSecret(const std::string& ns, const std::string& name,
                                   const std::map<std::string, std::string>& string_data) {
  const nlohmann::json object = {{"apiVersion", "v1"},
                                 {"kind", "Secret"},
                                 {"metadata", {{"name", name}, {"namespace", ns}}},
                                 {"stringData", string_data}};
  auto created = admin_->Request("POST", fmt::format("/api/v1/namespaces/{}/secrets", ns),
                                 object.dump(), "application/json");
  ASSERT_TRUE(created.ok()) << "create Secret " << name << ": " << created.error().message;
}

void ProvisionerTest::GrantSecretRead() {
  const nlohmann::json secrets_namespace = {
      {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kSecretsNamespace}}}};
  auto created =
      admin_->Request("POST", "/api/v1/namespaces", secrets_namespace.dump(), "application/json");
  ASSERT_TRUE(created.ok() || kube::IsConflict(created.error())) << created.error().message;
  auto as_provisioner = ClientFor(provisioner_kubeconfig_);
  ASSERT_NE(as_provisioner, nullptr);
  auto granted = testsupport::GrantSecretGet(*admin_, *as_provisioner, kSecretsNamespace,
                                             kProvisionerNamespace, kProvisionerAccount,
                                             "csi-provisioner-secrets");
  ASSERT_TRUE(granted.ok()) << granted.error().message;
}

nlohmann::json ProvisionerTest::GetJson(const std::string& path) {
  auto body = admin_->Request("GET", path);
  if (!body.ok()) return nullptr;
  nlohmann::json object = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
  return object.is_discarded() ? nullptr : object;
}

nlohmann::json ProvisionerTest::GetPv(const std::string& name) {
  return GetJson("/api/v1/persistentvolumes/" + name);
}

nlohmann::json ProvisionerTest::GetClaim(const std::string& ns, const std::string& name) {
  return GetJson(fmt::format("/api/v1/namespaces/{}/persistentvolumeclaims/{}", ns, name));
}

nlohmann::json ProvisionerTest::AwaitPv(const std::string& name,
                                        const std::function<bool(const nlohmann::json&)>& done,
                                        std::chrono::seconds timeout) {
  nlohmann::json last;
  Eventually(
      [&] {
        nlohmann::json pv = GetPv(name);
        if (pv.is_null()) return false;
        last = std::move(pv);
        return done(last);
      },
      timeout);
  return last;
}

nlohmann::json ProvisionerTest::AwaitBound(const std::string& ns, const std::string& name,
                                           std::chrono::seconds timeout) {
  nlohmann::json last;
  Eventually(
      [&] {
        last = GetClaim(ns, name);
        return PhaseOf(last) == "Bound";
      },
      timeout);
  return last;
}

bool ProvisionerTest::AwaitPvGone(const std::string& name, std::chrono::seconds timeout) {
  return Eventually(
      [&] {
        auto body = admin_->Request("GET", "/api/v1/persistentvolumes/" + name);
        return !body.ok() && kube::IsNotFound(body.error());
      },
      timeout);
}

bool ProvisionerTest::Eventually(const std::function<bool()>& condition,
                                 std::chrono::seconds timeout) {
  return testsupport::PollUntil(condition, timeout);
}

std::vector<kube::Event> ProvisionerTest::EventsAbout(const std::string& ns,
                                                      const std::string& kind,
                                                      const std::string& name) {
  return testsupport::EventsAbout(*admin_, ns, kind, name);
}

std::optional<kube::Event> ProvisionerTest::AwaitEvent(const std::string& ns,
                                                       const std::string& kind,
                                                       const std::string& name,
                                                       const std::string& reason) {
  return testsupport::AwaitEvent(*admin_, ns, kind, name, reason, kAwaitTimeout);
}

int ProvisionerTest::DriverCalls(std::string_view method) const {
  if (!driver_) return 0;
  return fault_driver_ ? testsupport::CountFaultDriverCalls(DriverState(), method, false)
                       : testsupport::CountMockDriverCalls(LogOf(*driver_), method, false);
}

int ProvisionerTest::DriverCallsOk(std::string_view method) const {
  if (!driver_) return 0;
  return fault_driver_ ? testsupport::CountFaultDriverCalls(DriverState(), method, true)
                       : testsupport::CountMockDriverCalls(LogOf(*driver_), method, true);
}

nlohmann::json ProvisionerTest::DriverState() const {
  return testsupport::ReadFaultDriverState(work_dir_ + "/driver-state.json");
}

nlohmann::json ProvisionerTest::DriverVolumeRecord(const std::string& name) const {
  const nlohmann::json state = DriverState();
  if (!state.contains("volumes_by_name") || !state["volumes_by_name"].contains(name)) {
    return nullptr;
  }
  return state["volumes_by_name"][name];
}

void ProvisionerTest::WriteDriverFaults(const nlohmann::json& faults) const {
  const std::string dir = work_dir_ + "/faults";
  const std::string temp = dir + "/faults.json.tmp";
  {
    std::ofstream out(temp);
    out << faults.dump();
    ASSERT_TRUE(out.good()) << "cannot write " << temp;
  }
  std::error_code error;
  std::filesystem::rename(temp, dir + "/faults.json", error);
  ASSERT_FALSE(error) << "rename " << temp << ": " << error.message();
}

std::vector<nlohmann::json> ProvisionerTest::DriverRequests(std::string_view method) const {
  EXPECT_TRUE(fault_driver_) << "only the fault driver records requests";
  std::vector<nlohmann::json> requests;
  for (const auto& call : DriverState().value("calls", nlohmann::json::array())) {
    if (call.value("method", "") == method)
      requests.push_back(call.value("request", nlohmann::json()));
  }
  return requests;
}

std::vector<nlohmann::json> ProvisionerTest::DriverCreateRequestsFor(
    const std::string& name) const {
  std::vector<nlohmann::json> requests = DriverRequests("CreateVolume");
  std::erase_if(requests,
                [&](const nlohmann::json& request) { return request.value("name", "") != name; });
  return requests;
}

std::map<std::string, std::map<std::string, std::string>> ProvisionerTest::DriverVolumes() const {
  auto channel = grpc::CreateChannel("unix://" + socket_, grpc::InsecureChannelCredentials());
  auto stub = csi::v1::Controller::NewStub(channel);
  std::map<std::string, std::map<std::string, std::string>> volumes;
  csi::v1::ListVolumesRequest request;
  do {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 10s);
    csi::v1::ListVolumesResponse response;
    grpc::Status status = stub->ListVolumes(&context, request, &response);
    EXPECT_TRUE(status.ok()) << "ListVolumes: " << status.error_message();
    if (!status.ok()) break;
    for (const auto& entry : response.entries()) {
      const auto& context_map = entry.volume().volume_context();
      volumes[entry.volume().volume_id()] = {context_map.begin(), context_map.end()};
    }
    request.set_starting_token(response.next_token());
  } while (!request.starting_token().empty());
  return volumes;
}

std::string ProvisionerTest::OwnName(const std::string& base, const std::string& owner) {
  std::string suffix = owner;
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return base + "-" + suffix;
}

ProvisionerTest::Names ProvisionerTest::OwnNames(const std::string& base,
                                                 const std::string& owner) {
  const std::string own = OwnName(base, owner);
  return {.driver = own + ".csi.example.com", .storage_class = own, .claim = own};
}

}  // namespace provisioner_it
