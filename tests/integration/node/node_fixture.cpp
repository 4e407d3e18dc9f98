#include "tests/integration/node/node_fixture.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "tests/support/free_port.h"
#include "tests/support/http_get.h"
#include "tests/support/peer_binaries.h"

namespace node_it {
namespace {

using namespace std::chrono_literals;

bool AwaitDriverSocket(const std::string& path, testsupport::Process& process) {
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < give_up) {
    if (std::filesystem::exists(path)) return true;
    if (!process.IsRunning()) return false;
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

}  // namespace

testsupport::ControlPlane* NodeSidecarTest::plane_ = nullptr;
kube::Client* NodeSidecarTest::admin_ = nullptr;

HttpAnswer Get(int port, const std::string& path) {
  const std::string raw = testsupport::HttpGet(port, path);
  if (raw.size() < 12) return {};
  return {std::atoi(raw.substr(9, 3).c_str()), testsupport::HttpBody(raw)};
}

void NodeSidecarTest::SetUpTestSuite() {
  auto plane = testsupport::ControlPlane::Start({});
  ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
  plane_ = std::move(plane).value().release();
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok()) << config.error().message;
  auto client = kube::Client::Create(*config);
  ASSERT_TRUE(client.ok()) << client.error().message;
  admin_ = std::move(client).value().release();
}

void NodeSidecarTest::TearDownTestSuite() {
  delete admin_;
  delete plane_;
  admin_ = nullptr;
  plane_ = nullptr;
}

void NodeSidecarTest::SetUp() {
  char pattern[] = "/tmp/nodeXXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  dir_ = pattern;
  std::filesystem::create_directories(fault_dir());
  std::filesystem::create_directories(registration_dir());
}

void NodeSidecarTest::TearDown() {
  if (HasFailure()) {
    for (const std::string& log : sidecar_logs_) {
      std::cerr << "---- " << log << " ----\n" << testsupport::FileTail(log, 40) << "\n";
    }
    if (driver_) std::cerr << "---- driver log tail ----\n" << driver_->LogTail(20) << "\n";
  }
  sidecar_logs_.clear();
  driver_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void NodeSidecarTest::StartMockDriver(const std::string& name) {
  auto bin = testsupport::FindPeer("CSI_MOCK_BIN", "csi-mock", dir_ + "/peers-build.log");
  ASSERT_TRUE(bin.ok()) << bin.error().message;
  auto p = testsupport::Process::Spawn(
      {.argv = {*bin, "--endpoint=" + driver_socket(), "--name=" + name},
       .log_file = dir_ + "/driver.log"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  driver_ = std::move(p).value();
  ASSERT_TRUE(AwaitDriverSocket(driver_socket(), *driver_)) << "driver did not start:\n"
                                                            << driver_->LogTail(20);
}

void NodeSidecarTest::StartFaultDriver(const std::string& name) {
  auto p = testsupport::Process::Spawn({.argv = {FAULT_DRIVER_BIN, "--endpoint=" + driver_socket(),
                                                 "--name=" + name, "--control-dir=" + fault_dir()},
                                        .log_file = dir_ + "/driver.log"});
  ASSERT_TRUE(p.ok()) << p.error().message;
  driver_ = std::move(p).value();
  ASSERT_TRUE(AwaitDriverSocket(driver_socket(), *driver_)) << "driver did not start:\n"
                                                            << driver_->LogTail(20);
}

void NodeSidecarTest::WriteFaults(const std::string& json) {
  const std::string tmp = fault_dir() + "/faults.json.tmp";
  std::ofstream(tmp) << json;
  std::filesystem::rename(tmp, fault_dir() + "/faults.json");
}

std::unique_ptr<testsupport::Process> NodeSidecarTest::StartLivenessProbe(
    std::vector<std::string> args) {
  std::vector<std::string> argv = {LivenessProbeBinary(), "--csi-address=" + driver_socket(),
                                   "-v=5"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto p = testsupport::Process::Spawn(
      {.argv = argv, .env = sidecar_env_, .log_file = dir_ + "/livenessprobe.log"});
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return nullptr;
  sidecar_logs_.push_back((*p)->log_file());
  return std::move(p).value();
}

std::unique_ptr<testsupport::Process> NodeSidecarTest::StartRegistrar(
    std::vector<std::string> args) {
  std::vector<std::string> argv = {RegistrarBinary(), "--csi-address=" + driver_socket(),
                                   "--kubelet-registration-path=" + driver_socket(),
                                   "--plugin-registration-path=" + registration_dir(), "-v=5"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto p = testsupport::Process::Spawn(
      {.argv = argv, .env = sidecar_env_, .log_file = dir_ + "/registrar.log"});
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return nullptr;
  sidecar_logs_.push_back((*p)->log_file());
  return std::move(p).value();
}

HttpAnswer NodeSidecarTest::AwaitAnswer(int port, const std::string& path, int status,
                                        std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  HttpAnswer answer = Get(port, path);
  while (answer.status != status && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(100ms);
    answer = Get(port, path);
  }
  return answer;
}

int NodeSidecarTest::AwaitExit(testsupport::Process& process, std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (process.IsRunning()) {
    if (std::chrono::steady_clock::now() >= give_up) return -1;
    std::this_thread::sleep_for(50ms);
  }
  return process.exit_status();
}

int NodeSidecarTest::FreePort() {
  auto port = testsupport::PickFreeLoopbackPort();
  EXPECT_TRUE(port.ok()) << port.error().message;
  return port.ok() ? *port : 0;
}

}  // namespace node_it
