// The Registration service on its socket, as kubelet's plugin watcher calls
// it (docs/node-sidecars.md §3.3, §4.1), its file mode and life cycle (§3.2, §3.5,
// §9.2), and the registrar's /healthz (§3.4, §9.1).
#include "registrar/registration_server.h"

#include <gmock/gmock.h>
#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <thread>

#include "csi/status_error.h"
#include "csi_lite/grpc_socket.h"
#include "registrar/proto/pluginregistration.grpc.pb.h"
#include "registrar/registrar_health.h"
#include "registrar/registration_service.h"
#include "registrar/socket_file.h"
#include "tests/support/temp_dir.h"

namespace registrar {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<pluginregistration::Registration::Stub> KubeletStub(const std::string& path) {
  auto channel = grpc::CreateChannel("unix:" + path, grpc::InsecureChannelCredentials());
  return pluginregistration::Registration::NewStub(channel);
}

grpc::Status CallGetInfo(const std::string& path, pluginregistration::PluginInfo* info) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + 2s);
  return KubeletStub(path)->GetInfo(&context, {}, info);
}

// Polls `condition` every 20 ms for up to `timeout`.
bool Eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
  auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    if (condition()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return condition();
}

class RegistrationServerTest : public ::testing::Test {
 protected:
  std::string SocketPath() const {
    return RegistrationSocketPath(dir_.path().string(), "mock.csi.test");
  }
  test::TempDir dir_;
  std::atomic<int> refused_ = 0;
  RegistrationService service_{"mock.csi.test", "/var/lib/kubelet/plugins/mock/csi.sock",
                               [this] { ++refused_; }};
};

// §3.3: GetInfo's answer; §3.2 step 8: the socket is mode 0700.
TEST_F(RegistrationServerTest, GetInfoAnswersCsiPluginWithEndpointVerbatimOnAnOwnerOnlySocket) {
  auto server = RegistrationServer::Start(SocketPath(), service_);
  ASSERT_TRUE(server.ok()) << server.error().message;
  struct stat st {};
  ASSERT_EQ(::stat(SocketPath().c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  pluginregistration::PluginInfo info;
  ASSERT_TRUE(CallGetInfo(SocketPath(), &info).ok());
  EXPECT_EQ(info.type(), "CSIPlugin");
  EXPECT_EQ(info.name(), "mock.csi.test");
  EXPECT_EQ(info.endpoint(), "/var/lib/kubelet/plugins/mock/csi.sock");
  EXPECT_THAT(info.supported_versions(), ::testing::ElementsAre("1.0.0"));
}

// §3.3: registered=true is acknowledged; false calls the refusal (exit 1 in the binary).
TEST_F(RegistrationServerTest, NotifyRegistrationStatusTrueIsAcknowledgedFalseIsARefusal) {
  auto server = RegistrationServer::Start(SocketPath(), service_);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto stub = KubeletStub(SocketPath());
  {
    grpc::ClientContext context;
    pluginregistration::RegistrationStatus status;
    status.set_plugin_registered(true);
    pluginregistration::RegistrationStatusResponse response;
    EXPECT_TRUE(stub->NotifyRegistrationStatus(&context, status, &response).ok());
    EXPECT_TRUE(service_.registered());
    EXPECT_EQ(refused_, 0);
  }
  {
    grpc::ClientContext context;
    pluginregistration::RegistrationStatus status;
    status.set_plugin_registered(false);
    status.set_error("plugin validation failed");
    pluginregistration::RegistrationStatusResponse response;
    EXPECT_FALSE(stub->NotifyRegistrationStatus(&context, status, &response).ok());
    EXPECT_EQ(refused_, 1);
  }
}

// A request kubelet's gRPC would never send fails the call and changes nothing.
TEST_F(RegistrationServerTest, MalformedNotifyIsInternalAndNeitherRegistersNorRefuses) {
  auto server = RegistrationServer::Start(SocketPath(), service_);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto socket = csi_lite::GrpcSocket::Open(SocketPath());
  ASSERT_TRUE(socket.ok()) << socket.error().message;
  for (std::string request : {std::string("\x12\x05"
                                          "ab"),
                              std::string("\x0a\x01"
                                          "x")}) {
    auto answer = (*socket)->Call(kNotifyMethod, request, std::chrono::steady_clock::now() + 2s);
    ASSERT_FALSE(answer.ok());
    EXPECT_TRUE(csi::IsGrpcCode(answer.error(), csi::codes::kInternal)) << answer.error().message;
  }
  EXPECT_FALSE(service_.registered());
  EXPECT_EQ(refused_, 0);
  auto missing = (*socket)->Call("/pluginregistration.Registration/Unregister", "",
                                 std::chrono::steady_clock::now() + 2s);
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(csi::IsGrpcCode(missing.error(), csi::codes::kUnimplemented));
}

// §9.2 (upstream #57): a vanished socket is created again and answers.
TEST_F(RegistrationServerTest, VanishedSocketIsCreatedAgain) {
  auto server = RegistrationServer::Start(SocketPath(), service_, 50ms);
  ASSERT_TRUE(server.ok()) << server.error().message;
  std::filesystem::remove(SocketPath());
  ASSERT_TRUE(Eventually([&] { return std::filesystem::exists(SocketPath()); }, 3s));
  pluginregistration::PluginInfo info;
  EXPECT_TRUE(CallGetInfo(SocketPath(), &info).ok());
  EXPECT_EQ(info.name(), "mock.csi.test");
}

// §3.5: stopping removes the socket.
TEST_F(RegistrationServerTest, StopRemovesTheSocket) {
  auto server = RegistrationServer::Start(SocketPath(), service_);
  ASSERT_TRUE(server.ok()) << server.error().message;
  ASSERT_TRUE(std::filesystem::exists(SocketPath()));
  EXPECT_TRUE((*server)->Stop().ok());
  EXPECT_FALSE(std::filesystem::exists(SocketPath()));
}

// §3.2 step 7: a regular file at the socket path is refused and left alone.
TEST_F(RegistrationServerTest, RegularFileAtTheSocketPathIsRefused) {
  dir_.Write("mock.csi.test-reg.sock", "not a socket");
  auto server = RegistrationServer::Start(SocketPath(), service_);
  ASSERT_FALSE(server.ok());
  EXPECT_THAT(server.error().message, ::testing::HasSubstr("but it's not a socket."));
}

// §3.4: /healthz 200 "ok", 404 without the socket, 500 for another driver's
// socket or a non-socket.
TEST_F(RegistrationServerTest, HealthzFollowsTheRegistrationSocket) {
  auto server = RegistrationServer::Start(SocketPath(), service_, std::chrono::hours(1));
  ASSERT_TRUE(server.ok()) << server.error().message;
  RegistrarHealth health(SocketPath(), "mock.csi.test", 1s, "");
  metrics::HttpResponse answer = health.Check();
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "ok");

  RegistrarHealth other(SocketPath(), "other.csi.test", 1s, "");
  answer = other.Check();
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "invalid driver name mock.csi.test");

  std::filesystem::remove(SocketPath());
  answer = health.Check();
  EXPECT_EQ(answer.status, 404);
  EXPECT_EQ(answer.body, "registration socket does not exist");

  dir_.Write("mock.csi.test-reg.sock", "x");
  answer = health.Check();
  EXPECT_EQ(answer.status, 500);
  EXPECT_THAT(answer.body, ::testing::HasSubstr("but it's not a socket."));
}

// §3.4: a socket nobody serves is 500 within --timeout (upstream may block 30 s).
TEST_F(RegistrationServerTest, HealthzOfADeadSocketIs500WithinTimeout) {
  {
    auto server = RegistrationServer::Start(SocketPath(), service_, std::chrono::hours(1));
    ASSERT_TRUE(server.ok());
  }
  // gRPC removes the file when its server goes; leave a dead socket file instead.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, SocketPath().c_str(), sizeof(addr.sun_path) - 1);
  ::unlink(SocketPath().c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ::close(fd);
  RegistrarHealth health(SocketPath(), "mock.csi.test", 300ms, "");
  auto start = std::chrono::steady_clock::now();
  metrics::HttpResponse answer = health.Check();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(answer.status, 500);
  EXPECT_THAT(answer.body,
              ::testing::StartsWith("error connecting to node-registrar socket " + SocketPath()));
}

}  // namespace
}  // namespace registrar
