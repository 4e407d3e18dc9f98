// docs/snapshots.md §1 "Feature gates", §3.1 and §4.1: the gates the snapshot
// binaries' --feature-gates accepts (upstream v8.7.0, Kubernetes 1.37 libraries).
#include "snapshot/feature_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/component/feature_gate_table_checks.h"

namespace snapshot {
namespace {

using component::FeatureGates;
using ::testing::ElementsAre;

TEST(SnapshotFeatureGatesTest, GroupSnapshotsAreOnAndCanBeTurnedOffWithAWarning) {
  component::testing::ExpectGaGateCanBeTurnedOffWithAWarning(KnownFeatureSpecs(),
                                                             std::string(kCSIVolumeGroupSnapshot));
}

TEST(SnapshotFeatureGatesTest, ReleaseLeaderElectionOnExitIsOffAndCanBeTurnedOn) {
  component::testing::ExpectGateOffByDefaultCanBeTurnedOn(
      KnownFeatureSpecs(), std::string(kReleaseLeaderElectionOnExit));
}

// The list upstream v8.7.0's --help prints.
TEST(SnapshotFeatureGatesTest, KnownFeaturesAreUpstreamsList) {
  EXPECT_THAT(
      FeatureGates(KnownFeatureSpecs()).KnownFeatures(),
      ElementsAre("APIResponseCompression=true|false (BETA - default=true)",
                  "APIServerIdentity=true|false (BETA - default=true)",
                  "APIServerWebhookAuthenticationToken=true|false (ALPHA - default=false)",
                  "APIServingWithRoutine=true|false (ALPHA - default=false)",
                  "AllAlpha=true|false (ALPHA - default=false)",
                  "AllBeta=true|false (BETA - default=false)",
                  "AllowParsingUserUIDFromCertAuth=true|false (BETA - default=true)",
                  "AllowUnsafeMalformedObjectDeletion=true|false (BETA - default=true)",
                  "CBORServingAndStorage=true|false (ALPHA - default=false)",
                  "ComponentFlagz=true|false (BETA - default=true)",
                  "ComponentStatusz=true|false (BETA - default=true)",
                  "ConcurrentWatchObjectDecode=true|false (BETA - default=true)",
                  "ConsistentListFromCacheSkipTimeoutFallback=true|false (ALPHA - default=false)",
                  "ConstrainedImpersonation=true|false (BETA - default=true)",
                  "CoordinatedLeaderElection=true|false (BETA - default=false)",
                  "DeclarativeValidationBeta=true|false (BETA - default=true)",
                  "DetectCacheInconsistency=true|false (BETA - default=true)",
                  "EtcdRangeStream=true|false (BETA - default=true)",
                  "ExcludeAdmissionWebhookVirtualResources=true|false (BETA - default=true)",
                  "ListFromCacheSnapshot=true|false (BETA - default=true)",
                  "ManifestBasedAdmissionControlConfig=true|false (BETA - default=true)",
                  "NativeHistograms=true|false (BETA - default=true)",
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
                  "WatchList=true|false (BETA - default=true)",
                  "WatchListCompression=true|false (BETA - default=true)",
                  "WebhookRoundTripLoadBalancing=true|false (BETA - default=true)"));
}

// Upstream accepts these without listing them; some are locked. The 1.37
// libraries differ from the attacher's 1.36 ones.
TEST(SnapshotFeatureGatesTest, HiddenGatesAreAcceptedWithTheirLocks) {
  for (const char* name : {"CSIVolumeGroupSnapshot", "MutatingAdmissionPolicy", "KMSv1"}) {
    EXPECT_TRUE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{name, true}}).ok()) << name;
    EXPECT_TRUE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{name, false}}).ok()) << name;
  }
  for (const char* locked_true : {"WatchCacheInitializationPostStartHook", "DeclarativeValidation",
                                  "AggregatedDiscoveryRemoveBetaType"}) {
    EXPECT_FALSE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{locked_true, false}}).ok())
        << locked_true;
  }
  for (const char* locked_false : {"DeclarativeValidationTakeover", "SeparateCacheWatchRPC"}) {
    EXPECT_FALSE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{locked_false, true}}).ok())
        << locked_false;
  }
  // Gone in Kubernetes 1.37 (the attacher's 1.36 libraries still have them).
  for (const char* gone : {"APIServerTracing", "ConsistentListFromCache", "BtreeWatchCache",
                           "MutableCSINodeAllocatableCount"}) {
    EXPECT_FALSE(FeatureGates(KnownFeatureSpecs()).SetFromMap({{gone, true}}).ok()) << gone;
  }
}

TEST(SnapshotFeatureGatesTest, KnownSpecsAreSortedAndUnique) {
  component::testing::ExpectSortedAndUnique(KnownFeatureSpecs());
  EXPECT_EQ(KnownFeatureSpecs().size(), 45u);
}

}  // namespace
}  // namespace snapshot
