// Failures a real driver will not produce on demand, injected with
// tests/fault_csi_driver: slow publishes, final errors, volumes detached behind
// the attacher's back (reconciler), and the driver dying.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/integration/attacher/attacher_fixture.h"

namespace attacher_it {
namespace {

using namespace std::chrono_literals;

constexpr const char* kFaultDriver = "fault.csi.example.com";
constexpr const char* kFaultNodeId = "fault-node-id";

class FaultDriverTest : public AttacherTest {
 protected:
  void Prepare(const std::string& suffix, std::vector<std::string> driver_args = {}) {
    StartFaultDriver(kFaultDriver, kFaultNodeId, std::move(driver_args));
    node_ = "node-" + suffix;
    CreateCsiNode(node_, kFaultDriver, kFaultNodeId);
  }
  std::string node_;
};

TEST_F(FaultDriverTest, PublishThatTimesOutThenSucceedsEndsAttachedOnce) {
  Prepare("slow");
  WriteFaults(R"({"ControllerPublishVolume":[{"volume_id":"vol-slow","delay":"4s","times":1}]})");
  CreatePv(CsiPv("pv-slow", kFaultDriver, "vol-slow"));
  StartAttacher({"--timeout=1s"});
  CreateVa("va-slow", kFaultDriver, "pv-slow", node_);

  auto va = AwaitVa("va-slow", Attached);
  ASSERT_TRUE(va && va->status.attached);
  EXPECT_FALSE(va->status.attach_error.has_value()) << "attachError must be cleared on success";
  EXPECT_GE(VolumeCounter("vol-slow", "publish_calls"), 2) << "the timed-out call must be retried";
  EXPECT_EQ(VolumeCounter("vol-slow", "attaches"), 1) << "one final attached state, no duplicate";
}

TEST_F(FaultDriverTest, FinalErrorIsSavedWithItsCodeAndRetriedWithBackoff) {
  Prepare("final");
  WriteFaults(
      R"({"ControllerPublishVolume":[{"volume_id":"vol-final","code":"INTERNAL","message":"backend on fire","times":3}]})");
  CreatePv(CsiPv("pv-final", kFaultDriver, "vol-final"));
  StartAttacher({"--retry-interval-start=500ms"});
  CreateVa("va-final", kFaultDriver, "pv-final", node_);

  auto failed = AwaitVa("va-final", [](const kube::VolumeAttachment& va) {
    return va.status.attach_error.has_value();
  });
  ASSERT_TRUE(failed && failed->status.attach_error);
  EXPECT_NE(failed->status.attach_error->message.find("backend on fire"), std::string::npos)
      << failed->status.attach_error->message;
  EXPECT_EQ(failed->status.attach_error->error_code.value_or(-1), 13) << "gRPC INTERNAL";
  EXPECT_FALSE(failed->status.attach_error->time.empty());

  auto va = AwaitVa("va-final", Attached);
  ASSERT_TRUE(va && va->status.attached) << "not retried after the fault cleared";
  EXPECT_EQ(VolumeCounter("vol-final", "publish_calls"), 4) << "3 injected failures + 1 success";
  // Backoff 0.5 s, 1 s, 2 s between the attempts: the calls are spread out, not hammered.
  auto calls = DriverState()["calls"];
  EXPECT_GE(calls.size(), 4u);
}

TEST_F(FaultDriverTest, ErrorCodeIsNotSavedWhenTheFeatureGateIsOff) {
  Prepare("gateoff");
  WriteFaults(R"({"ControllerPublishVolume":[{"code":"INTERNAL","times":-1}]})");
  CreatePv(CsiPv("pv-gateoff", kFaultDriver, "vol-gateoff"));
  StartAttacher({"--feature-gates=MutableCSINodeAllocatableCount=false"});
  CreateVa("va-gateoff", kFaultDriver, "pv-gateoff", node_);
  auto failed = AwaitVa("va-gateoff", [](const kube::VolumeAttachment& va) {
    return va.status.attach_error.has_value();
  });
  ASSERT_TRUE(failed && failed->status.attach_error);
  EXPECT_FALSE(failed->status.attach_error->error_code.has_value());
}

TEST_F(FaultDriverTest, ReconcilerReattachesVolumeDetachedBehindOurBack) {
  Prepare("reconcile",
          {"--capabilities=PUBLISH_UNPUBLISH_VOLUME,LIST_VOLUMES,LIST_VOLUMES_PUBLISHED_NODES"});
  CreatePv(CsiPv("pv-recon", kFaultDriver, "vol-recon"));
  StartAttacher({"--reconcile-sync=1s"});
  CreateVa("va-recon", kFaultDriver, "pv-recon", node_);
  ASSERT_TRUE(AwaitVa("va-recon", Attached)->status.attached);
  ASSERT_EQ(VolumeCounter("vol-recon", "attaches"), 1);

  WriteFaults(R"({"detach_behind_back":["vol-recon"]})");
  ASSERT_TRUE(AwaitCounter("vol-recon", "detached_behind_back", 1));
  EXPECT_TRUE(AwaitCounter("vol-recon", "attaches", 2))
      << "the reconciler did not notice the volume was detached";
  auto state = DriverState();
  ASSERT_TRUE(state["attachments"].contains("vol-recon"));
  EXPECT_EQ(state["attachments"]["vol-recon"], nlohmann::json::array({kFaultNodeId}));
}

TEST_F(FaultDriverTest, DriverKilledMakesAttacherExitOneWithTerminationMessage) {
  Prepare("killed");
  CreatePv(CsiPv("pv-killed", kFaultDriver, "vol-killed"));
  StartAttacher();
  CreateVa("va-killed", kFaultDriver, "pv-killed", node_);
  ASSERT_TRUE(AwaitVa("va-killed", Attached)->status.attached);

  driver_->Kill();
  EXPECT_EQ(attacher_->Wait(), 1) << AttacherLog();
  std::ifstream in(termination_log());
  std::string message((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(message, "Lost connection to CSI driver, exiting");
  EXPECT_NE(AttacherLog().find("Lost connection to CSI driver"), std::string::npos);
}

TEST_F(FaultDriverTest, SecretValuesNeverAppearInLogsAtHighVerbosity) {
  Prepare("secret");
  auto secret = admin_->Request(
      "POST", "/api/v1/namespaces/default/secrets",
      R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"publish-secret"},"stringData":{"password":"hunter2-s3cr3t"}})",
      "application/json");
  ASSERT_TRUE(secret.ok()) << secret.error().message;
  // The attacher's RBAC lacks secrets get by default; grant it for this test.
  auto role = admin_->Request(
      "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
      R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"read-publish-secret"},"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]})",
      "application/json");
  ASSERT_TRUE(role.ok()) << role.error().message;
  auto binding = admin_->Request(
      "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
      R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"read-publish-secret"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"read-publish-secret"},"subjects":[{"kind":"ServiceAccount","name":"csi-attacher","namespace":"default"}]})",
      "application/json");
  ASSERT_TRUE(binding.ok()) << binding.error().message;

  kube::PersistentVolume pv = CsiPv("pv-secret-log", kFaultDriver, "vol-secret");
  std::get<kube::CSIPersistentVolumeSource>(pv.spec.source).controller_publish_secret_ref =
      kube::SecretReference{"publish-secret", "default"};
  CreatePv(pv);
  StartAttacher({"-v=10"});
  CreateVa("va-secret-log", kFaultDriver, "pv-secret-log", node_);
  ASSERT_TRUE(AwaitVa("va-secret-log", Attached)->status.attached);
  auto calls = DriverState()["calls"];
  bool driver_got_secret = false;
  for (const auto& call : calls) {
    if (call["method"] == "ControllerPublishVolume") {
      driver_got_secret |= call["request"]["secrets"] == nlohmann::json::array({"password"});
    }
  }
  EXPECT_TRUE(driver_got_secret) << "the secret was not passed to the driver";
  std::string log = AttacherLog();
  EXPECT_EQ(log.find("hunter2-s3cr3t"), std::string::npos) << "secret value leaked into the log";
  EXPECT_NE(log.find("***stripped***"), std::string::npos) << "expected the stripped marker";
}

}  // namespace
}  // namespace attacher_it
