// docs/attacher.md §1.3: the gates the attacher's --feature-gates accepts, and the
// featuregate package's rules for setting them, seen through that table.
#include "attacher/command/feature_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tests/unit/component/feature_gate_table_checks.h"
#include "tests/unit/csi/fake_driver.h"

namespace csiattacher {
namespace {

using component::FeatureGates;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;
using ::testing::SizeIs;

TEST(FeatureGatesTest, MutableCSINodeAllocatableCountIsOnAndCanBeTurnedOffWithAWarning) {
  component::testing::ExpectGaGateCanBeTurnedOffWithAWarning(
      KnownFeatureSpecs(), std::string(kMutableCSINodeAllocatableCount));
}

TEST(FeatureGatesTest, ReleaseLeaderElectionOnExitIsOffAndCanBeTurnedOn) {
  component::testing::ExpectGateOffByDefaultCanBeTurnedOn(
      KnownFeatureSpecs(), std::string(kReleaseLeaderElectionOnExit));
}

// Upstream's flag reaches the process-wide apiserver gate, so manifests may
// name any of its gates.
TEST(FeatureGatesTest, ApiserverAndZpagesGatesAreAccepted) {
  for (const char* name :
       {"AllAlpha", "AllBeta", "ComponentFlagz", "ComponentStatusz", "APIResponseCompression",
        "APIServerIdentity", "WatchList", "ConsistentListFromCache", "KMSv1", "StorageVersionHash",
        "OpenAPIEnums", "UnauthenticatedHTTP2DOSMitigation"}) {
    FeatureGates gates(KnownFeatureSpecs());
    bool value = gates.Enabled(name);
    base::Status s = gates.SetFromMap({{name, value}});
    EXPECT_TRUE(s.ok()) << name << ": " << s.error().message;
  }
}

TEST(FeatureGatesTest, UnknownGateIsRejectedAndNothingChanges) {
  FeatureGates gates(KnownFeatureSpecs());
  base::Status s = gates.SetFromMap({{"ReleaseLeaderElectionOnExit", true}, {"Warp", true}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unrecognized feature gate: Warp");
  EXPECT_FALSE(gates.Enabled(kReleaseLeaderElectionOnExit));
}

TEST(FeatureGatesTest, GateLockedToDefaultCannotChange) {
  FeatureGates gates(KnownFeatureSpecs());
  EXPECT_TRUE(gates.SetFromMap({{"ConsistentListFromCache", true}}).ok());
  base::Status s = gates.SetFromMap({{"ConsistentListFromCache", false}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "cannot set feature gate ConsistentListFromCache to false, feature is locked to true");
}

TEST(FeatureGatesTest, SeveralErrorsAreJoined) {
  FeatureGates gates(KnownFeatureSpecs());
  base::Status s = gates.SetFromMap({{"APIServerTracing", false}, {"BtreeWatchCache", false}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "[cannot set feature gate APIServerTracing to false, feature is locked to true, "
            "cannot set feature gate BtreeWatchCache to false, feature is locked to true]");
}

TEST(FeatureGatesTest, AllAlphaSetsAlphaGatesButExplicitSettingsWin) {
  FeatureGates gates(KnownFeatureSpecs());
  ASSERT_TRUE(gates.SetFromMap({{"AllAlpha", true}}).ok());
  EXPECT_TRUE(gates.Enabled(kReleaseLeaderElectionOnExit));
  EXPECT_TRUE(gates.Enabled("NativeHistograms"));
  EXPECT_FALSE(gates.Enabled("AllBeta"));
  EXPECT_FALSE(gates.Enabled("CoordinatedLeaderElection"));  // beta

  FeatureGates explicit_wins(KnownFeatureSpecs());
  ASSERT_TRUE(
      explicit_wins.SetFromMap({{"AllAlpha", true}, {"ReleaseLeaderElectionOnExit", false}}).ok());
  EXPECT_FALSE(explicit_wins.Enabled(kReleaseLeaderElectionOnExit));
  EXPECT_TRUE(explicit_wins.Enabled("NativeHistograms"));
}

TEST(FeatureGatesTest, AllBetaSetsBetaGates) {
  FeatureGates gates(KnownFeatureSpecs());
  ASSERT_TRUE(gates.SetFromMap({{"AllBeta", false}}).ok());
  EXPECT_FALSE(gates.Enabled("WatchList"));
  EXPECT_TRUE(gates.Enabled(kMutableCSINodeAllocatableCount));  // GA: untouched
}

TEST(FeatureGatesTest, EmptyMapChangesNothing) {
  FeatureGates gates(KnownFeatureSpecs());
  EXPECT_TRUE(gates.SetFromMap({}).ok());
  EXPECT_TRUE(gates.Enabled(kMutableCSINodeAllocatableCount));
}

TEST(FeatureGatesTest, KnownFeaturesListSettableGatesLikeUpstream) {
  std::vector<std::string> known = FeatureGates(KnownFeatureSpecs()).KnownFeatures();
  EXPECT_THAT(known, Contains("AllAlpha=true|false (ALPHA - default=false)"));
  EXPECT_THAT(known, Contains("AllBeta=true|false (BETA - default=false)"));
  EXPECT_THAT(known, Contains("ReleaseLeaderElectionOnExit=true|false (ALPHA - default=false)"));
  EXPECT_THAT(known, Contains("APIResponseCompression=true|false (BETA - default=true)"));
  EXPECT_THAT(known,
              Not(Contains("MutableCSINodeAllocatableCount=true|false (GA - default=true)")));
  EXPECT_TRUE(std::is_sorted(known.begin(), known.end()));
  // Go sorts bytewise: upper case before lower case.
  EXPECT_EQ(known[0].substr(0, known[0].find('=')), "APIResponseCompression");
}

TEST(FeatureGatesTest, DeprecatedGateWarnsAndUpdatedIsLoggedAtV1) {
  csi::testing::LogCapture logs(1);
  FeatureGates gates(KnownFeatureSpecs());
  ASSERT_TRUE(gates.SetFromMap({{"KMSv1", true}, {"WatchList", false}}).ok());
  EXPECT_THAT(logs.Grep(R"("Warning: setting deprecated feature gate. It will be removed in a )"
                        R"(future release." featureGate="KMSv1" value=true)"),
              SizeIs(1));
  EXPECT_THAT(logs.Grep(R"("Updated" featureGates="{\"KMSv1\":true,\"WatchList\":false}")"),
              SizeIs(1));
}

// The list upstream v4.12's --help prints (Kubernetes 1.36 libraries).
TEST(FeatureGatesTest, KnownFeaturesAreUpstreamsList) {
  EXPECT_THAT(
      FeatureGates(KnownFeatureSpecs()).KnownFeatures(),
      ElementsAre("APIResponseCompression=true|false (BETA - default=true)",
                  "APIServerIdentity=true|false (BETA - default=true)",
                  "APIServingWithRoutine=true|false (ALPHA - default=false)",
                  "AllAlpha=true|false (ALPHA - default=false)",
                  "AllBeta=true|false (BETA - default=false)",
                  "AllowParsingUserUIDFromCertAuth=true|false (BETA - default=true)",
                  "AllowUnsafeMalformedObjectDeletion=true|false (ALPHA - default=false)",
                  "CBORServingAndStorage=true|false (ALPHA - default=false)",
                  "ComponentFlagz=true|false (BETA - default=true)",
                  "ComponentStatusz=true|false (BETA - default=true)",
                  "ConcurrentWatchObjectDecode=true|false (BETA - default=false)",
                  "ConstrainedImpersonation=true|false (BETA - default=true)",
                  "CoordinatedLeaderElection=true|false (BETA - default=false)",
                  "DeclarativeValidationBeta=true|false (BETA - default=true)",
                  "DetectCacheInconsistency=true|false (BETA - default=true)",
                  "ListFromCacheSnapshot=true|false (BETA - default=true)",
                  "ManifestBasedAdmissionControlConfig=true|false (ALPHA - default=false)",
                  "NativeHistograms=true|false (ALPHA - default=false)",
                  "OpenAPIEnums=true|false (BETA - default=true)",
                  "ReleaseLeaderElectionOnExit=true|false (ALPHA - default=false)",
                  "RemoteRequestHeaderUID=true|false (BETA - default=true)",
                  "ShardedListAndWatch=true|false (ALPHA - default=false)",
                  "SizeBasedListCostEstimate=true|false (BETA - default=true)",
                  "StorageVersionAPI=true|false (ALPHA - default=false)",
                  "StorageVersionHash=true|false (BETA - default=true)",
                  "StructuredAuthenticationConfigurationEgressSelector=true|false (BETA - "
                  "default=true)",
                  "StructuredAuthenticationConfigurationJWKSMetrics=true|false (BETA - "
                  "default=true)",
                  "TokenRequestServiceAccountUIDValidation=true|false (BETA - default=true)",
                  "UnauthenticatedHTTP2DOSMitigation=true|false (BETA - default=true)",
                  "UnknownVersionInteroperabilityProxy=true|false (BETA - default=true)",
                  "WatchCacheInitializationPostStartHook=true|false (BETA - default=true)",
                  "WatchList=true|false (BETA - default=true)"));
}

// Upstream accepts these without listing them; some are locked.
TEST(FeatureGatesTest, HiddenGaAndDeprecatedGatesAreAcceptedWithTheirLocks) {
  for (const char* name : {"MutableCSINodeAllocatableCount", "MutatingAdmissionPolicy", "KMSv1",
                           "DeclarativeValidationTakeover"}) {
    EXPECT_TRUE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{name, true}}).ok()) << name;
    EXPECT_TRUE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{name, false}}).ok()) << name;
  }
  EXPECT_FALSE(
      FeatureGates(KnownFeatureSpecs()).SetFromMap({{"SeparateCacheWatchRPC", true}}).ok());
  EXPECT_FALSE(FeatureGates(KnownFeatureSpecs())
                   .SetFromMap({{"AggregatedDiscoveryRemoveBetaType", false}})
                   .ok());
  // Gone from Kubernetes 1.36.
  EXPECT_FALSE(FeatureGates(KnownFeatureSpecs())
                   .SetFromMap({{"StructuredAuthorizationConfiguration", true}})
                   .ok());
}

TEST(FeatureGatesTest, AskingForAnUnknownGateIsAProgrammingError) {
  EXPECT_THROW(FeatureGates(KnownFeatureSpecs()).Enabled("Warp"), std::logic_error);
}

TEST(FeatureGatesTest, KnownSpecsAreSortedAndUnique) {
  component::testing::ExpectSortedAndUnique(KnownFeatureSpecs());
  EXPECT_GE(KnownFeatureSpecs().size(), 45u);
}

}  // namespace
}  // namespace csiattacher
