// csi-node-driver-registrar end to end (docs/node-sidecars.md §3, §4, §5's
// scenarios): the real binary, the e2e mock driver or the fault driver, and
// the fake kubelet writing into a real API server.
#include <gmock/gmock.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/integration/node/fake_kubelet.h"
#include "tests/integration/node/node_fixture.h"
#include "tests/support/cluster_objects.h"

namespace node_it {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A socket file at `path` nobody listens on (what SIGKILL leaves behind).
void LeaveDeadSocket(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
}

// §5 steps 1-5 and §4.4: the socket (mode 0700), GetInfo's answer, the CSINode
// entry kubelet writes from NodeGetInfo, Notify(true), GetInfo keeps answering
// (the §4.6 monitor), /healthz 200.
TEST_F(NodeSidecarTest, RegistrarRegistersWithTheFakeKubelet) {
  StartMockDriver("mock.csi.test");
  const int port = FreePort();
  auto registrar = StartRegistrar({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  auto facts = FakeKubelet::WaitForSocket(socket, 10s);
  ASSERT_TRUE(facts.ok()) << facts.error().message;
  EXPECT_TRUE(facts->is_socket);
  EXPECT_EQ(facts->mode, 0700u);

  auto info = FakeKubelet::GetInfo(socket);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->type(), "CSIPlugin");
  EXPECT_EQ(info->name(), "mock.csi.test");
  EXPECT_EQ(info->endpoint(), driver_socket());
  EXPECT_THAT(info->supported_versions(), ElementsAre("1.0.0"));

  ASSERT_TRUE(testsupport::CreateNode(*admin_, {.name = "node-reg"}).ok());
  auto node_id = FakeKubelet::InstallCsiDriver(*admin_, "node-reg", info->name(), info->endpoint());
  ASSERT_TRUE(node_id.ok()) << node_id.error().message;
  auto csinode = admin_->Request("GET", "/apis/storage.k8s.io/v1/csinodes/node-reg");
  ASSERT_TRUE(csinode.ok()) << csinode.error().message;
  const auto object = nlohmann::json::parse(*csinode);
  ASSERT_EQ(object["spec"]["drivers"].size(), 1u);
  EXPECT_EQ(object["spec"]["drivers"][0]["name"], "mock.csi.test");
  EXPECT_EQ(object["spec"]["drivers"][0]["nodeID"], *node_id);
  auto node = admin_->Request("GET", "/api/v1/nodes/node-reg");
  ASSERT_TRUE(node.ok());
  EXPECT_THAT(nlohmann::json::parse(*node)["metadata"]["annotations"].value(
                  "csi.volume.kubernetes.io/nodeid", ""),
              HasSubstr("\"mock.csi.test\":\"" + *node_id + "\""));

  EXPECT_TRUE(FakeKubelet::Notify(socket, true, "").ok());
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(FakeKubelet::GetInfo(socket).ok()) << "GetInfo " << i;
  }
  EXPECT_TRUE(registrar->IsRunning());
  HttpAnswer answer = AwaitAnswer(port, "/healthz", 200, 5s);
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "ok");
}

// §4.6, §5 step 5: kubelet's connection monitor dials the socket afresh every
// 10 s and calls GetInfo; after registration every such call must answer.
TEST_F(NodeSidecarTest, RegistrarAnswersKubeletsConnectionMonitorEveryTenSeconds) {
  StartMockDriver("mock.csi.test");
  const int port = FreePort();
  auto registrar = StartRegistrar({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  ASSERT_TRUE(FakeKubelet::WaitForSocket(socket, 10s).ok());
  ASSERT_TRUE(FakeKubelet::GetInfo(socket).ok());
  ASSERT_TRUE(FakeKubelet::Notify(socket, true, "").ok());
  for (int round = 1; round <= 2; ++round) {
    std::this_thread::sleep_for(10s);  // the monitor's period, not a wait for a condition
    auto info = FakeKubelet::GetInfo(socket);
    ASSERT_TRUE(info.ok()) << "round " << round << ": " << info.error().message;
    EXPECT_EQ(info->name(), "mock.csi.test");
    EXPECT_EQ(Get(port, "/healthz").status, 200) << "round " << round;
  }
  EXPECT_TRUE(registrar->IsRunning());
}

// §3.3: Notify(false) fails the call, exits 1 and leaves the socket.
TEST_F(NodeSidecarTest, RegistrarExitsOneWhenKubeletRefusesTheDriver) {
  StartMockDriver("mock.csi.test");
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  ASSERT_TRUE(FakeKubelet::WaitForSocket(socket, 10s).ok());
  grpc::Status status = FakeKubelet::Notify(socket, false, "plugin validation failed");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(AwaitExit(*registrar, 5s), 1);
  EXPECT_TRUE(std::filesystem::exists(socket));
}

// §3.5: SIGTERM removes the socket (kubelet deregisters) and exits 0.
TEST_F(NodeSidecarTest, RegistrarSigtermRemovesTheSocketAndExitsZero) {
  StartMockDriver("mock.csi.test");
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  ASSERT_TRUE(FakeKubelet::WaitForSocket(socket, 10s).ok());
  ::kill(registrar->pid(), SIGTERM);
  EXPECT_EQ(AwaitExit(*registrar, 5s), 0);
  EXPECT_FALSE(std::filesystem::exists(socket));
}

// §3.2 step 7, §5: SIGKILL leaves a stale socket; the next start replaces it and answers.
TEST_F(NodeSidecarTest, RegistrarRestartAfterSigkillReplacesTheStaleSocket) {
  StartMockDriver("mock.csi.test");
  const std::string socket = registration_socket("mock.csi.test");
  LeaveDeadSocket(socket);
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  auto info = [&] { return FakeKubelet::GetInfo(socket); };
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (!info().ok() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_TRUE(info().ok());
  registrar->Kill();
  EXPECT_TRUE(std::filesystem::exists(socket)) << "SIGKILL leaves the socket";
  EXPECT_FALSE(info().ok());
  auto again = StartRegistrar({});
  ASSERT_TRUE(again);
  const auto give_up_again = std::chrono::steady_clock::now() + 10s;
  while (!info().ok() && std::chrono::steady_clock::now() < give_up_again) {
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(info().ok());
}

// §3.2 step 7: a regular file at the socket path is exit 1, and is left alone.
TEST_F(NodeSidecarTest, RegistrarRefusesARegularFileAtTheSocketPath) {
  StartMockDriver("mock.csi.test");
  const std::string socket = registration_socket("mock.csi.test");
  std::ofstream(socket) << "not a socket";
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  EXPECT_EQ(AwaitExit(*registrar, 10s), 1);
  EXPECT_TRUE(std::filesystem::is_regular_file(socket));
}

// §9.2: a removed socket is created again; §3.4: /healthz says 200 once it is back.
TEST_F(NodeSidecarTest, RegistrarCreatesAVanishedSocketAgain) {
  StartMockDriver("mock.csi.test");
  const int port = FreePort();
  auto registrar = StartRegistrar({"--health-port=" + std::to_string(port)});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  ASSERT_TRUE(FakeKubelet::WaitForSocket(socket, 10s).ok());
  ASSERT_EQ(AwaitAnswer(port, "/healthz", 200, 5s).status, 200);
  std::filesystem::remove(socket);
  auto facts = FakeKubelet::WaitForSocket(socket, 5s);
  ASSERT_TRUE(facts.ok()) << facts.error().message;
  EXPECT_EQ(facts->mode, 0700u);
  EXPECT_EQ(AwaitAnswer(port, "/healthz", 200, 5s).status, 200);
  auto info = FakeKubelet::GetInfo(socket);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->name(), "mock.csi.test");
}

// §3.4: another driver's registrar behind our socket name is "invalid driver name".
TEST_F(NodeSidecarTest, RegistrarHealthzRejectsAnotherDriversSocket) {
  StartMockDriver("mock.csi.test");
  const int port = FreePort();
  auto registrar = StartRegistrar({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  ASSERT_TRUE(FakeKubelet::WaitForSocket(socket, 10s).ok());
  // A second registrar for another driver, whose socket is moved over ours.
  auto other_driver = testsupport::Process::Spawn(
      {.argv = {FAULT_DRIVER_BIN, "--endpoint=" + dir_ + "/other.sock", "--name=other.csi.test"},
       .log_file = dir_ + "/other-driver.log"});
  ASSERT_TRUE(other_driver.ok());
  auto other = testsupport::Process::Spawn(
      {.argv = {REGISTRAR_BIN, "--csi-address=" + dir_ + "/other.sock",
                "--kubelet-registration-path=/x/other.sock", "--plugin-registration-path=" + dir_},
       .log_file = dir_ + "/other-registrar.log"});
  ASSERT_TRUE(other.ok());
  const std::string other_socket = dir_ + "/other.csi.test-reg.sock";
  ASSERT_TRUE(FakeKubelet::WaitForSocket(other_socket, 10s).ok());
  std::filesystem::rename(other_socket, socket);
  HttpAnswer answer = Get(port, "/healthz");
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "invalid driver name other.csi.test");
}

// §9.1 (#139): a driver that went away is reported on /healthz; one that
// comes back is healthy again without a restart of the registrar.
TEST_F(NodeSidecarTest, RegistrarReportsALostDriverAndRecoversWhenItReturns) {
  StartFaultDriver("fault.csi.test");
  const int port = FreePort();
  auto registrar = StartRegistrar({"--http-endpoint=127.0.0.1:" + std::to_string(port)});
  ASSERT_TRUE(registrar);
  ASSERT_EQ(AwaitAnswer(port, "/healthz", 200, 10s).status, 200);
  driver_->Kill();
  HttpAnswer answer = AwaitAnswer(port, "/healthz", 500, 5s);
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "lost connection to CSI driver at " + driver_socket());
  StartFaultDriver("fault.csi.test");
  EXPECT_EQ(AwaitAnswer(port, "/healthz", 200, 10s).status, 200);
  EXPECT_TRUE(registrar->IsRunning());
}

// §9.3 (#405): GetPluginInfo failing at first is retried; the driver is registered.
TEST_F(NodeSidecarTest, RegistrarRetriesAFailingGetPluginInfo) {
  StartFaultDriver("fault.csi.test");
  WriteFaults(R"({"GetPluginInfo": [{"code": "UNAVAILABLE", "times": 2}]})");
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  auto facts = FakeKubelet::WaitForSocket(registration_socket("fault.csi.test"), 10s);
  EXPECT_TRUE(facts.ok()) << (facts.ok() ? "" : facts.error().message);
  EXPECT_TRUE(registrar->IsRunning());
}

// §3.2 step 6, §9.3: a GetPluginInfo that never answers in --timeout is exit 1
// once the retry window (30 s) has passed, and no socket is made.
TEST_F(NodeSidecarTest, RegistrarExitsOneWhenGetPluginInfoStaysSlow) {
  StartFaultDriver("fault.csi.test");
  WriteFaults(R"({"GetPluginInfo": [{"hang": true}]})");
  auto registrar = StartRegistrar({"--timeout=500ms"});
  ASSERT_TRUE(registrar);
  EXPECT_EQ(AwaitExit(*registrar, 5s), -1) << "still retrying within the window";
  EXPECT_EQ(AwaitExit(*registrar, 40s), 1);
  EXPECT_FALSE(std::filesystem::exists(registration_socket("fault.csi.test")));
}

// §3.2 step 5: no driver socket for 30 s is exit 1.
TEST_F(NodeSidecarTest, RegistrarExitsOneWhenTheDriverNeverAppears) {
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  EXPECT_EQ(AwaitExit(*registrar, 20s), -1) << "still connecting";
  EXPECT_EQ(AwaitExit(*registrar, 25s), 1);
}

}  // namespace
}  // namespace node_it
