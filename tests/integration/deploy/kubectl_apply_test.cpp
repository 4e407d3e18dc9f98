// Each folder of deploy/kubernetes/ applied the way an operator does it,
// `kubectl apply -k <folder>` with kubectl of the API server's version, on a
// real API server (objects really created: no dry run). A manifest the server
// rejects (unknown field, bad value, wrong reference) makes apply exit
// non-zero and the test fail with kubectl's output. The attacher's
// ClusterRole, as the server stores it, carries upstream v4.12.0's rules
// (the snapshot roles are checked rule by rule in snapshotter/rbac_test.cpp).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "base/ascii.h"
#include "base/file.h"
#include "tests/support/control_plane.h"
#include "tests/support/peer_binaries.h"
#include "tests/support/process.h"
#include "tests/support/source_dir.h"
#include "tests/support/temp_dir.h"

namespace {

struct KubectlResult {
  int exit_status;
  std::string output;  // stdout and stderr
};

// One object a folder must create, as `kubectl get` names it.
struct Expected {
  std::string resource;  // e.g. "serviceaccount"
  std::string name;
  std::string ns;  // empty: cluster-scoped
};

class KubectlApplyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto kubectl =
        testsupport::FindPeer("KUBECTL_BIN", "kubectl", (logs_.path() / "peers.log").string());
    ASSERT_TRUE(kubectl.ok()) << kubectl.error().message;
    kubectl_ = *kubectl;
    auto plane = testsupport::ControlPlane::Start();
    ASSERT_TRUE(plane.ok()) << "control plane failed to start: " << plane.error().message;
    plane_ = std::move(plane).value().release();
  }
  static void TearDownTestSuite() {
    delete plane_;
    plane_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(plane_, nullptr) << "no control plane"; }

  static KubectlResult Kubectl(std::vector<std::string> args) {
    const std::string log =
        (logs_.path() / ("kubectl-" + std::to_string(++calls_) + ".log")).string();
    args.insert(args.begin(), {kubectl_, "--kubeconfig", plane_->admin_kubeconfig()});
    auto process = testsupport::Process::Spawn({.argv = args, .log_file = log});
    if (!process.ok()) return {.exit_status = -1, .output = process.error().message};
    int status = (*process)->Wait();
    auto output = base::ReadFile(log);
    return {.exit_status = status, .output = output.ok() ? *output : output.error().message};
  }

  static std::vector<std::string> GetArgs(const Expected& object) {
    std::vector<std::string> args = {"get", object.resource, object.name, "-o", "name"};
    if (!object.ns.empty()) args.insert(args.end(), {"--namespace", object.ns});
    return args;
  }

  // Deletes what the folder defines (the control plane applied the attacher's
  // RBAC at start), checks it is gone, applies the folder and checks every
  // expected object exists.
  static void ExpectFolderApplies(const std::string& folder, const std::vector<Expected>& objects) {
    const std::string dir = testsupport::SourcePath("deploy/kubernetes/" + folder);
    KubectlResult deleted = Kubectl({"delete", "-k", dir, "--ignore-not-found", "--wait"});
    ASSERT_EQ(deleted.exit_status, 0) << deleted.output;
    for (const Expected& object : objects) {
      KubectlResult get = Kubectl(GetArgs(object));
      ASSERT_NE(get.exit_status, 0)
          << object.resource << "/" << object.name << " exists before apply: " << get.output;
      EXPECT_NE(get.output.find("NotFound"), std::string::npos) << get.output;
    }

    KubectlResult applied = Kubectl({"apply", "-k", dir});
    ASSERT_EQ(applied.exit_status, 0) << "kubectl apply -k " << dir << ":\n" << applied.output;
    for (const Expected& object : objects) {
      KubectlResult get = Kubectl(GetArgs(object));
      EXPECT_EQ(get.exit_status, 0) << get.output;
      EXPECT_EQ(base::TrimSpace(get.output), object.resource + "/" + object.name) << get.output;
    }
  }

  // The API server creates its system namespaces shortly after it is ready;
  // apply fails (and says so) if `ns` never comes.
  static void AwaitNamespace(const std::string& ns) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (Kubectl({"get", "namespace", ns}).exit_status != 0 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
  }

  static inline test::TempDir logs_;
  static inline int calls_ = 0;
  static inline std::string kubectl_;
  static inline testsupport::ControlPlane* plane_ = nullptr;
};

TEST_F(KubectlApplyTest, CsiAttacherFolderCreatesItsRbacAndDeployment) {
  ExpectFolderApplies(
      "csi-attacher",
      {{"serviceaccount", "csi-attacher", "default"},
       {"clusterrole.rbac.authorization.k8s.io", "external-attacher-runner", ""},
       {"clusterrolebinding.rbac.authorization.k8s.io", "csi-attacher-role", ""},
       {"role.rbac.authorization.k8s.io", "external-attacher-cfg", "default"},
       {"rolebinding.rbac.authorization.k8s.io", "csi-attacher-role-cfg", "default"},
       {"deployment.apps", "csi-attacher", "default"}});
}

TEST_F(KubectlApplyTest, CsiAttacherClusterRoleHasUpstreamRules) {
  const std::string dir = testsupport::SourcePath("deploy/kubernetes/csi-attacher");
  KubectlResult applied = Kubectl({"apply", "-k", dir});
  ASSERT_EQ(applied.exit_status, 0) << applied.output;
  KubectlResult role = Kubectl({"get", "clusterrole", "external-attacher-runner", "-o", "json"});
  ASSERT_EQ(role.exit_status, 0) << role.output;
  // external-attacher v4.12.0 deploy/kubernetes/rbac.yaml.
  const nlohmann::json upstream = nlohmann::json::parse(R"([
    {"apiGroups": [""], "resources": ["persistentvolumes"], "verbs": ["get", "list", "watch", "patch"]},
    {"apiGroups": ["storage.k8s.io"], "resources": ["csinodes"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": ["storage.k8s.io"], "resources": ["volumeattachments"], "verbs": ["get", "list", "watch", "patch"]},
    {"apiGroups": ["storage.k8s.io"], "resources": ["volumeattachments/status"], "verbs": ["patch"]}
  ])");
  EXPECT_EQ(nlohmann::json::parse(role.output)["rules"], upstream);
}

TEST_F(KubectlApplyTest, CsiSnapshotterFolderCreatesItsRbacAndDeployment) {
  ExpectFolderApplies(
      "csi-snapshotter",
      {{"serviceaccount", "csi-snapshotter", "default"},
       {"clusterrole.rbac.authorization.k8s.io", "external-snapshotter-runner", ""},
       {"clusterrolebinding.rbac.authorization.k8s.io", "csi-snapshotter-role", ""},
       {"role.rbac.authorization.k8s.io", "external-snapshotter-leaderelection", "default"},
       {"rolebinding.rbac.authorization.k8s.io", "external-snapshotter-leaderelection", "default"},
       {"deployment.apps", "csi-snapshotter", "default"}});
}

TEST_F(KubectlApplyTest, CsiProvisionerFolderCreatesItsRbacAndDeployment) {
  ExpectFolderApplies(
      "csi-provisioner",
      {{"serviceaccount", "csi-provisioner", "default"},
       {"clusterrole.rbac.authorization.k8s.io", "external-provisioner-runner", ""},
       {"clusterrolebinding.rbac.authorization.k8s.io", "csi-provisioner-role", ""},
       {"role.rbac.authorization.k8s.io", "external-provisioner-cfg", "default"},
       {"rolebinding.rbac.authorization.k8s.io", "csi-provisioner-role-cfg", "default"},
       {"deployment.apps", "csi-provisioner", "default"}});
}

TEST_F(KubectlApplyTest, CsiResizerFolderCreatesItsRbacAndDeployment) {
  ExpectFolderApplies("csi-resizer",
                      {{"serviceaccount", "csi-resizer", "default"},
                       {"clusterrole.rbac.authorization.k8s.io", "external-resizer-runner", ""},
                       {"clusterrolebinding.rbac.authorization.k8s.io", "csi-resizer-role", ""},
                       {"role.rbac.authorization.k8s.io", "external-resizer-cfg", "default"},
                       {"rolebinding.rbac.authorization.k8s.io", "csi-resizer-role-cfg", "default"},
                       {"deployment.apps", "csi-resizer", "default"}});
}

TEST_F(KubectlApplyTest, CsiResizerClusterRoleHasUpstreamRules) {
  const std::string dir = testsupport::SourcePath("deploy/kubernetes/csi-resizer");
  KubectlResult applied = Kubectl({"apply", "-k", dir});
  ASSERT_EQ(applied.exit_status, 0) << applied.output;
  KubectlResult role = Kubectl({"get", "clusterrole", "external-resizer-runner", "-o", "json"});
  ASSERT_EQ(role.exit_status, 0) << role.output;
  // external-resizer v2.3.0 deploy/kubernetes/rbac.yaml.
  const nlohmann::json upstream = nlohmann::json::parse(R"([
    {"apiGroups": [""], "resources": ["persistentvolumes"], "verbs": ["get", "list", "watch", "patch"]},
    {"apiGroups": [""], "resources": ["persistentvolumeclaims"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": [""], "resources": ["persistentvolumeclaims/status"], "verbs": ["patch"]},
    {"apiGroups": [""], "resources": ["events"], "verbs": ["list", "watch", "create", "update", "patch"]},
    {"apiGroups": ["storage.k8s.io"], "resources": ["volumeattributesclasses"], "verbs": ["get", "list", "watch"]}
  ])");
  EXPECT_EQ(nlohmann::json::parse(role.output)["rules"], upstream);
}

TEST_F(KubectlApplyTest, SnapshotControllerFolderCreatesItsRbacAndDeployment) {
  AwaitNamespace("kube-system");
  ExpectFolderApplies(
      "snapshot-controller",
      {{"serviceaccount", "snapshot-controller", "kube-system"},
       {"clusterrole.rbac.authorization.k8s.io", "snapshot-controller-runner", ""},
       {"clusterrolebinding.rbac.authorization.k8s.io", "snapshot-controller-role", ""},
       {"role.rbac.authorization.k8s.io", "snapshot-controller-leaderelection", "kube-system"},
       {"rolebinding.rbac.authorization.k8s.io", "snapshot-controller-leaderelection",
        "kube-system"},
       {"deployment.apps", "snapshot-controller", "kube-system"}});
}

// docs/node-sidecars.md: the node sidecars need no RBAC; each folder is a
// sample DaemonSet.
TEST_F(KubectlApplyTest, CsiNodeDriverRegistrarFolderCreatesItsDaemonSet) {
  ExpectFolderApplies("csi-node-driver-registrar", {{"daemonset.apps", "csi-node", "default"}});
}

TEST_F(KubectlApplyTest, LivenessProbeFolderCreatesItsDaemonSet) {
  ExpectFolderApplies("livenessprobe",
                      {{"daemonset.apps", "csi-driver-with-livenessprobe", "default"}});
}

}  // namespace
