// Each folder of deploy/kubernetes/ applied the way an operator does it,
// `kubectl apply -k <folder>` with kubectl of the API server's version, on a
// real API server (objects really created: no dry run). A manifest the server
// rejects (unknown field, bad value, wrong reference) makes apply exit
// non-zero and the test fail with kubectl's output. The attacher's
// ClusterRole, as the server stores it, carries upstream v4.12.0's rules
// (the snapshot roles are checked rule by rule in snapshotter/rbac_test.cpp).
// csi-sidecars' ClusterRole and Role grant exactly the union of what the four
// separate controller sidecars' roles grant, compared as the server stores
// them.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <tuple>
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

// One permission an RBAC rule grants: apiGroup, resource, verb and object
// name ("" for every name). A rule with several of each grants every
// combination, so comparing sets of these compares roles however their rules
// are split or merged.
using Grant = std::tuple<std::string, std::string, std::string, std::string>;

std::set<Grant> GrantsOf(const nlohmann::json& role) {
  std::set<Grant> grants;
  for (const nlohmann::json& rule : role.value("rules", nlohmann::json::array())) {
    std::vector<std::string> names = rule.value("resourceNames", std::vector<std::string>{});
    if (names.empty()) names.push_back("");
    for (const std::string& group : rule.value("apiGroups", std::vector<std::string>{})) {
      for (const std::string& resource : rule.value("resources", std::vector<std::string>{})) {
        for (const std::string& verb : rule.value("verbs", std::vector<std::string>{})) {
          for (const std::string& name : names) grants.emplace(group, resource, verb, name);
        }
      }
    }
  }
  return grants;
}

std::string Describe(const Grant& grant) {
  const auto& [group, resource, verb, name] = grant;
  return "apiGroup \"" + group + "\" resource " + resource + " verb " + verb +
         (name.empty() ? "" : " name " + name);
}

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

  // The stored object `kubectl get <args> -o json` prints; null after a
  // failure already reported.
  static nlohmann::json GetJson(std::vector<std::string> args) {
    args.insert(args.begin(), "get");
    args.insert(args.end(), {"-o", "json"});
    KubectlResult got = Kubectl(args);
    EXPECT_EQ(got.exit_status, 0) << got.output;
    if (got.exit_status != 0) return nullptr;
    nlohmann::json parsed = nlohmann::json::parse(got.output, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(parsed.is_discarded()) << "not JSON: " << got.output;
    return parsed.is_discarded() ? nlohmann::json(nullptr) : parsed;
  }

  // Expects `combined` (a role as stored) to grant everything each of
  // `separate` grants and nothing none of them does; each miss is one failure
  // naming the permission and the role that has it.
  static void ExpectUnion(const std::vector<std::string>& kind_args, const std::string& combined,
                          const std::vector<std::string>& separate) {
    auto grants_of = [&](const std::string& name) {
      std::vector<std::string> args = kind_args;
      args.insert(args.begin() + 1, name);
      nlohmann::json role = GetJson(args);
      EXPECT_TRUE(role.is_object()) << name << " is not a stored role";
      return role.is_object() ? GrantsOf(role) : std::set<Grant>{};
    };
    const std::set<Grant> have = grants_of(combined);
    std::set<Grant> wanted;
    for (const std::string& name : separate) {
      const std::set<Grant> grants = grants_of(name);
      EXPECT_FALSE(grants.empty()) << name << " grants nothing";
      for (const Grant& grant : grants) {
        EXPECT_TRUE(have.contains(grant))
            << combined << " lacks " << Describe(grant) << ", which " << name << " grants";
        wanted.insert(grant);
      }
    }
    for (const Grant& grant : have) {
      EXPECT_TRUE(wanted.contains(grant))
          << combined << " grants " << Describe(grant) << ", which none of the separate roles do";
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

TEST_F(KubectlApplyTest, CsiSidecarsFolderCreatesItsRbacAndDeployment) {
  ExpectFolderApplies(
      "csi-sidecars",
      {{"serviceaccount", "csi-sidecars", "default"},
       {"clusterrole.rbac.authorization.k8s.io", "csi-sidecars-runner", ""},
       {"clusterrolebinding.rbac.authorization.k8s.io", "csi-sidecars-role", ""},
       {"role.rbac.authorization.k8s.io", "csi-sidecars-cfg", "default"},
       {"rolebinding.rbac.authorization.k8s.io", "csi-sidecars-role-cfg", "default"},
       {"deployment.apps", "csi-sidecars", "default"}});
}

// csi-sidecars may run all four controllers, so its roles must grant all that
// the four separate sidecars' roles grant (read from their folders, applied
// here, so a rule added there and forgotten here fails), and no more; and the
// Deployment's ServiceAccount must be the one both bindings name.
TEST_F(KubectlApplyTest, CsiSidecarsRolesAreTheUnionOfTheFourSidecarsRoles) {
  for (const char* folder :
       {"csi-attacher", "csi-provisioner", "csi-resizer", "csi-snapshotter", "csi-sidecars"}) {
    const std::string dir = testsupport::SourcePath(std::string("deploy/kubernetes/") + folder);
    KubectlResult applied = Kubectl({"apply", "-k", dir});
    ASSERT_EQ(applied.exit_status, 0) << "kubectl apply -k " << dir << ":\n" << applied.output;
  }

  ExpectUnion({"clusterrole"}, "csi-sidecars-runner",
              {"external-attacher-runner", "external-provisioner-runner", "external-resizer-runner",
               "external-snapshotter-runner"});
  ExpectUnion({"role", "--namespace", "default"}, "csi-sidecars-cfg",
              {"external-attacher-cfg", "external-provisioner-cfg", "external-resizer-cfg",
               "external-snapshotter-leaderelection"});

  const nlohmann::json service_account = {
      {"kind", "ServiceAccount"}, {"name", "csi-sidecars"}, {"namespace", "default"}};
  nlohmann::json binding = GetJson({"clusterrolebinding", "csi-sidecars-role"});
  EXPECT_EQ(binding["roleRef"]["kind"], "ClusterRole") << binding.dump();
  EXPECT_EQ(binding["roleRef"]["name"], "csi-sidecars-runner") << binding.dump();
  EXPECT_EQ(binding["subjects"], nlohmann::json::array({service_account})) << binding.dump();
  binding = GetJson({"rolebinding", "csi-sidecars-role-cfg", "--namespace", "default"});
  EXPECT_EQ(binding["roleRef"]["kind"], "Role") << binding.dump();
  EXPECT_EQ(binding["roleRef"]["name"], "csi-sidecars-cfg") << binding.dump();
  EXPECT_EQ(binding["subjects"], nlohmann::json::array({service_account})) << binding.dump();
  nlohmann::json deployment = GetJson({"deployment", "csi-sidecars", "--namespace", "default"});
  EXPECT_EQ(deployment["spec"]["template"]["spec"]["serviceAccountName"], "csi-sidecars")
      << deployment.dump();
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
