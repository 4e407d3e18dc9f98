// The sample Deployments of deploy/kubernetes/csi-snapshotter/ and
// deploy/kubernetes/snapshot-controller/ pass the real API server's
// validation, run as the ServiceAccounts of the RBAC manifests beside them,
// and keep upstream's arguments (docs/snapshots.md §5). No kubelet or
// controller-manager runs, so no pod starts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "base/file.h"
#include "tests/integration/snapshotter/snapshot_fixture.h"
#include "tests/support/manifest.h"
#include "tests/support/source_dir.h"

namespace snapshot_it {
namespace {

using ::testing::Contains;

struct Sample {
  std::string manifest;  // relative to deploy/kubernetes/
  std::string ns;
  std::string name;
  std::string service_account;
  std::vector<std::string> args;  // each must be among the first container's
};

void ExpectAccepted(kube::Client& admin, const Sample& sample) {
  const std::string path = testsupport::SourcePath("deploy/kubernetes/" + sample.manifest);
  auto yaml = base::ReadFile(path);
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  auto applied = testsupport::ApplyManifest(admin, *yaml, path);
  ASSERT_TRUE(applied.ok()) << applied.error().message;

  auto body =
      admin.Request("GET", "/apis/apps/v1/namespaces/" + sample.ns + "/deployments/" + sample.name);
  ASSERT_TRUE(body.ok()) << body.error().message;
  auto deployment = nlohmann::json::parse(*body, nullptr, false);
  ASSERT_TRUE(deployment.is_object()) << *body;
  const nlohmann::json pod = deployment["spec"]["template"]["spec"];
  EXPECT_EQ(pod.value("serviceAccountName", ""), sample.service_account);
  ASSERT_TRUE(pod["containers"].is_array() && !pod["containers"].empty()) << pod.dump();
  const auto args = pod["containers"][0].value("args", std::vector<std::string>{});
  for (const std::string& arg : sample.args) EXPECT_THAT(args, Contains(arg));

  // The account it names is the one the RBAC manifest created.
  EXPECT_TRUE(admin
                  .Request("GET", "/api/v1/namespaces/" + sample.ns + "/serviceaccounts/" +
                                      sample.service_account)
                  .ok());
}

TEST_F(SnapshotTest, SampleSidecarDeploymentIsAcceptedByTheApiServer) {
  ExpectAccepted(*admin_, {.manifest = "csi-snapshotter/setup-csi-snapshotter.yaml",
                           .ns = kSnapshotterNamespace,
                           .name = "csi-snapshotter",
                           .service_account = kSnapshotterAccount,
                           .args = {"--csi-address=$(ADDRESS)", "--leader-election=true"}});
}

TEST_F(SnapshotTest, SampleControllerDeploymentIsAcceptedByTheApiServer) {
  ExpectAccepted(*admin_, {.manifest = "snapshot-controller/setup-snapshot-controller.yaml",
                           .ns = kSnapshotControllerNamespace,
                           .name = "snapshot-controller",
                           .service_account = kSnapshotControllerAccount,
                           .args = {"--leader-election=true"}});
}

}  // namespace
}  // namespace snapshot_it
