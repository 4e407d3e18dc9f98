// Claims the provisioner must not provision. A class it cannot use gets
// upstream's Warning ProvisioningFailed Event with the raw error, and the
// driver is never asked (docs/provisioner.md §3.3 steps 6 and 10, §3.4,
// §3.5, §3.10); a claim of another driver's class gets nothing at all (§3.1).
//
// No case for an access mode the driver does not support: upstream maps each
// of the claim's modes to a CSI mode without asking the driver (§3.3 step 7),
// and the API server refuses modes that have no CSI mode.
#include <gtest/gtest.h>

#include "tests/integration/provisioner/provisioner_fixture.h"

namespace provisioner_it {
namespace {

using nlohmann::json;

class BadInputTest : public ProvisionerPairTest {
 protected:
  // Starts the mock driver and the provisioner, creates a class of the
  // driver with `parameters` and a claim of it, and expects the claim's
  // Warning ProvisioningFailed Event from the provisioning controller with
  // `message`, and nothing provisioned: the claim Pending without a volume
  // and (the Event came after the failed attempt) the driver never asked.
  void ExpectFailureWithoutCreateVolume(const Names& n,
                                        const std::map<std::string, std::string>& parameters,
                                        const std::string& message) {
    ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver));
    ASSERT_NO_FATAL_FAILURE(CreateStorageClass(
        {.name = n.storage_class, .provisioner = n.driver, .parameters = parameters}));
    ASSERT_NE(StartProvisionerUnderTest(), nullptr);
    ASSERT_TRUE(CreateClaim({.name = n.claim, .storage_class = n.storage_class}).is_object());

    auto failed = AwaitEvent("default", "PersistentVolumeClaim", n.claim, "ProvisioningFailed");
    ASSERT_TRUE(failed.has_value()) << "no ProvisioningFailed Event";
    EXPECT_EQ(failed->type, "Warning");
    EXPECT_EQ(failed->message, message);
    std::string why;
    EXPECT_TRUE(FromProvisionController(*failed, n.driver, &why)) << why;
    json pending = GetClaim("default", n.claim);
    EXPECT_EQ(PhaseOf(pending), "Pending") << pending.dump();
    EXPECT_FALSE(pending["spec"].contains("volumeName")) << pending.dump();
    EXPECT_EQ(DriverCalls("CreateVolume"), 0);
  }
};

// §3.4.
TEST_P(BadInputTest, UnknownReservedParameterKeyFailsWithoutCreateVolume) {
  ExpectFailureWithoutCreateVolume(
      NamesFor("bad-key"), {{"csi.storage.k8s.io/no-such-key", "x"}},
      "failed to strip CSI Parameters of prefixed keys: found unknown parameter key "
      "\"csi.storage.k8s.io/no-such-key\" with reserved namespace csi.storage.k8s.io/");
}

// §3.3 step 6.
TEST_P(BadInputTest, BothFsTypeKeysFailWithoutCreateVolume) {
  ExpectFailureWithoutCreateVolume(
      NamesFor("bad-fstype"), {{"fstype", "ext4"}, {"csi.storage.k8s.io/fstype", "xfs"}},
      "fstype specified in parameters with both \"fstype\" and \"csi.storage.k8s.io/fstype\" "
      "keys");
}

// §3.5: the Secret is read and is not there.
TEST_P(BadInputTest, MissingProvisionerSecretFailsWithoutCreateVolume) {
  const std::string secret = Unique("no-such-secret");
  ASSERT_NO_FATAL_FAILURE(GrantSecretRead());
  ExpectFailureWithoutCreateVolume(
      NamesFor("bad-secret"),
      {{"csi.storage.k8s.io/provisioner-secret-name", secret},
       {"csi.storage.k8s.io/provisioner-secret-namespace", kSecretsNamespace}},
      "error getting secret " + secret + " in namespace " + kSecretsNamespace + ": secrets \"" +
          secret + "\" not found");
}

// §3.5: a name without its namespace.
TEST_P(BadInputTest, SecretNameWithoutNamespaceFailsWithoutCreateVolume) {
  ExpectFailureWithoutCreateVolume(
      NamesFor("bad-secret-ref"), {{"csi.storage.k8s.io/provisioner-secret-name", "creds"}},
      "failed to get name and namespace template from params: either name and namespace for "
      "Provisioner secrets specified, Both must be specified");
}

// §3.5: a namespace template may not use the claim's name.
TEST_P(BadInputTest, SecretNamespaceTemplateWithClaimNameFailsWithoutCreateVolume) {
  ExpectFailureWithoutCreateVolume(
      NamesFor("bad-secret-token"),
      {{"csi.storage.k8s.io/provisioner-secret-name", "creds"},
       {"csi.storage.k8s.io/provisioner-secret-namespace", "${pvc.name}"}},
      "error resolving value \"${pvc.name}\": invalid tokens: [\"pvc.name\"]");
}

// The claim of another driver's class is created first, and its annotation
// for that driver awaited; a good claim after it is provisioned and bound.
// The provisioner saw the first claim before the second, so by then it has
// decided to leave it alone.
TEST_P(BadInputTest, ClaimOfAnotherDriversClassGetsNothing) {
  const Names n = NamesFor("foreign");
  const std::string other_driver = Unique("other") + ".csi.example.com";
  const std::string foreign_class = Unique("foreign-class");
  const std::string foreign_claim = Unique("foreign-claim");
  ASSERT_NO_FATAL_FAILURE(StartMockDriver(n.driver));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = foreign_class, .provisioner = other_driver}));
  ASSERT_NO_FATAL_FAILURE(CreateStorageClass({.name = n.storage_class, .provisioner = n.driver}));
  ASSERT_NE(StartProvisionerUnderTest(), nullptr);
  ASSERT_TRUE(CreateClaim({.name = foreign_claim, .storage_class = foreign_class}).is_object());
  ASSERT_TRUE(Eventually([&] {
    return AnnotationOf(GetClaim("default", foreign_claim), kStorageProvisioner) == other_driver;
  })) << "kube-controller-manager did not annotate the claim for "
      << other_driver;

  json good = CreateClaim({.name = n.claim, .storage_class = n.storage_class});
  ASSERT_TRUE(good.is_object());
  ASSERT_EQ(PhaseOf(AwaitBound("default", n.claim)), "Bound");

  json foreign = GetClaim("default", foreign_claim);
  EXPECT_EQ(PhaseOf(foreign), "Pending") << foreign.dump();
  EXPECT_FALSE(foreign["spec"].contains("volumeName")) << foreign.dump();
  std::vector<std::string> created;
  for (const auto& [id, context] : DriverVolumes()) {
    auto name = context.find("name");
    if (name != context.end() && name->second.starts_with("pvc-")) created.push_back(name->second);
  }
  EXPECT_EQ(created, std::vector<std::string>{PvNameOf(good)});
  // kube-controller-manager's ExternalProvisioning Events only.
  const auto events = EventsAbout("default", "PersistentVolumeClaim", foreign_claim);
  EXPECT_FALSE(events.empty()) << "no Event at all: the check below would prove nothing";
  for (const kube::Event& event : events) {
    EXPECT_EQ(event.source.component, "persistentvolume-controller")
        << event.reason << ": " << event.message;
  }
}

INSTANTIATE_PROVISIONER_PAIRS(BadInputTest);

}  // namespace
}  // namespace provisioner_it
