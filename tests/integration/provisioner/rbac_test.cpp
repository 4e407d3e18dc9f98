// The RBAC manifest of deploy/kubernetes/csi-provisioner/ on a real API
// server (docs/provisioner.md §6): the provisioner's ServiceAccount may do
// exactly what upstream's rules grant - every verb on every resource the
// roles name, in the account's namespace and another, and on resources they
// do not name (Secrets, whose rule is commented out; claim and PV status;
// ReferenceGrants; VolumeAttributesClasses, read but not granted upstream) -
// as the authorizer answers SubjectAccessReviews.
#include <gtest/gtest.h>

#include "tests/integration/provisioner/provisioner_fixture.h"
#include "tests/support/access_review.h"

namespace provisioner_it {
namespace {

using testsupport::AccessRule;
using testsupport::AccessTarget;
using testsupport::kAnyNamespace;

constexpr char kCore[] = "";
constexpr char kStorage[] = "storage.k8s.io";
constexpr char kSnapshot[] = "snapshot.storage.k8s.io";
constexpr char kCoordination[] = "coordination.k8s.io";
constexpr char kApps[] = "apps";
constexpr char kGateway[] = "gateway.networking.k8s.io";
constexpr char kOtherNamespace[] = "kube-system";

// external-provisioner v6.4.0 deploy/kubernetes/rbac.yaml.
const std::vector<AccessRule> kUpstreamRules = {
    {kCore,
     "persistentvolumes",
     kAnyNamespace,
     {"get", "list", "watch", "create", "patch", "delete"}},
    {kCore, "persistentvolumeclaims", kAnyNamespace, {"get", "list", "watch", "update"}},
    {kStorage, "storageclasses", kAnyNamespace, {"get", "list", "watch"}},
    {kCore, "events", kAnyNamespace, {"list", "watch", "create", "update", "patch"}},
    {kSnapshot, "volumesnapshots", kAnyNamespace, {"get", "list", "watch", "update"}},
    {kSnapshot, "volumesnapshotcontents", kAnyNamespace, {"get", "list"}},
    {kStorage, "csinodes", kAnyNamespace, {"get", "list", "watch"}},
    {kCore, "nodes", kAnyNamespace, {"get", "list", "watch"}},
    {kStorage, "volumeattachments", kAnyNamespace, {"get", "list", "watch"}},
    {kCoordination,
     "leases",
     kProvisionerNamespace,
     {"get", "watch", "list", "delete", "update", "create"}},
    {kStorage,
     "csistoragecapacities",
     kProvisionerNamespace,
     {"get", "list", "watch", "create", "update", "patch", "delete"}},
    {kCore, "pods", kProvisionerNamespace, {"get"}},
    {kApps, "replicasets", kProvisionerNamespace, {"get"}},
};

std::vector<AccessTarget> Targets() {
  std::vector<AccessTarget> targets;
  for (const char* r : {"persistentvolumes", "persistentvolumes/status", "nodes"}) {
    targets.push_back({kCore, r, ""});
  }
  for (const char* r : {"storageclasses", "csinodes", "volumeattachments",
                        "volumeattachments/status", "volumeattributesclasses"}) {
    targets.push_back({kStorage, r, ""});
  }
  targets.push_back({kSnapshot, "volumesnapshotcontents", ""});
  auto add_namespaced = [&](const std::string& group, const std::string& resource) {
    for (const char* ns : {kProvisionerNamespace, kOtherNamespace}) {
      targets.push_back({group, resource, ns});
    }
  };
  for (const char* r :
       {"persistentvolumeclaims", "persistentvolumeclaims/status", "events", "secrets", "pods"}) {
    add_namespaced(kCore, r);
  }
  add_namespaced(kSnapshot, "volumesnapshots");
  add_namespaced(kSnapshot, "volumesnapshots/status");
  add_namespaced(kCoordination, "leases");
  add_namespaced(kStorage, "csistoragecapacities");
  add_namespaced(kApps, "replicasets");
  add_namespaced(kGateway, "referencegrants");
  return targets;
}

TEST_F(ProvisionerTest, ServiceAccountMayDoExactlyWhatUpstreamRulesGrant) {
  auto comparison = testsupport::CompareAccess(*admin_, kProvisionerNamespace, kProvisionerAccount,
                                               Targets(), kUpstreamRules);
  ASSERT_TRUE(comparison.ok()) << comparison.error().message;
  for (const std::string& mismatch : comparison->mismatches) ADD_FAILURE() << mismatch;
  EXPECT_GT(comparison->granted, 0) << "the table grants nothing: the check would prove nothing";
}

}  // namespace
}  // namespace provisioner_it
