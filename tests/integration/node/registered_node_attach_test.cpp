// csi-attacher on a CSINode that came through plugin registration, not one a
// test wrote: the registrar registers the e2e mock driver with the fake
// kubelet, which writes the driver's NodeGetInfo node ID into the Node's
// annotation and the CSINode (docs/node-sidecars.md §1, §4.4), and the attacher
// takes the node ID for ControllerPublishVolume from that CSINode alone
// (docs/attacher.md §5.3 step 4) and for ControllerUnpublishVolume from it
// too (§5.4). So a node ID lost or changed anywhere between NodeGetInfo and
// the attacher's request fails here. The mock answers NotFound to a publish
// for any node ID but its own, and logs the node ID of every call. The same
// checks run against our csi-attacher and upstream's (UPSTREAM_ATTACHER_BIN).
#include <gmock/gmock.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/file.h"
#include "kube/client/api_error.h"
#include "tests/integration/node/fake_kubelet.h"
#include "tests/integration/node/node_fixture.h"
#include "tests/support/cluster_objects.h"
#include "tests/support/csi_driver_records.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/test_objects.h"

namespace node_it {
namespace registered_node_attach {

using namespace std::chrono_literals;
using ::testing::Each;
using ::testing::IsEmpty;
using ::testing::Not;

// An attach runs within a second or two; the rest is a busy machine's slack.
constexpr auto kAttachTimeout = 60s;

// The e2e mock's built-in volume "Mock Volume 1": it exists without --create-volumes.
constexpr char kVolumeHandle[] = "1";

enum class Attacher { kOurs, kUpstream };

std::string ParamName(const ::testing::TestParamInfo<Attacher>& info) {
  return info.param == Attacher::kOurs ? "ours" : "upstream";
}

class RegisteredNodeAttachTest : public NodeSidecarTest,
                                 public ::testing::WithParamInterface<Attacher> {
 protected:
  void SetUp() override {
    NodeSidecarTest::SetUp();
    if (GetParam() == Attacher::kOurs) {
      attacher_binary_ = ATTACHER_BIN;
      return;
    }
    auto binary =
        testsupport::FindPeer("UPSTREAM_ATTACHER_BIN", "upstream", dir_ + "/peers-build.log");
    ASSERT_TRUE(binary.ok()) << "upstream csi-attacher (the peer this test compares with) is "
                                "missing: "
                             << binary.error().message;
    attacher_binary_ = *binary;
  }

  // One control plane serves both attachers: names differ per attacher.
  std::string Name(const std::string& what) const {
    return what + (GetParam() == Attacher::kOurs ? "-ours" : "-up");
  }

  // What kubelet does for a registrar's socket (docs/node-sidecars.md §4.3, §4.4):
  // GetInfo, the CSINode entry and Node annotation from NodeGetInfo, then
  // Notify(true). Returns the node ID NodeGetInfo gave, "" on failure.
  std::string RegisterDriverOnNode(const std::string& node) {
    const std::string socket = registration_socket(driver_name_);
    auto facts = FakeKubelet::WaitForSocket(socket, 10s);
    EXPECT_TRUE(facts.ok()) << facts.error().message;
    auto info = FakeKubelet::GetInfo(socket);
    EXPECT_TRUE(info.ok()) << (info.ok() ? "" : info.error().message);
    if (!facts.ok() || !info.ok()) return "";
    auto node_id = FakeKubelet::InstallCsiDriver(*admin_, node, info->name(), info->endpoint());
    EXPECT_TRUE(node_id.ok()) << (node_id.ok() ? "" : node_id.error().message);
    EXPECT_TRUE(FakeKubelet::Notify(socket, true, "").ok());
    return node_id.ok() ? *node_id : "";
  }

  // The attacher on the driver's socket (the controller service is on the
  // same socket as the node service, as the mock serves both). It runs as the
  // attacher's RBAC-limited ServiceAccount of
  // deploy/kubernetes/csi-attacher/rbac.yaml, which every control plane has.
  std::unique_ptr<testsupport::Process> StartAttacher() {
    auto process = testsupport::Process::Spawn(
        {.argv = {attacher_binary_, "--kubeconfig=" + plane_->attacher_kubeconfig(),
                  "--csi-address=" + driver_socket(), "--timeout=5s",
                  "--retry-interval-start=200ms", "--retry-interval-max=2s", "-v=5"},
         .log_file = dir_ + "/attacher.log"});
    EXPECT_TRUE(process.ok()) << process.error().message;
    if (!process.ok()) return nullptr;
    sidecar_logs_.push_back((*process)->log_file());
    return std::move(process).value();
  }

  // The node IDs of the driver's `method` calls answered OK, from its log.
  std::vector<std::string> DriverCallNodeIds(std::string_view method) const {
    auto log = base::ReadFile(driver_->log_file());
    EXPECT_TRUE(log.ok()) << log.error().message;
    return log.ok() ? testsupport::MockDriverCallNodeIds(*log, method, /*ok_only=*/true)
                    : std::vector<std::string>{};
  }

  base::Status VaAttached(const std::string& name) {
    auto va = admin_->Get<kube::VolumeAttachment>("", name);
    if (!va.ok()) return va.error();
    if (va->status.attached) return {};
    return base::Error(va->status.attach_error ? "attachError: " + va->status.attach_error->message
                                               : "not attached yet");
  }

  base::Status VaGone(const std::string& name) {
    auto va = admin_->Get<kube::VolumeAttachment>("", name);
    if (!va.ok() && kube::IsNotFound(va.error())) return {};
    return base::Error(va.ok() ? "still there" : va.error().message);
  }

  std::string attacher_binary_;
  std::string driver_name_;
};

TEST_P(RegisteredNodeAttachTest, AttachPublishesToTheNodeIdRegistrationWroteAndDetachUnpublishes) {
  // The mock's node ID is its driver name: one driver per attacher.
  driver_name_ = Name("attach") + ".csi.test";
  const std::string node = Name("node-attach");
  const std::string pv = Name("pv-attach");
  const std::string va = Name("va-attach");
  StartMockDriver(driver_name_);
  auto registrar = StartRegistrar({});
  ASSERT_TRUE(registrar);
  ASSERT_TRUE(testsupport::CreateNode(*admin_, {.name = node}).ok());
  const std::string node_id = RegisterDriverOnNode(node);
  ASSERT_FALSE(node_id.empty()) << "registration gave no node ID";

  auto attacher = StartAttacher();
  ASSERT_TRUE(attacher);
  auto created_pv = admin_->Create(kube::testobjects::CsiPv(pv, driver_name_, kVolumeHandle));
  ASSERT_TRUE(created_pv.ok()) << created_pv.error().message;
  auto created_va = admin_->Create(kube::testobjects::Va(va, driver_name_, pv, node));
  ASSERT_TRUE(created_va.ok()) << created_va.error().message;

  auto attached = testsupport::Eventually(kAttachTimeout, [&] { return VaAttached(va); });
  ASSERT_TRUE(attached.ok()) << va << " never attached: " << attached.error().message;
  const auto published_to = DriverCallNodeIds("ControllerPublishVolume");
  EXPECT_THAT(published_to, Not(IsEmpty()));
  EXPECT_THAT(published_to, Each(node_id));

  ASSERT_TRUE(admin_->Delete<kube::VolumeAttachment>("", va).ok());
  auto gone = testsupport::Eventually(kAttachTimeout, [&] { return VaGone(va); });
  EXPECT_TRUE(gone.ok()) << va << " never detached: " << gone.error().message;
  const auto unpublished_from = DriverCallNodeIds("ControllerUnpublishVolume");
  EXPECT_THAT(unpublished_from, Not(IsEmpty()));
  EXPECT_THAT(unpublished_from, Each(node_id));
  EXPECT_TRUE(attacher->IsRunning());
}

INSTANTIATE_TEST_SUITE_P(Attachers, RegisteredNodeAttachTest,
                         ::testing::Values(Attacher::kOurs, Attacher::kUpstream), ParamName);

}  // namespace registered_node_attach
}  // namespace node_it
