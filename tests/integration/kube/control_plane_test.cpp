// The local control plane launcher (tests/support/control_plane.h) against the
// real etcd and kube-apiserver: the attacher's identity is a ServiceAccount
// with exactly the rules of deploy/kubernetes/csi-attacher/rbac.yaml, TLS is verified
// against our own CA, the apiserver restarts in place, and Stop() leaves no
// process behind. Peers that cannot be found or built fail the tests.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "kube/client/api_error.h"
#include "tests/integration/kube/cluster_fixture.h"
#include "tests/support/credentials.h"
#include "tests/support/manifest.h"
#include "tests/support/source_dir.h"

namespace testsupport {
namespace {

constexpr char kVolumeAttachments[] = "/apis/storage.k8s.io/v1/volumeattachments";

std::string VolumeAttachmentJson(const std::string& name) {
  return nlohmann::json{
      {"apiVersion", "storage.k8s.io/v1"},
      {"kind", "VolumeAttachment"},
      {"metadata", {{"name", name}}},
      {"spec",
       {{"attacher", "cp-test.csi.example.com"},
        {"nodeName", "node-1"},
        {"source", {{"persistentVolumeName", "pv-" + name}}}}},
  }
      .dump();
}

bool ProcessGone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

class ControlPlaneTest : public kube::ClusterTest {};

TEST_F(ControlPlaneTest, AttacherIsTheCsiAttacherServiceAccount) {
  auto review =
      attacher_->Request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                         R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})",
                         "application/json");
  ASSERT_TRUE(review.ok()) << review.error().message;
  auto user = nlohmann::json::parse(*review)["status"]["userInfo"];
  EXPECT_EQ(user["username"], "system:serviceaccount:default:csi-attacher");
}

// The cluster's controllers cost a start only to the tests that ask for them
// (tests/integration/kube/controllers_test.cpp).
TEST_F(ControlPlaneTest, StartsNoControllersUnlessAskedTo) {
  EXPECT_EQ(plane_->controller_manager_pid(), 0);
  EXPECT_EQ(plane_->scheduler_pid(), 0);
}

TEST_F(ControlPlaneTest, KubeconfigsVerifyTlsAgainstOurCa) {
  for (const auto& config : {plane_->AdminConfig(), plane_->AttacherConfig()}) {
    ASSERT_TRUE(config.ok()) << config.error().message;
    EXPECT_EQ(config->server, plane_->server_url());
    EXPECT_FALSE(config->insecure_skip_tls_verify);
    EXPECT_FALSE(config->ca_pem.empty());
  }
  EXPECT_TRUE(plane_->server_url().starts_with("https://127.0.0.1:"));
}

TEST_F(ControlPlaneTest, AttacherCanListVolumeAttachments) {
  auto list = attacher_->Request("GET", kVolumeAttachments);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(nlohmann::json::parse(*list)["kind"], "VolumeAttachmentList");
}

TEST_F(ControlPlaneTest, AttacherCanPatchVolumeAttachmentAndItsStatus) {
  const std::string name = "cp-test-status";
  auto created =
      admin_->Request("POST", kVolumeAttachments, VolumeAttachmentJson(name), "application/json");
  ASSERT_TRUE(created.ok()) << created.error().message;
  const std::string path = std::string(kVolumeAttachments) + "/" + name;

  auto annotated =
      attacher_->Request("PATCH", path, R"({"metadata":{"annotations":{"cp-test":"yes"}}})",
                         "application/merge-patch+json");
  EXPECT_TRUE(annotated.ok()) << annotated.error().message;
  auto patched = attacher_->Request("PATCH", path + "/status", R"({"status":{"attached":true}})",
                                    "application/merge-patch+json");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(nlohmann::json::parse(*patched)["status"]["attached"], true);

  EXPECT_TRUE(admin_->Request("DELETE", path).ok());
}

TEST_F(ControlPlaneTest, AttacherIsForbiddenWhatItsRulesLack) {
  const struct {
    const char* method;
    const char* path;
  } kForbidden[] = {
      {"DELETE", "/api/v1/persistentvolumes/any-pv"},
      {"DELETE", "/apis/storage.k8s.io/v1/volumeattachments/any-va"},
      {"POST", "/api/v1/namespaces/default/secrets"},
      {"GET", "/api/v1/namespaces/default/secrets/any-secret"},
      {"GET", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/any-lease"},
  };
  for (const auto& request : kForbidden) {
    std::string body = request.method == std::string("POST")
                           ? R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}})"
                           : "";
    auto answer = attacher_->Request(request.method, request.path, body, "application/json");
    ASSERT_FALSE(answer.ok()) << request.method << " " << request.path << " was allowed";
    EXPECT_EQ(answer.error().code, 403)
        << request.method << " " << request.path << ": " << answer.error().message;
    EXPECT_TRUE(kube::IsForbidden(answer.error()));
  }
}

// deploy/kubernetes/csi-attacher/deployment.yaml is a Deployment the real API server
// accepts, running our image with upstream's arguments as rbac.yaml's
// ServiceAccount.
TEST_F(ControlPlaneTest, SampleDeploymentIsAcceptedByTheApiServer) {
  const std::string path =
      testsupport::SourcePath("deploy/kubernetes/csi-attacher/deployment.yaml");
  auto manifest = base::ReadFile(path);
  ASSERT_TRUE(manifest.ok()) << manifest.error().message;
  auto applied = testsupport::ApplyManifest(*admin_, *manifest, path);
  ASSERT_TRUE(applied.ok()) << applied.error().message;

  auto body = admin_->Request("GET", "/apis/apps/v1/namespaces/default/deployments/csi-attacher");
  ASSERT_TRUE(body.ok()) << body.error().message;
  const nlohmann::json pod = nlohmann::json::parse(*body)["spec"]["template"]["spec"];
  EXPECT_EQ(pod["serviceAccountName"], "csi-attacher");
  const nlohmann::json& attacher = pod["containers"][0];
  EXPECT_EQ(attacher["args"], (nlohmann::json{"--v=5", "--csi-address=$(ADDRESS)",
                                              "--leader-election", "--http-endpoint=:8080"}));
  EXPECT_EQ(attacher["env"][0], (nlohmann::json{{"name", "ADDRESS"}, {"value", "/csi/csi.sock"}}));
  EXPECT_EQ(attacher["livenessProbe"]["httpGet"]["path"], "/healthz/leader-election");
  EXPECT_EQ(attacher["ports"][0]["containerPort"], 8080);
  EXPECT_EQ(pod["volumes"][0]["name"], "socket-dir");
  EXPECT_TRUE(pod["volumes"][0].contains("emptyDir"));
}

TEST_F(ControlPlaneTest, ClientTrustingAnotherCaFailsTheTlsHandshake) {
  auto other_ca = GenerateCertificateAuthority("some-other-ca");
  ASSERT_TRUE(other_ca.ok()) << other_ca.error().message;
  auto config = plane_->AdminConfig();
  ASSERT_TRUE(config.ok()) << config.error().message;
  config->ca_pem = other_ca->cert_pem;
  auto client = kube::Client::Create(*config);
  ASSERT_TRUE(client.ok()) << client.error().message;

  auto answer = (*client)->Request("GET", "/version");
  ASSERT_FALSE(answer.ok()) << "TLS handshake succeeded against the wrong CA";
  EXPECT_TRUE(kube::IsTransportError(answer.error()));
  EXPECT_NE(Lower(answer.error().message).find("certificate"), std::string::npos)
      << answer.error().message;
}

// Its own control plane: these steps stop and restart the peers.
TEST(ControlPlaneLifecycleTest, RestartKeepsDataCompactionExpiresOldVersionsStopLeavesNothing) {
  auto started = ControlPlane::Start();
  ASSERT_TRUE(started.ok()) << "control plane failed to start: " << started.error().message;
  ControlPlane& plane = **started;
  auto admin_config = plane.AdminConfig();
  auto attacher_config = plane.AttacherConfig();
  ASSERT_TRUE(admin_config.ok()) << admin_config.error().message;
  ASSERT_TRUE(attacher_config.ok()) << attacher_config.error().message;
  auto admin_client = kube::Client::Create(*admin_config);
  auto attacher_client = kube::Client::Create(*attacher_config);
  ASSERT_TRUE(admin_client.ok() && attacher_client.ok());
  kube::Client& admin = **admin_client;
  kube::Client& attacher = **attacher_client;

  const std::string path = std::string(kVolumeAttachments) + "/lifecycle";
  ASSERT_TRUE(admin
                  .Request("POST", kVolumeAttachments, VolumeAttachmentJson("lifecycle"),
                           "application/json")
                  .ok());
  auto list = admin.Request("GET", kVolumeAttachments);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const std::string old_version = nlohmann::json::parse(*list)["metadata"]["resourceVersion"];
  ASSERT_TRUE(admin
                  .Request("PATCH", path, R"({"metadata":{"labels":{"v":"2"}}})",
                           "application/merge-patch+json")
                  .ok());
  auto compacted = plane.CompactEtcd();
  ASSERT_TRUE(compacted.ok()) << compacted.error().message;
  EXPECT_TRUE(plane.CompactEtcd().ok()) << "compaction must be idempotent";

  const pid_t first_apiserver = plane.apiserver_pid();
  ASSERT_TRUE(plane.StopApiServer().ok());
  EXPECT_TRUE(ProcessGone(first_apiserver));
  auto down = attacher.Request("GET", kVolumeAttachments);
  ASSERT_FALSE(down.ok());
  EXPECT_TRUE(kube::IsTransportError(down.error())) << down.error().message;

  auto restarted = plane.StartApiServer();
  ASSERT_TRUE(restarted.ok()) << restarted.error().message;
  // Same URL and certificates; the attacher's token still verifies (same
  // signing key) and etcd kept the object.
  auto kept = attacher.Request("GET", path);
  EXPECT_TRUE(kept.ok()) << kept.error().message;
  auto expired =
      admin.Request("GET", std::string(kVolumeAttachments) +
                               "?resourceVersionMatch=Exact&resourceVersion=" + old_version);
  ASSERT_FALSE(expired.ok()) << "list at a compacted resourceVersion succeeded";
  EXPECT_TRUE(kube::IsGone(expired.error())) << expired.error().message;

  const pid_t etcd = plane.etcd_pid();
  const pid_t apiserver = plane.apiserver_pid();
  const std::string work_dir = plane.work_dir();
  plane.Stop();
  EXPECT_TRUE(ProcessGone(apiserver));
  EXPECT_TRUE(ProcessGone(etcd));
  EXPECT_FALSE(std::filesystem::exists(work_dir));
}

}  // namespace
}  // namespace testsupport
