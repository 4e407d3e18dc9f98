#include "attacher/command/feature_gates.h"

namespace csiattacher {

const std::vector<component::FeatureSpec>& KnownFeatureSpecs() {
  using component::kAllAlpha;
  using component::kAllBeta;
  using enum component::FeatureStage;
  // The settable gates upstream's --help lists, plus the GA and deprecated
  // ones it accepts without listing them, with their locks.
  static const std::vector<component::FeatureSpec> specs = component::SortedByName({
      {"APIResponseCompression", true, kBeta},
      {"APIServerIdentity", true, kBeta},
      {"APIServerTracing", true, kGA, true},
      {"APIServingWithRoutine", false, kAlpha},
      {"AggregatedDiscoveryRemoveBetaType", true, kDeprecated, true},
      {kAllAlpha, false, kAlpha},
      {kAllBeta, false, kBeta},
      {"AllowParsingUserUIDFromCertAuth", true, kBeta},
      {"AllowUnsafeMalformedObjectDeletion", false, kAlpha},
      {"AnonymousAuthConfigurableEndpoints", true, kGA, true},
      {"AuthorizeWithSelectors", true, kGA, true},
      {"BtreeWatchCache", true, kGA, true},
      {"CBORServingAndStorage", false, kAlpha},
      {"ComponentFlagz", true, kBeta},
      {"ComponentStatusz", true, kBeta},
      {"ConcurrentWatchObjectDecode", false, kBeta},
      {"ConsistentListFromCache", true, kGA, true},
      {"ConstrainedImpersonation", true, kBeta},
      {"CoordinatedLeaderElection", false, kBeta},
      {"DeclarativeValidation", true, kGA, true},
      {"DeclarativeValidationBeta", true, kBeta},
      {"DeclarativeValidationTakeover", false, kDeprecated},
      {"DetectCacheInconsistency", true, kBeta},
      {"KMSv1", false, kDeprecated},
      {"ListFromCacheSnapshot", true, kBeta},
      {"ManifestBasedAdmissionControlConfig", false, kAlpha},
      {kMutableCSINodeAllocatableCount, true, kGA},
      {"MutatingAdmissionPolicy", true, kGA},
      {"NativeHistograms", false, kAlpha},
      {"OpenAPIEnums", true, kBeta},
      {kReleaseLeaderElectionOnExit, false, kAlpha},
      {"RemoteRequestHeaderUID", true, kBeta},
      {"ResilientWatchCacheInitialization", true, kGA, true},
      {"RetryGenerateName", true, kGA, true},
      {"SeparateCacheWatchRPC", false, kDeprecated, true},
      {"ShardedListAndWatch", false, kAlpha},
      {"SizeBasedListCostEstimate", true, kBeta},
      {"StorageVersionAPI", false, kAlpha},
      {"StorageVersionHash", true, kBeta},
      {"StreamingCollectionEncodingToJSON", true, kGA, true},
      {"StreamingCollectionEncodingToProtobuf", true, kGA, true},
      {"StructuredAuthenticationConfiguration", true, kGA, true},
      {"StructuredAuthenticationConfigurationEgressSelector", true, kBeta},
      {"StructuredAuthenticationConfigurationJWKSMetrics", true, kBeta},
      {"TokenRequestServiceAccountUIDValidation", true, kBeta},
      {"UnauthenticatedHTTP2DOSMitigation", true, kBeta},
      {"UnknownVersionInteroperabilityProxy", true, kBeta},
      {"WatchCacheInitializationPostStartHook", true, kBeta},
      {"WatchList", true, kBeta},
  });
  return specs;
}

}  // namespace csiattacher
