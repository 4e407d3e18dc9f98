// The node sidecars from their image roots (chroot, user 0 as their
// Dockerfile stages say): livenessprobe probing the fault driver, the
// registrar registering with the fake kubelet and removing its socket on
// SIGTERM.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

#include "tests/integration/image/image_root.h"
#include "tests/integration/image/process_facts.h"
#include "tests/integration/node/fake_kubelet.h"
#include "tests/integration/node/node_fixture.h"

namespace image_it {
namespace {

using namespace std::chrono_literals;

// The node images' USER (Dockerfile): root, as upstream's.
constexpr int kNodeImageUser = 0;

class NodeImageTest : public node_it::NodeSidecarTest {
 protected:
  void SetUp() override {
    NodeSidecarTest::SetUp();
    liveness_image_ = ImageRoot::Get(LIVENESSPROBE_BIN);
    registrar_image_ = ImageRoot::Get(REGISTRAR_BIN);
    ASSERT_NE(liveness_image_, nullptr);
    ASSERT_NE(registrar_image_, nullptr);
    sidecar_env_ = {{"IMAGE_USER", "0:0"}};
  }
  std::string LivenessProbeBinary() const override { return liveness_image_->Launcher({dir_}); }
  std::string RegistrarBinary() const override { return registrar_image_->Launcher({dir_}); }

  const ImageRoot* liveness_image_ = nullptr;
  const ImageRoot* registrar_image_ = nullptr;
};

TEST_F(NodeImageTest, LivenessProbeFromItsImageRootProbesTheDriver) {
  StartFaultDriver("fault.csi.test");
  const int port = FreePort();
  auto probe = StartLivenessProbe(
      {"--http-endpoint=127.0.0.1:" + std::to_string(port), "--probe-timeout=1s"});
  ASSERT_TRUE(probe);
  node_it::HttpAnswer answer = AwaitAnswer(port, "/healthz", 200, 10s);
  EXPECT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body, "ok");
  EXPECT_EQ(RealUserOf(probe->pid()), kNodeImageUser);
  WriteFaults(R"({"Probe": [{"ready": false}]})");
  answer = node_it::Get(port, "/healthz");
  EXPECT_EQ(answer.status, 500);
  EXPECT_EQ(answer.body, "driver responded but is not ready");
}

TEST_F(NodeImageTest, RegistrarFromItsImageRootRegistersAndRemovesItsSocketOnSigterm) {
  StartMockDriver("mock.csi.test");
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  const std::string socket = registration_socket("mock.csi.test");
  auto facts = node_it::FakeKubelet::WaitForSocket(socket, 10s);
  ASSERT_TRUE(facts.ok()) << facts.error().message;
  EXPECT_EQ(facts->mode, 0700u);
  auto info = node_it::FakeKubelet::GetInfo(socket);
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->name(), "mock.csi.test");
  EXPECT_EQ(info->endpoint(), driver_socket());
  EXPECT_TRUE(node_it::FakeKubelet::Notify(socket, true, "").ok());
  EXPECT_EQ(RealUserOf(registrar->pid()), kNodeImageUser);
  ::kill(registrar->pid(), SIGTERM);
  EXPECT_EQ(AwaitExit(*registrar, 5s), 0);
  EXPECT_FALSE(std::filesystem::exists(socket));
}

}  // namespace
}  // namespace image_it
