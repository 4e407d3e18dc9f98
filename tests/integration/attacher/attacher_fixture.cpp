#include "tests/integration/attacher/attacher_fixture.h"

#include <grpcpp/grpcpp.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "csi/proto/csi.grpc.pb.h"
#include "kube/client/api_error.h"
#include "tests/support/source_dir.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;

std::string CsiMockBinary() {
  if (const char* env = std::getenv("CSI_MOCK_BIN"); env && *env) return env;
  std::string cmd = testsupport::SourcePath("tools/peers/build.sh") + " csi-mock 2>/dev/null";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[512];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  constexpr std::string_view kKey = "CSI_MOCK_BIN=";
  auto pos = out.find(kKey);
  if (pos == std::string::npos) return "";
  auto end = out.find('\n', pos);
  return out.substr(pos + kKey.size(), end - pos - kKey.size());
}

bool AwaitSocket(const std::string& path, testsupport::Process& process) {
  for (int i = 0; i < 200; ++i) {
    if (std::filesystem::exists(path)) return true;
    if (!process.IsRunning()) return false;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

}  // namespace

void AttacherTest::StartControlPlane(testsupport::ControlPlaneOptions options) {
  auto plane = testsupport::ControlPlane::Start(std::move(options));
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok()) << config.error().message;
  config->qps = 1000;
  config->burst = 1000;
  auto client = kube::Client::Create(*config);
  ASSERT_TRUE(client.ok()) << client.error().message;
  admin_ = std::move(client).value().release();
}

void AttacherTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
}

void AttacherTest::SetUp() {
  ASSERT_NE(plane_, nullptr) << "no control plane";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  work_dir_ = plane_->work_dir() + "/" + info->name();
  std::filesystem::remove_all(work_dir_);
  std::filesystem::create_directories(fault_dir());
  socket_ = work_dir_ + "/csi.sock";
}

void AttacherTest::TearDown() {
  if (HasFailure() && attacher_) {
    std::cerr << "---- attacher log tail ----\n" << attacher_->LogTail(60) << "\n";
    if (driver_) std::cerr << "---- driver log tail ----\n" << driver_->LogTail(30) << "\n";
  }
  attacher_.reset();
  driver_.reset();
}

void AttacherTest::StartMockDriver(const std::string& driver, int volumes, bool attach) {
  std::string bin = CsiMockBinary();
  ASSERT_FALSE(bin.empty())
      << "csi-mock peer not found (set CSI_MOCK_BIN or run tools/peers/build.sh)";
  std::vector<std::string> argv = {bin, "--endpoint=" + socket_, "--name=" + driver,
                                   "--create-volumes=" + std::to_string(volumes)};
  if (!attach) argv.push_back("--disable-attach");
  auto p = testsupport::Process::Spawn({.argv = argv, .log_file = work_dir_ + "/driver.log"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  driver_ = std::move(p).value();
  ASSERT_TRUE(AwaitSocket(socket_, *driver_)) << "driver did not start:\n" << driver_->LogTail(20);
}

void AttacherTest::StartFaultDriver(const std::string& driver, const std::string& node_id,
                                    std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {
      FAULT_DRIVER_BIN,       "--endpoint=" + socket_,        "--name=" + driver,
      "--node-id=" + node_id, "--control-dir=" + fault_dir(), "--state-file=" + state_file()};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto p = testsupport::Process::Spawn({.argv = argv, .log_file = work_dir_ + "/driver.log"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  driver_ = std::move(p).value();
  ASSERT_TRUE(AwaitSocket(socket_, *driver_)) << "driver did not start:\n" << driver_->LogTail(20);
}

void AttacherTest::StartAttacher(std::vector<std::string> extra_args) {
  std::vector<std::string> argv = {AttacherBinary(),
                                   "--kubeconfig=" + plane_->attacher_kubeconfig(),
                                   "--csi-address=" + socket_,
                                   "--timeout=5s",
                                   "--retry-interval-start=200ms",
                                   "--retry-interval-max=2s",
                                   "--kube-api-qps=100",
                                   "--kube-api-burst=200",
                                   "-v=5"};
  argv.insert(argv.end(), extra_args.begin(), extra_args.end());
  auto p =
      testsupport::Process::Spawn({.argv = argv,
                                   .env = {{"CSI_ATTACHER_TERMINATION_LOG", termination_log()}},
                                   .log_file = work_dir_ + "/attacher.log"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  attacher_ = std::move(p).value();
}

void AttacherTest::CreateCsiNode(const std::string& name, const std::string& driver,
                                 const std::string& node_id) {
  auto r = admin_->Create(kube::testobjects::Node(name, driver, node_id));
  ASSERT_TRUE(r.ok()) << r.error().message;
}

void AttacherTest::CreatePv(kube::PersistentVolume pv) {
  auto r = admin_->Create(pv);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

void AttacherTest::CreateVa(const std::string& name, const std::string& driver,
                            const std::string& pv, const std::string& node) {
  kube::VolumeAttachment va;
  va.metadata.name = name;
  va.spec.attacher = driver;
  va.spec.node_name = node;
  va.spec.source.persistent_volume_name = pv;
  auto r = admin_->Create(va);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

void AttacherTest::WriteFaults(const std::string& json) {
  std::string tmp = fault_dir() + "/faults.json.tmp";
  std::ofstream(tmp) << json;
  std::filesystem::rename(tmp, fault_dir() + "/faults.json");
}

nlohmann::json AttacherTest::DriverState() const {
  std::ifstream in(state_file());
  nlohmann::json state = nlohmann::json::parse(in, nullptr, false);
  return state.is_discarded() ? nlohmann::json::object() : state;
}

int AttacherTest::VolumeCounter(const std::string& volume, const std::string& counter) const {
  nlohmann::json state = DriverState();
  if (!state.contains("volumes") || !state["volumes"].contains(volume)) return 0;
  return state["volumes"][volume].value(counter, 0);
}

bool AttacherTest::AwaitCounter(const std::string& volume, const std::string& counter, int at_least,
                                std::chrono::seconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (VolumeCounter(volume, counter) >= at_least) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::optional<kube::VolumeAttachment> AttacherTest::AwaitVa(
    const std::string& name, const std::function<bool(const kube::VolumeAttachment&)>& done,
    std::chrono::seconds timeout) {
  std::optional<kube::VolumeAttachment> last;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    auto va = admin_->Get<kube::VolumeAttachment>("", name);
    if (va.ok()) {
      last = *va;
      if (done(*last)) return last;
    }
    std::this_thread::sleep_for(100ms);
  }
  return last;
}

bool AttacherTest::AwaitVaGone(const std::string& name, std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    auto va = admin_->Get<kube::VolumeAttachment>("", name);
    if (!va.ok() && kube::IsNotFound(va.error())) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

bool AttacherTest::AwaitPvGone(const std::string& name, std::chrono::seconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    auto pv = admin_->Get<kube::PersistentVolume>("", name);
    if (!pv.ok() && kube::IsNotFound(pv.error())) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

std::string AttacherTest::AttacherLog() const {
  std::ifstream in(work_dir_ + "/attacher.log");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int CountOccurrences(const std::string& text, std::string_view needle) {
  int n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

bool MockDriverHasPublished(const std::string& socket, const std::string& volume_id,
                            const std::string& node_id) {
  auto channel = grpc::CreateChannel("unix://" + socket, grpc::InsecureChannelCredentials());
  auto stub = csi::v1::Controller::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + 5s);
  csi::v1::ListVolumesRequest request;
  csi::v1::ListVolumesResponse response;
  if (!stub->ListVolumes(&context, request, &response).ok()) return false;
  for (const auto& entry : response.entries()) {
    if (entry.volume().volume_id() != volume_id) continue;
    return entry.volume().volume_context().contains(node_id + "/dev");
  }
  return false;
}

}  // namespace attacher_it
