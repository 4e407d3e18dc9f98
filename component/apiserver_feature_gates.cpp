#include "component/apiserver_feature_gates.h"

namespace component {

std::vector<FeatureSpec> ApiServerFeatureSpecs() {
  using enum FeatureStage;
  // The settable gates upstream's --help lists, plus the GA and deprecated
  // ones it accepts without listing them, with their locks.
  return {
      {"APIResponseCompression", true, kBeta},
      {"APIServerIdentity", true, kBeta},
      {"APIServerWebhookAuthenticationToken", false, kAlpha},
      {"APIServingWithRoutine", false, kAlpha},
      {"AggregatedDiscoveryRemoveBetaType", true, kDeprecated, true},
      {kAllAlpha, false, kAlpha},
      {kAllBeta, false, kBeta},
      {"AllowParsingUserUIDFromCertAuth", true, kBeta},
      {"AllowUnsafeMalformedObjectDeletion", true, kBeta},
      {"CBORServingAndStorage", false, kAlpha},
      {"ComponentFlagz", true, kBeta},
      {"ComponentStatusz", true, kBeta},
      {"ConcurrentWatchObjectDecode", true, kBeta},
      {"ConsistentListFromCacheSkipTimeoutFallback", false, kAlpha},
      {"ConstrainedImpersonation", true, kBeta},
      {"CoordinatedLeaderElection", false, kBeta},
      {"DeclarativeValidation", true, kGA, true},
      {"DeclarativeValidationBeta", true, kBeta},
      {"DeclarativeValidationTakeover", false, kDeprecated, true},
      {"DetectCacheInconsistency", true, kBeta},
      {"EtcdRangeStream", true, kBeta},
      {"ExcludeAdmissionWebhookVirtualResources", true, kBeta},
      {"KMSv1", false, kDeprecated},
      {"ListFromCacheSnapshot", true, kBeta},
      {"ManifestBasedAdmissionControlConfig", true, kBeta},
      {"MutatingAdmissionPolicy", true, kGA},
      {"NativeHistograms", true, kBeta},
      {"OpenAPIEnums", true, kBeta},
      {"RemoteRequestHeaderUID", true, kBeta},
      {"SeparateCacheWatchRPC", false, kDeprecated, true},
      {"ShardedListAndWatch", false, kAlpha},
      {"SizeBasedListCostEstimate", true, kBeta},
      {"StorageVersionAPI", false, kAlpha},
      {"StorageVersionHash", true, kBeta},
      {"StructuredAuthenticationConfigurationEgressSelector", true, kBeta},
      {"StructuredAuthenticationConfigurationJWKSMetrics", true, kBeta},
      {"TokenRequestServiceAccountUIDValidation", true, kBeta},
      {"UnauthenticatedHTTP2DOSMitigation", true, kBeta},
      {"UnknownVersionInteroperabilityProxy", true, kBeta},
      {"WatchCacheInitializationPostStartHook", true, kGA, true},
      {"WatchList", true, kBeta},
      {"WatchListCompression", true, kBeta},
      {"WebhookRoundTripLoadBalancing", true, kBeta},

  };
}

}  // namespace component
